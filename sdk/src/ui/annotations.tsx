import type { ReactNode } from 'react';

// Annotations of review media as the annotations addon keeps them, and how they look: one object per row, on an
// integer frame in the shot's numbering, in picture space (normalised by the picture's height, origin at the
// centre, y up), so the same numbers draw the same place at any size the picture is shown. The review player, the
// exports it draws and the guest page all draw them with this one renderer.

export type Point = [x: number, y: number];
export type Shape =
  | { kind: 'stroke' | 'eraser'; points: [x: number, y: number, width: number][] }
  | { kind: 'rectangle' | 'ellipse' | 'line' | 'arrow'; from: Point; to: Point; width: number }
  | { kind: 'text'; at: Point; text: string; size: number };

export interface Annotation {
  id: string;
  frame: number;
  color: string;
  shape: Shape;
  author: string | null;
}

/** Picture space to the pixels of a picture shown w by h. */
export const toPixels = ([x, y]: readonly number[], w: number, h: number): Point => [
  w / 2 + x! * h,
  h / 2 - y! * h,
];
/** Pixels of a picture shown w by h to picture space. */
export const toPicture = (px: number, py: number, w: number, h: number): Point => [
  (px - w / 2) / h,
  (h / 2 - py) / h,
];

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
export function annotationDrawing(
  annotations: Annotation[],
  w: number,
  h: number,
  selected: string | null = null,
): ReactNode {
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
