import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Room kept between a panel and the window's edge. */
const MARGIN = 8;

/**
 * A toolbar button with a panel under it (Views, Columns). The panel closes on Escape, on the button, and on a
 * click anywhere else, so two never lie over each other; near the window's right edge it moves left to fit.
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
  const panel = useRef<HTMLDivElement>(null);
  // Placed in the window (fixed), so the grid's clipped, scrolling area never cuts it off: under the button, moved
  // left when it would pass the window's right edge.
  const [place, setPlace] = useState<{ top: number; left: number; maxHeight: number } | null>(null);
  useLayoutEffect(() => {
    if (!open || !anchor.current || !panel.current) return;
    const button = anchor.current.getBoundingClientRect();
    const width = panel.current.offsetWidth;
    const left = Math.max(MARGIN, Math.min(button.left, window.innerWidth - MARGIN - width));
    const top = button.bottom + 4;
    setPlace({ top, left, maxHeight: window.innerHeight - top - MARGIN });
  }, [open]);
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
      <button
        type="button"
        aria-expanded={open}
        onClick={() => {
          setPlace(null);
          setOpen(!open);
        }}
      >
        {label}
      </button>
      {open && (
        <div
          ref={panel}
          // Measured out of sight first, where it moves nothing else.
          style={{ position: 'fixed', ...(place ?? { top: 0, left: 0, visibility: 'hidden' }) }}
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
