import { useState, type PointerEvent, type RefObject } from 'react';
import { drawing } from './annotation-shapes';
import {
  moved,
  newAnnotationId,
  toPicture,
  toPixels,
  type Annotation,
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
  /** An object moved with the Select tool. */
  onChange(annotation: Annotation): void;
  /** The drawing's element, for pictures of the frame. */
  svg: RefObject<SVGSVGElement | null>;
}) {
  const [draft, setDraft] = useState<Annotation | null>(null);
  const [typing, setTyping] = useState<{ at: [number, number]; text: string } | null>(null);
  /** An object being dragged with the Select tool: where the drag started and where it is now. */
  const [dragging, setDragging] = useState<{ annotation: Annotation; from: Point; to: Point } | null>(null);

  const point = (event: PointerEvent) => {
    const box = svg.current!.getBoundingClientRect();
    return toPicture(event.clientX - box.left, event.clientY - box.top, w, h);
  };
  const width = (event: PointerEvent) =>
    PEN * (event.pressure > 0 && event.pointerType === 'pen' ? event.pressure * 2 : 1);

  const down = (event: PointerEvent<SVGSVGElement>) => {
    if (tool === 'view' || event.button !== 0) return;
    event.stopPropagation();
    if (tool === 'select') {
      const id = (event.target as Element)
        .closest('[data-annotation-id]')
        ?.getAttribute('data-annotation-id');
      const hit = annotations.find((annotation) => annotation.id === id) ?? null;
      onSelect(hit?.id ?? null);
      if (hit) {
        svg.current!.setPointerCapture(event.pointerId);
        setDragging({ annotation: hit, from: point(event), to: point(event) });
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
    if ('points' in shape)
      setDraft({
        ...draft,
        shape: {
          ...shape,
          points: [...shape.points, [at[0], at[1], shape.kind === 'eraser' ? PEN * 4 : width(event)]],
        },
      });
    else if ('from' in shape) setDraft({ ...draft, shape: { ...shape, to: at } });
  };
  const up = () => {
    if (dragging) {
      const [dx, dy] = [dragging.to[0] - dragging.from[0], dragging.to[1] - dragging.from[1]];
      setDragging(null);
      if (dx || dy) onChange({ ...dragging.annotation, shape: moved(dragging.annotation.shape, dx, dy) });
    }
    if (!draft) return;
    setDraft(null);
    const { shape } = draft;
    // A click without a drag makes no figure.
    if ('from' in shape && shape.from[0] === shape.to[0] && shape.from[1] === shape.to[1]) return;
    onDraw(draft);
  };
  const typed = () => {
    if (typing?.text.trim())
      onDraw({
        id: newAnnotationId(),
        frame,
        color,
        shape: { kind: 'text', at: typing.at, text: typing.text.trim(), size: TEXT },
        author: null,
      });
    setTyping(null);
  };

  const dragged = dragging && {
    ...dragging.annotation,
    shape: moved(
      dragging.annotation.shape,
      dragging.to[0] - dragging.from[0],
      dragging.to[1] - dragging.from[1],
    ),
  };
  const placed = dragged ? annotations.map((one) => (one.id === dragged.id ? dragged : one)) : annotations;
  const shown = draft ? [...placed, draft] : placed;
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
      >
        {drawing(shown, w, h, selected)}
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
