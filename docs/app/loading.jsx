// Shown while a route loads; the spinner fades in only after 200 ms (see global.css).
export default function Loading() {
  return (
    <div className="pw-spinner-wrap" role="status" aria-label="Loading">
      <div className="pw-spinner" />
    </div>
  );
}
