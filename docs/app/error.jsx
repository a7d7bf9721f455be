'use client';

// Crash fallback: the error and its causes, and a way to try the page again.
export default function PageCrashed({ error, reset }) {
  const chain = [];
  for (let current = error; current && chain.length < 8; current = current.cause)
    chain.push(String(current.message ?? current));
  return (
    <div className="pw-error-box" role="alert">
      <h1 style={{ fontSize: '1.6rem', fontWeight: 700 }}>This page crashed</h1>
      <pre>{chain.map((message, i) => (i ? `Cause: ${message}` : message)).join('\n')}</pre>
      <button type="button" onClick={() => reset()}>
        Try again
      </button>
    </div>
  );
}
