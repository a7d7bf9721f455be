export type Notice = { kind: 'error' | 'info'; text: string } | null;

/** A confirmation or an error over the grid; errors are alerts, so a screen reader says them at once. */
export function Toast({ notice, onDismiss }: { notice: Notice; onDismiss(): void }) {
  if (!notice) return null;
  const error = notice.kind === 'error';
  return (
    <div className={error ? 'pwo-toast pwo-toast-error' : 'pwo-toast'} role={error ? 'alert' : 'status'}>
      {notice.text}
      <button type="button" aria-label="Dismiss" onClick={onDismiss}>
        ✕
      </button>
    </div>
  );
}
