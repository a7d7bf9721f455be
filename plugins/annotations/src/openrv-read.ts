import { GtoSyntaxError, parseGto, type GtoComponent, type GtoObject, type GtoValue } from './gto.js';
import { colorOf, nameBasedId, num, plainId, type FileRead, type ImportedObject } from './interchange.js';
import type { ReviewMedia } from './media.js';
import type { ShapeValue } from './schemas.js';

// Reads the paint of an RV session file (GTO text), whole or just its RVPaint node as our export writes it.
//
// Which paint: a session holds an RVPaint node for each of its sources (sourceGroup000000_paint, ...). A reviewable
// is one medium, so the file's first source is read: every RVPaint node named for the source group of the first
// one; the others' nodes are named in `skipped`.
//
// In a node, each `pen:ID:FRAME:USER` component is a stroke (mode 1: an eraser stroke) and each `text:ID:FRAME:USER`
// a text, on media frame firstFrame + FRAME - 1 (RV numbers a movie's frames from 1). A `frame:FRAME` component's
// `order` is what RV draws on that frame, in drawing order: a stroke it does not list was undone, and is left out.
// Positions and widths are in our space already (height-normalised, centred, y up).

interface Part {
  component: GtoComponent;
  kind: string;
  frame: number;
  rank: number;
  loc: (string | number)[];
}

type Drawing = { shape: ShapeValue; color: string };

/** Components of a paint node that hold no drawing: its settings, and each frame's drawing order. */
const SETTINGS = new Set(['paint', 'frame']);
const DRAWN = new Set(['pen', 'text']);

const sourceOf = (node: string) => /sourceGroup\d+/.exec(node)?.[0] ?? node;

/** Every number of a value, however nested; null when it holds anything else. */
function numbersOf(value: GtoValue | undefined): number[] | null {
  if (value === undefined) return null;
  const flat = [value].flat(Infinity as 1) as unknown[];
  return flat.every((item) => num(item) !== null) ? (flat as number[]) : null;
}

const stringsOf = (value: GtoValue | undefined): string[] =>
  value === undefined ? [] : ([value].flat(Infinity as 1) as unknown[]).filter((v) => typeof v === 'string');

/** The drawing of a pen or text component, or what is wrong with it. */
function drawingOf(component: GtoComponent, kind: string): Drawing | string {
  const value = (name: string) => component.properties.get(name)?.value;
  const numbers = (name: string) => numbersOf(value(name)) ?? [];
  const color = colorOf(numbersOf(value('color')));
  if (!color) return 'color must be float[4] (r, g, b, a)';
  if (kind === 'text') {
    const [x, y] = numbers('position');
    const [size] = numbers('size');
    const [text] = stringsOf(value('text'));
    if (x === undefined || y === undefined) return 'position must be float[2] (x, y)';
    if (size === undefined) return 'size must be a number';
    if (text === undefined) return 'text must be a string';
    return { shape: { kind: 'text', at: [x, y], text, size }, color };
  }
  const flat = numbersOf(value('points'));
  if (!flat?.length || flat.length % 2) return 'points must be float[2] pairs (x, y), at least one';
  const count = flat.length / 2;
  const widths = numbers('width');
  if (widths.length !== 1 && widths.length !== count)
    return `width has ${widths.length} values for ${count} points (one per point, or one for all)`;
  const points = Array.from({ length: count }, (_, i): [number, number, number] => [
    flat[2 * i]!,
    flat[2 * i + 1]!,
    widths[widths.length === 1 ? 0 : i]!,
  ]);
  return { shape: { kind: numbers('mode')[0] === 1 ? 'eraser' : 'stroke', points }, color };
}

/** The drawn components of a node, by frame and drawing order; the others named in skipped or problems. */
function partsOf(node: GtoObject, read: FileRead, frameCount: number): Part[] {
  const orders = new Map<number, string[]>();
  for (const { name, properties } of node.components) {
    const frame = /^frame:(-?\d+)$/.exec(name)?.[1];
    if (frame !== undefined) orders.set(Number(frame), stringsOf(properties.get('order')?.value));
  }
  const parts: Part[] = [];
  node.components.forEach((component, index) => {
    const [kind = '', , frameText] = component.name.split(':');
    if (SETTINGS.has(kind)) return;
    if (!DRAWN.has(kind)) return read.skipped.push(component.name);
    const loc = ['body', node.name, component.name];
    const frame = Number(frameText);
    const problem = !Number.isInteger(frame)
      ? `the name needs its frame (${kind}:ID:FRAME:USER)`
      : frame < 1 || frame > frameCount
        ? `frame ${frame} is outside the media (RV frames 1 to ${frameCount})`
        : null;
    if (problem)
      return read.problems.push({ loc, msg: `${component.name}: ${problem}`, type: 'value_error' });
    const order = orders.get(frame);
    const rank = order ? order.indexOf(component.name) : index;
    if (rank < 0) return read.skipped.push(`${component.name} (undone: not in frame ${frame}'s order)`);
    parts.push({ component, kind, frame, rank, loc });
  });
  return parts.sort((a, b) => a.frame - b.frame || a.rank - b.rank);
}

/**
 * The strokes and texts of an OpenRV paint fragment or session file. Components without our id get one the same
 * file always gives them (see fallbackId below), so importing a file again changes nothing.
 */
export function fromOpenRv(text: string, media: ReviewMedia, reviewableId: string): FileRead {
  const read: FileRead = { annotations: [], skipped: [], problems: [] };
  const refuse = (msg: string) => {
    read.problems.push({ loc: ['body'], msg, type: 'value_error' });
    return read;
  };
  if (text.includes('\u0000')) return refuse('Binary GTO is not read: save the session as text (GTOa)');
  let objects: GtoObject[];
  try {
    objects = parseGto(text);
  } catch (error) {
    if (error instanceof GtoSyntaxError) return refuse(error.message);
    throw error;
  }
  const nodes = objects.filter((object) => object.protocol === 'RVPaint');
  if (!nodes.length) return refuse('No RVPaint node: send an RV session file (GTO text) or its paint node');
  const source = sourceOf(nodes[0]!.name);
  for (const node of nodes) {
    if (sourceOf(node.name) !== source) {
      read.skipped.push(node.name);
      continue;
    }
    for (const { component, kind, frame, loc } of partsOf(node, read, media.frameCount)) {
      const drawing = drawingOf(component, kind);
      if (typeof drawing === 'string') {
        read.problems.push({ loc, msg: `${component.name}: ${drawing}`, type: 'value_error' });
        continue;
      }
      const object: ImportedObject = {
        id: plainId(stringsOf(component.properties.get('pipewright')?.value)[0]),
        frame: media.firstFrame + frame - 1,
        ...drawing,
        // RV restarts its numbering in each new session, so a component's name alone could be another session's
        // stroke; but RV does not change a stroke once drawn, so its name with its geometry names it in every file
        // that holds it, and only there.
        fallbackId: nameBasedId(reviewableId, `${component.name}\n${JSON.stringify(drawing.shape)}`),
        outline: drawing.shape.kind === 'stroke',
        loc,
        label: component.name,
      };
      read.annotations.push(object);
    }
  }
  return read;
}
