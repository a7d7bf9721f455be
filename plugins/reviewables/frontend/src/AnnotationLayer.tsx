import { useState, type PointerEvent, type ReactNode, type RefObject } from 'react';
import { newAnnotationId, toPicture, toPixels, type Annotation, type Shape } from './annotations';

// The frame's annotations over the picture, and drawing on it. The layer covers exactly the picture (w by h
// pixels); what is drawn is kept in picture space, so it lands in the same place at any size. An eraser hides what
// was drawn before it on the frame, and only that.

export type Tool =
  'view' | 'select' | 'stroke' | 'rectangle' | 'ellipse' | 'line' | 'arrow' | 'text' | 'eraser';

/** A pen's width, a fraction of the picture's height, at full pressure. */
const PEN = 0.006;
const FIGURE = 0.004;
const TEXT = 0.035;

/** One object drawn in pixels of a w by h picture. */
function Drawn({ annotation, w, h, mask }: { annotation: Annotation; w: number; h: number; mask?: boolean }) {
  const { shape } = annotation;
  const color = mask ? 'black' : annotation.color;
  const at = (point: readonly number[]) => toPixels(point, w, h);
  if ('points' in shape) {
    if (shape.points.length === 1) {
      const [x, y] = at(shape.points[0]!);
      return <circle cx={x} cy={y} r={(shape.points[0]![2] * h) / 2} fill={color} />;
    }
    // Segment by segment, each as wide as its ends on average: a pen's pressure shows.
    return (
      <g stroke={color} strokeLinecap="round" fill="none">
        {shape.points.slice(1).map((point, i) => {
          const [x1, y1] = at(shape.points[i]!);
          const [x2, y2] = at(point);
          return (
            <line
              key={i}
              x1={x1}
              y1={y1}
              x2={x2}
              y2={y2}
              strokeWidth={((shape.points[i]![2] + point[2]) / 2) * h}
            />
          );
        })}
      </g>
    );
  }
  if ('at' in shape) {
    const [x, y] = at(shape.at);
    return (
      <text x={x} y={y} fill={color} fontSize={shape.size * h} fontFamily="sans-serif">
        {shape.text}
      </text>
    );
  }
  const [x1, y1] = at(shape.from);
  const [x2, y2] = at(shape.to);
  const common = { stroke: color, strokeWidth: shape.width * h, fill: 'none' };
  if (shape.kind === 'rectangle')
    return (
      <rect
        x={Math.min(x1, x2)}
        y={Math.min(y1, y2)}
        width={Math.abs(x2 - x1)}
        height={Math.abs(y2 - y1)}
        {...common}
      />
    );
  if (shape.kind === 'ellipse')
    return (
      <ellipse
        cx={(x1 + x2) / 2}
        cy={(y1 + y2) / 2}
        rx={Math.abs(x2 - x1) / 2}
        ry={Math.abs(y2 - y1) / 2}
        {...common}
      />
    );
  if (shape.kind === 'line')
    return <line x1={x1} y1={y1} x2={x2} y2={y2} {...common} strokeLinecap="round" />;
  // An arrow: its head at the end, as long as a fortieth of the height and at least four line widths.
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const head = Math.max(h / 40, 4 * shape.width * h);
  const wing = (side: number) => [
    x2 - head * Math.cos(angle + side * 0.45),
    y2 - head * Math.sin(angle + side * 0.45),
  ];
  const [ax, ay] = wing(1);
  const [bx, by] = wing(-1);
  return (
    <g>
      <line x1={x1} y1={y1} x2={x2} y2={y2} {...common} strokeLinecap="round" />
      <polygon points={`${x2},${y2} ${ax},${ay} ${bx},${by}`} fill={color} />
    </g>
  );
}

/** The frame's objects in the order they were drawn, each eraser masking what came before it. */
function drawing(annotations: Annotation[], w: number, h: number, selected: string | null): ReactNode {
  let content: ReactNode[] = [];
  annotations.forEach((annotation, index) => {
    if (annotation.shape.kind === 'eraser') {
      const id = `pwr-erase-${annotation.id}`;
      content = [
        <g key={`${annotation.id}-masked`}>
          <mask id={id} maskUnits="userSpaceOnUse" x={0} y={0} width={w} height={h}>
            <rect x={0} y={0} width={w} height={h} fill="white" />
            <Drawn annotation={annotation} w={w} h={h} mask />
          </mask>
          <g mask={`url(#${id})`}>{content}</g>
        </g>,
      ];
      return;
    }
    content.push(
      <g
        key={annotation.id}
        data-annotation-id={annotation.id}
        data-index={index}
        className={annotation.id === selected ? 'pwr-annotation pwr-selected' : 'pwr-annotation'}
      >
        <Drawn annotation={annotation} w={w} h={h} />
      </g>,
    );
  });
  return content;
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
  /** The drawing's element, for pictures of the frame. */
  svg: RefObject<SVGSVGElement | null>;
}) {
  const [draft, setDraft] = useState<Annotation | null>(null);
  const [typing, setTyping] = useState<{ at: [number, number]; text: string } | null>(null);

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
      const hit = (event.target as Element).closest('[data-annotation-id]');
      onSelect(hit?.getAttribute('data-annotation-id') ?? null);
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

  const shown = draft ? [...annotations, draft] : annotations;
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
        onPointerCancel={() => setDraft(null)}
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
