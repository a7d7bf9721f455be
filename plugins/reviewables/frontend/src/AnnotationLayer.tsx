import { useState, type PointerEvent, type RefObject } from 'react';
import { annotationDrawing } from '@pipewright/sdk/ui';
import {
  moved,
  newAnnotationId,
  reshaped,
  toPicture,
  toPixels,
  type Annotation,
  type Handle,
  type Point,
  type Shape,
} from './annotations';

// The frame's annotations over the picture, and drawing on it. The layer covers exactly the picture (w by h
// pixels); what is drawn is kept in picture space, so it lands in the same place at any size. An eraser hides what
// was drawn before it on the frame, and only that.

export type Tool =
  'view' | 'select' | 'stroke' | 'rectangle' | 'ellipse' | 'line' | 'arrow' | 'text' | 'eraser';

/** A pen's width, a fraction of the picture's height, at full pressure. */
const PEN = 0.006;
const FIGURE = 0.004;
const TEXT = 0.035;
/** A reshaping handle's side, in pixels. */
const HANDLE = 10;

/** The dragged object where the drag has it: moved whole, or with one end of a figure moved. */
function dragged({
  annotation,
  from,
  to,
  handle,
}: {
  annotation: Annotation;
  from: Point;
  to: Point;
  handle?: Handle;
}) {
  const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
  if (!dx && !dy) return annotation;
  return {
    ...annotation,
    shape: handle ? reshaped(annotation.shape, handle, dx, dy) : moved(annotation.shape, dx, dy),
  };
}

