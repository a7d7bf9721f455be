import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A toolbar button with a panel under it (Views, Columns). The panel closes on Escape, on the button, and on a
 * click anywhere else, so two never lie over each other.
 */
export function Popover({
  label,
  title,
  className,
  children,
}: {
  /** The button's text. */
  label: string;
  /** The panel's accessible name and heading. */
  title: string;
  className: string;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      if (!anchor.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);
  return (
    <span className="pwo-popover-anchor" ref={anchor}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {label}
      </button>
      {open && (
        <div
          className={`pwo-popover ${className}`}
          role="dialog"
          aria-label={title}
          onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        >
          <h3>{title}</h3>
          {children(() => setOpen(false))}
        </div>
      )}
    </span>
  );
}
