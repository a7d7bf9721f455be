import { useEffect, useId, useState, type ReactNode } from 'react';

// Small form controls every screen needs, styled by the web app's theme (the pw- classes in its theme.css).

/** A destructive button that asks once more in place, instead of a browser dialog. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  /** The second button's label: say exactly what happens ("Delete jane"). */
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
      <button type="button" className="pw-danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span className="pw-confirm">
      <button
        type="button"
        className="pw-danger pw-danger-armed"
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

/** A passing confirmation of a change ("Saved."); nothing when there is none. */
export function Saved({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="pw-saved" role="status">
      {message}
    </p>
  );
}

/** A titled box of related content, its region named by the title; actions sit at the right of the title. */
export function Panel({
  title,
  label,
  actions,
  className,
  children,
}: {
  title: ReactNode;
  /** The region's accessible name when the title is not plain text. */
  label?: string;
  actions?: ReactNode;
  /** More classes for the box (layout within the screen). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      className={className ? `pw-panel ${className}` : 'pw-panel'}
      aria-label={label ?? (typeof title === 'string' ? title : undefined)}
    >
      <header className="pw-panel-header">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** The attributes a Field hands its input, tying it to the label and the hint. */
export interface FieldInputProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': boolean;
}

/** A labelled form field with a hint below it; the hint gives way to the error when the value is refused. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** Renders the input with the props that connect it to the label and the hint. */
  children(props: FieldInputProps): ReactNode;
}) {
  const id = useId();
  const note = error || hint;
  return (
    <div className={error ? 'pw-field pw-field-invalid' : 'pw-field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': note ? `${id}-note` : undefined, 'aria-invalid': !!error })}
      {note && (
        <small id={`${id}-note`} className={error ? 'pw-field-error' : 'muted'}>
          {note}
        </small>
      )}
    </div>
  );
}

/** The <option>s of a <select> or <datalist>, one per item: its value, and what the user reads (the value by default). */
export function Options<T>({
  items,
  value,
  label = value,
}: {
  items: readonly T[];
  value(item: T): string;
  label?(item: T): ReactNode;
}) {
  return items.map((item) => (
    <option key={value(item)} value={value(item)}>
      {label(item)}
    </option>
  ));
}