export function AnnotationLayer({
  frame,
  annotations,
  w,
  h,
  tool,
  color,
  selected,
  onSelect,
  onDraw,
  onChange,
  live = [],
  onDrawing,
  svg,
}: {
  /** The frame in the shot's numbering, which what is drawn now belongs to. */
  frame: number;
  annotations: Annotation[];
  w: number;
  h: number;
  tool: Tool;
  color: string;
  selected: string | null;
  onSelect(id: string | null): void;
  onDraw(annotation: Annotation): void;
  /** An object moved, reshaped or retyped with the Select tool. */
  onChange(annotation: Annotation): void;
  /** What others are drawing on this frame right now. */
  live?: Annotation[];
  /** The object being drawn, each time it grows (to show the others). */
  onDrawing?(annotation: Annotation): void;
  /** The drawing's element, for pictures of the frame. */
  svg: RefObject<SVGSVGElement | null>;
}) {
  const [draft, setDraft] = useState<Annotation | null>(null);
  /** A text being typed: a new one, or one drawn before (its annotation) being changed. */
  const [typing, setTyping] = useState<{ at: Point; text: string; editing?: Annotation } | null>(null);
  /**
   * An object dragged with the Select tool: where the drag started and where it is now; with a handle, only that
   * end of a figure moves.
   */
  const [dragging, setDragging] = useState<{
    annotation: Annotation;
    from: Point;
    to: Point;
    handle?: Handle;
  } | null>(null);

  // The layer's box on screen is its w by h box panned and zoomed with the picture (use-view.ts): the pointer is
  // scaled back to the layer's own pixels.
  const point = (event: PointerEvent) => {
    const box = svg.current!.getBoundingClientRect();
    const [sx, sy] = [box.width / w || 1, box.height / h || 1];
    return toPicture((event.clientX - box.left) / sx, (event.clientY - box.top) / sy, w, h);
  };
  const width = (event: PointerEvent) =>
    PEN * (event.pressure > 0 && event.pointerType === 'pen' ? event.pressure * 2 : 1);

  const down = (event: PointerEvent<SVGSVGElement>) => {
    if (tool === 'view' || event.button !== 0) return;
    event.stopPropagation();
    if (tool === 'select') {
      const target = event.target as Element;
      const handle = target.closest('[data-handle]')?.getAttribute('data-handle') as Handle | undefined;
      const id = handle
        ? selected
        : target.closest('[data-annotation-id]')?.getAttribute('data-annotation-id');
      const hit = annotations.find((annotation) => annotation.id === id) ?? null;
      onSelect(hit?.id ?? null);
      if (hit) {
        svg.current!.setPointerCapture(event.pointerId);
        setDragging({ annotation: hit, from: point(event), to: point(event), handle });
      }
      return;
    }
    const at = point(event);
    if (tool === 'text') {
      // The field that opens keeps the focus the press would otherwise move.
      event.preventDefault();
      setTyping({ at, text: '' });
      return;
    }
    svg.current!.setPointerCapture(event.pointerId);
    const shape: Shape =
      tool === 'stroke' || tool === 'eraser'
        ? { kind: tool, points: [[at[0], at[1], tool === 'eraser' ? PEN * 4 : width(event)]] }
        : { kind: tool, from: at, to: at, width: FIGURE };
    setDraft({ id: newAnnotationId(), frame, color, shape, author: null });
  };
  const move = (event: PointerEvent<SVGSVGElement>) => {
    if (dragging) setDragging({ ...dragging, to: point(event) });
    if (!draft) return;
    const at = point(event);
    const { shape } = draft;
    const grown: Annotation | null =
      'points' in shape
        ? {
            ...draft,
            shape: {
              ...shape,
              points: [...shape.points, [at[0], at[1], shape.kind === 'eraser' ? PEN * 4 : width(event)]],
            },
          }
        : 'from' in shape
          ? { ...draft, shape: { ...shape, to: at } }
          : null;
    if (!grown) return;
    setDraft(grown);
    onDrawing?.(grown);
  };
  const up = () => {
    if (dragging) {
      setDragging(null);
      const changed = dragged(dragging);
      if (changed !== dragging.annotation) onChange(changed);
    }
    if (!draft) return;
    setDraft(null);
    const { shape } = draft;
    // A click without a drag makes no figure.
    if ('from' in shape && shape.from[0] === shape.to[0] && shape.from[1] === shape.to[1]) return;
    onDraw(draft);
  };
  const typed = () => {
    const text = typing?.text.trim();
    const editing = typing?.editing;
    if (text && editing && 'at' in editing.shape && editing.shape.text !== text)
      onChange({ ...editing, shape: { ...editing.shape, text } });
    else if (text && !editing)
      onDraw({
        id: newAnnotationId(),
        frame,
        color,
        shape: { kind: 'text', at: typing!.at, text, size: TEXT },
        author: null,
      });
    setTyping(null);
  };
  // A double click on a text with the Select tool (its first click selected it) opens it for typing.
  const retype = () => {
    const text = tool === 'select' ? annotations.find((annotation) => annotation.id === selected) : undefined;
    if (text && 'at' in text.shape) setTyping({ at: text.shape.at, text: text.shape.text, editing: text });
  };

  const moving = dragging && dragged(dragging);
  const placed = moving ? annotations.map((one) => (one.id === moving.id ? moving : one)) : annotations;
  const others = live.filter((annotation) => annotation.frame === frame);
  const shown = [...placed, ...others, ...(draft ? [draft] : [])].filter(
    (annotation) => annotation.id !== typing?.editing?.id,
  );
  const chosen = tool === 'select' ? placed.find((annotation) => annotation.id === selected) : undefined;
  const handles = chosen && 'from' in chosen.shape ? (['from', 'to'] as const) : [];
  const [tx, ty] = typing ? toPixels(typing.at, w, h) : [0, 0];
  return (
    <div className="pwr-annotation-layer" style={{ width: w, height: h }}>
      <svg
        ref={svg}
        width={w}
        height={h}
        role="img"
        aria-label={`Annotations of frame ${frame}`}
        data-frame={frame}
        data-count={annotations.length}
        className={tool === 'view' ? 'pwr-annotations' : `pwr-annotations pwr-drawing pwr-tool-${tool}`}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={() => {
          setDraft(null);
          setDragging(null);
        }}
        onDoubleClick={retype}
      >
        {annotationDrawing(shown, w, h, selected)}
        {handles.map((handle) => {
          const [x, y] = toPixels((chosen!.shape as { [end in Handle]: Point })[handle], w, h);
          return (
            <rect
              key={handle}
              data-handle={handle}
              fill="white"
              stroke="#0a84ff"
              strokeWidth={2}
              style={{ cursor: 'crosshair' }}
              aria-label={handle === 'from' ? 'Reshape from its start' : 'Reshape from its end'}
              x={x - HANDLE / 2}
              y={y - HANDLE / 2}
              width={HANDLE}
              height={HANDLE}
            />
          );
        })}
      </svg>
      {typing && (
        <input
          className="pwr-annotation-text"
          aria-label="Annotation text"
          autoFocus
          style={{ left: tx, top: ty - TEXT * h }}
          value={typing.text}
          onChange={(event) => setTyping({ ...typing, text: event.target.value })}
          onKeyDown={(event) => {
            event.stopPropagation();
            if (event.key === 'Enter') typed();
            if (event.key === 'Escape') setTyping(null);
          }}
          onBlur={typed}
        />
      )}
    </div>
  );
}
