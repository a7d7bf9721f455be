import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';

// What the overview's dialogs share: the frame over the page, the row of actions, the name field and the running
// of a request that keeps the dialog open with the server's reason when it is refused.

/**
 * A dialog over the page: a click beside it or Escape closes it. A form unless `as="div"` (a dialog of several
 * steps, each its own form); `heading` when the title shown differs from the dialog's accessible name.
 */
export function Dialog({
  label,
  heading = label,
  as = 'form',
  className,
  closeOnEscape = true,
  onSubmit,
  onClose,
  children,
}: {
  label: string;
  heading?: ReactNode;
  as?: 'form' | 'div';
  /** Added to pwo-dialog. */
  className?: string;
  closeOnEscape?: boolean;
  onSubmit?(event: FormEvent): void;
  onClose(): void;
  children: ReactNode;
}) {
  const frame = {
    className: className ? `pwo-dialog ${className}` : 'pwo-dialog',
    role: 'dialog',
    'aria-label': label,
    onKeyDown: closeOnEscape ? (e: KeyboardEvent) => e.key === 'Escape' && onClose() : undefined,
    children: (
      <>
        <h2>{heading}</h2>
        {children}
      </>
    ),
  };
  return (
    <div className="pwo-dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      {as === 'form' ? <form {...frame} onSubmit={onSubmit} /> : <div {...frame} />}
    </div>
  );
}

/** Submit and cancel (with any other buttons between); the submit button names what it does and says when busy. */
export function Actions({
  busy,
  doing,
  done,
  disabled,
  onClose,
  children,
}: {
  busy: boolean;
  doing: string;
  done: string;
  disabled?: boolean;
  onClose(): void;
  children?: ReactNode;
}) {
  return (
    <div className="pwo-dialog-actions">
      <button type="submit" className="primary" disabled={busy || disabled}>
        {busy ? doing : done}
      </button>
      {children}
      <button type="button" onClick={onClose}>
        Cancel
      </button>
    </div>
  );
}

/** The name of what a dialog makes or renames: required, focused first. */
export function NameField({
  label,
  name,
  value,
  placeholder,
  onChange,
}: {
  label: string;
  /** The input's name attribute, where the form has one. */
  name?: string;
  value: string;
  placeholder?: string;
  onChange(value: string): void;
}) {
  return (
    <label>
      {label}
      <input
        name={name}
        value={value}
        autoFocus
        required
        maxLength={255}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/** Runs a request, keeping the dialog open with the server's reason when it is refused. */
export function useRequest() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (request: () => Promise<string | null>) => {
    setBusy(true);
    setError(await request());
    setBusy(false);
  };
  return { error, setError, busy, run };
}
