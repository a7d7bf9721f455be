import { useEffect, useState, type ReactNode } from 'react';

/** Tabs of the screen; the chosen one is remembered in the address (?tab=) so a reload keeps it. */
export function Tabs<T extends string>({
  tabs,
  current,
  onChange,
}: {
  tabs: { id: T; label: string }[];
  current: T;
  onChange(id: T): void;
}) {
  return (
    <div className="ad-tabs" role="tablist">
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={tab.id === current}
          className={tab.id === current ? 'ad-tab ad-tab-current' : 'ad-tab'}
          onClick={() => onChange(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** A destructive button that asks once more in place, instead of a browser dialog. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  confirmLabel: string;
  onConfirm(): void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (!asking) return;
    // Asking expires, so a forgotten confirmation cannot be clicked by accident later.
    const timer = setTimeout(() => setAsking(false), 5000);
    return () => clearTimeout(timer);
  }, [asking]);
  if (!asking)
    return (
      <button type="button" className="ad-danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span className="ad-confirm">
      <button
        type="button"
        className="ad-danger ad-danger-armed"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** An error to show where it happened; nothing when there is none. */
export function ErrorNote({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p className="error-box" role="alert">
      {error}
    </p>
  );
}

/** A passing confirmation of a change ("Saved."). */
export function Saved({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="ad-saved" role="status">
      {message}
    </p>
  );
}

export function Panel({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="ad-panel" aria-label={title}>
      <header>
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}
