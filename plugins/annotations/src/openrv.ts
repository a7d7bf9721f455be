import type { ReviewMedia } from './media.js';
import { dashedId, rgbaOf, type Drawn } from './interchange.js';
import type { ShapeValue } from './schemas.js';

// An OpenRV paint fragment: the RVPaint node of a session file (GTO text) with a pen stroke per drawn line and a
// text per text, each frame listing its strokes in drawing order. RV keeps paint in the same space as ours
// (normalised by the height, centred, y up), and numbers a movie's frames from 1. Rectangles, ellipses, lines and
// arrows go as pen strokes along their outline, which every version of RV draws. Each component carries our id
// (`string pipewright`, a property RV keeps without reading it), so an import finds the object again.
type Point = [number, number];
type Figure = Extract<ShapeValue, { from: Point }>;

const ELLIPSE_STEPS = 48;
const f = (value: number) => String(Number(value.toFixed(6)));
const list = (values: string[]) => `[ ${values.join(' ')} ]`;
const quoted = (text: string) =>
  `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

/** The lines an object is drawn with, as point lists (a figure becomes its outline). */
function outlines(shape: Figure): Point[][] {
  const [[x1, y1], [x2, y2]] = [shape.from, shape.to];
  if (shape.kind === 'rectangle')
    return [
      [
        [x1, y1],
        [x2, y1],
        [x2, y2],
        [x1, y2],
        [x1, y1],
      ],
    ];
  if (shape.kind === 'ellipse') {
    const [cx, cy, rx, ry] = [(x1 + x2) / 2, (y1 + y2) / 2, Math.abs(x2 - x1) / 2, Math.abs(y2 - y1) / 2];
    const around = Array.from({ length: ELLIPSE_STEPS + 1 }, (_, i) => (i / ELLIPSE_STEPS) * 2 * Math.PI);
    return [around.map((a): Point => [cx + rx * Math.cos(a), cy + ry * Math.sin(a)])];
  }
  if (shape.kind === 'line') return [[shape.from, shape.to]];
  // An arrow: its shaft and the two sides of its head, as the review player draws it (a fortieth of the height long,
  // at least four line widths).
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const head = Math.max(1 / 40, 4 * shape.width);
  const side = (turn: number): Point => [
    x2 - head * Math.cos(angle + turn),
    y2 - head * Math.sin(angle + turn),
  ];
  return [
    [shape.from, shape.to],
    [side(0.45), [x2, y2], side(-0.45)],
  ];
}

function pen(color: number[], points: [number, number, number][], mode: number): string[] {
  return [
    `        float[4] color = [ ${list(color.map(f))} ]`,
    `        float width = ${list(points.map(([, , width]) => f(width)))}`,
    '        string brush = "circle"',
    `        float[2] points = [ ${points.map(([x, y]) => list([f(x), f(y)])).join(' ')} ]`,
    '        int debug = 0',
    '        int join = 3',
    '        int cap = 1',
    '        int splat = 0',
    `        int mode = ${mode}`,
  ];
}

/** The fragment for the reviewable's first source (sourceGroup000000); rename the node for another source. */
export function toOpenRv(media: ReviewMedia, annotations: Drawn[], user = 'pipewright'): string {
  const author = user.replace(/[^A-Za-z0-9_]/g, '_') || 'pipewright';
  const components: string[][] = [];
  const order = new Map<number, string[]>();
  let id = 0;
  const add = (kind: 'pen' | 'text', frame: number, ours: string, body: string[]) => {
    const name = `${kind}:${++id}:${frame}:${author}`;
    const own = `        string pipewright = ${quoted(dashedId(ours))}`;
    components.push([`    ${quoted(name)}`, '    {', ...body, own, '    }']);
    order.set(frame, [...(order.get(frame) ?? []), name]);
  };
  for (const annotation of annotations) {
    const frame = annotation.frame - media.firstFrame + 1;
    const color = rgbaOf(annotation.color);
    const { shape } = annotation;
    if ('points' in shape) {
      add('pen', frame, annotation.id, pen(color, shape.points, shape.kind === 'eraser' ? 1 : 0));
    } else if (shape.kind === 'text') {
      add('text', frame, annotation.id, [
        `        float[2] position = [ ${list(shape.at.map(f))} ]`,
        `        float[4] color = [ ${list(color.map(f))} ]`,
        '        float spacing = 0.8',
        `        float size = ${f(shape.size)}`,
        '        float scale = 1',
        '        float rotation = 0',
        '        string font = ""',
        `        string text = ${quoted(shape.text)}`,
        '        string origin = ""',
        '        int debug = 0',
      ]);
    } else {
      for (const line of outlines(shape))
        add(
          'pen',
          frame,
          annotation.id,
          pen(
            color,
            line.map(([x, y]): [number, number, number] => [x, y, shape.width]),
            0,
          ),
        );
    }
  }
  const frames = [...order].map(([frame, names]) => [
    `    "frame:${frame}"`,
    '    {',
    `        string order = ${list(names.map(quoted))}`,
    '    }',
  ]);
  return [
    'GTOa (4)',
    '',
    'sourceGroup000000_paint : RVPaint (3)',
    '{',
    '    paint',
    '    {',
    `        int nextId = ${id}`,
    '        int nextAnnotationId = 0',
    '        int show = 1',
    '        string exclude = [ ]',
    '        string include = [ ]',
    '    }',
    '',
    ...[...components, ...frames].map((lines) => lines.join('\n') + '\n'),
    '}',
    '',
  ].join('\n');
}
