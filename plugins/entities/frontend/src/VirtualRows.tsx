import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type UIEvent,
} from 'react';

/**
 * A scrolling list that renders only the rows in view (plus a few either side), so ten thousand rows cost what
 * forty do. Every row has the same height, which makes the visible range a division instead of a measurement.
 * The header, when given, stays at the top of the same scroll box so it scrolls sideways with the rows.
 */
export function VirtualRows({
  count,
  rowHeight,
  renderRow,
  header,
  width,
  overscan = 8,
  revealIndex,
  className,
  label,
  role = 'grid',
  onKeyDown,
}: {
  count: number;
  rowHeight: number;
  renderRow(index: number, top: number): ReactNode;
  header?: ReactNode;
  /** The rows' full width (the grid's columns); the box scrolls sideways when narrower. */
  width?: number;
  overscan?: number;
  /** Scroll so this row is in view whenever it changes (keyboard moves, a newly created row). */
  revealIndex?: number | null;
  className?: string;
  label: string;
  role?: 'grid' | 'tree' | 'list';
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const headerBox = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const [headerHeight, setHeaderHeight] = useState(0);

  // The visible height changes with the window and the panels around the list.
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      setViewport(element.clientHeight);
      setHeaderHeight(headerBox.current?.offsetHeight ?? 0);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = box.current;
    if (!element || revealIndex === null || revealIndex === undefined || revealIndex < 0) return;
    const top = revealIndex * rowHeight;
    const bodyHeight = element.clientHeight - headerHeight;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + rowHeight > element.scrollTop + bodyHeight)
      element.scrollTop = top + rowHeight - bodyHeight;
  }, [revealIndex, rowHeight, headerHeight]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) rows.push(renderRow(index, index * rowHeight));

  return (
    <div
      ref={box}
      className={`pwo-virtual ${className ?? ''}`}
      onScroll={onScroll}
      role={role}
      aria-label={label}
      aria-rowcount={role === 'grid' ? count : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      {header && (
        <div ref={headerBox} className="pwo-virtual-header" style={width ? { width } : undefined}>
          {header}
        </div>
      )}
      <div className="pwo-virtual-body" style={{ height: count * rowHeight, width }}>
        {rows}
      </div>
    </div>
  );
}
