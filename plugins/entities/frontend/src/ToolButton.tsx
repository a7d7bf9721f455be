import type { ReactNode } from 'react';

/**
 * A toolbar button that is refused while `why` says why (the user's access, or nothing chosen): disabled, with the
 * reason as its tooltip; otherwise `hint` is the tooltip. `idle` disables it without a reason (nothing to act on).
 */
export function ToolButton({
  why,
  idle = false,
  hint,
  className,
  label,
  onClick,
  children,
}: {
  why?: string | null;
  idle?: boolean;
  hint?: string;
  className?: string;
  /** The accessible name, when it says more than the text. */
  label?: string;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      disabled={idle || !!why}
      title={why || hint}
      aria-label={label}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
