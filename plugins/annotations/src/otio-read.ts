import type { ReviewMedia } from './media.js';
import { colorOf, num, plainId, type FileRead } from './interchange.js';
import type { ShapeValue } from './schemas.js';

// Reads the annotations of an OTIO document: every Annotation.1 effect anywhere in it (a timeline, a clip, or the
// effect alone), each layer an object on each frame of its layer_range. Positions are scaled from the bounds of the
// clip's media when it gives them (available_image_bounds), else from the usual 16-unit width.
type Json = Record<string, any>;

/** From the image's bounds in the file to our height-normalised space. */
interface Space {
  scale: number;
  cx: number;
  cy: number;
}

const MAX_FRAMES_A_LAYER = 1000;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

function spaceOf(clip: Json, aspect: number, outer: Space): Space {
  const references = isObject(clip.media_references) ? clip.media_references : {};
  const reference = references[clip.active_media_reference_key ?? 'DEFAULT_MEDIA'] ?? clip.media_reference;
  const bounds = isObject(reference) ? reference.available_image_bounds : null;
  const [x0, y0, x1, y1] = [bounds?.min?.x, bounds?.min?.y, bounds?.max?.x, bounds?.max?.y].map(num);
  if (x0 === null || y0 === null || x1 === null || y1 === null || !(x1 > x0)) return outer;
  return { scale: aspect / (x1 - x0), cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 };
}

/** The shape of one layer in our space, or a problem with it. */
function shapeOf(layer: Json, space: Space): { shape: ShapeValue; color: unknown } | string {
  const length = (value: unknown) => (num(value) ?? 0) * space.scale;
  const at = (p: unknown): [number, number] | null => {
    if (!isObject(p) || num(p.x) === null || num(p.y) === null) return null;
    return [(p.x - space.cx) * space.scale, (p.y - space.cy) * space.scale];
  };
  const schema = String(layer.OTIO_SCHEMA).split('.')[0];
  if (schema === 'Paint') {
    if (!Array.isArray(layer.points) || !layer.points.length) return 'a paint stroke needs points';
    const points = layer.points.map((p: unknown): [number, number, number] => {
      const [x, y] = at(p) ?? [NaN, NaN];
      return [x, y, length((p as Json)?.width)];
    });
    if (points.some((p: number[]) => p.some((v) => !Number.isFinite(v))))
      return 'every point needs x, y and width';
    return { shape: { kind: layer.type === 'ERASE' ? 'eraser' : 'stroke', points }, color: layer.rgba };
  }
  if (schema === 'Rectangle' || schema === 'Ellipse') {
    const [from, to] = [at(layer.min), at(layer.max)];
    if (!from || !to) return 'min and max need x and y';
    const kind = schema === 'Rectangle' ? 'rectangle' : 'ellipse';
    return { shape: { kind, from, to, width: length(layer.border_width) }, color: layer.border_color };
  }
  if (schema === 'Line' || schema === 'Arrow') {
    const [from, to] = [at(layer.start_position), at(layer.end_position)];
    if (!from || !to) return 'start_position and end_position need x and y';
    const kind = schema === 'Line' ? 'line' : 'arrow';
    const color = schema === 'Arrow' ? (layer.inner_color ?? layer.border_color) : layer.border_color;
    return { shape: { kind, from, to, width: length(layer.width) }, color };
  }
  const anchor = at(layer.anchor);
  if (!anchor || typeof layer.text !== 'string') return 'a text needs an anchor and its text';
  return {
    shape: { kind: 'text', at: anchor, text: layer.text, size: length(layer.font_size) },
    color: layer.inner_color,
  };
}

const DRAWN = new Set(['Paint', 'Rectangle', 'Ellipse', 'Line', 'Arrow', 'Text']);

/** The frames a layer shows on: its layer_range, as OpenRV reads it (each value a frame number). */
function framesOf(layer: Json): number[] | string {
  const start = num(layer.layer_range?.start_time?.value);
  if (start === null) return 'layer_range.start_time is needed: it says which frame the layer is on';
  const count = Math.max(1, Math.round(num(layer.layer_range?.duration?.value) ?? 1));
  if (count > MAX_FRAMES_A_LAYER) return `a layer may span at most ${MAX_FRAMES_A_LAYER} frames`;
  return Array.from({ length: count }, (_, i) => Math.round(start) + i);
}

/** The objects of an OTIO document; skipped names the schemas of layers we do not draw. */
export function fromOtio(document: unknown, media: ReviewMedia): FileRead {
  const aspect = media.width / media.height;
  const read: FileRead = { annotations: [], skipped: [], problems: [] };
  let effectIndex = 0;
  const visit = (node: unknown, space: Space): void => {
    if (Array.isArray(node)) return node.forEach((child) => visit(child, space));
    if (!isObject(node)) return;
    const schema = typeof node.OTIO_SCHEMA === 'string' ? node.OTIO_SCHEMA : '';
    if (/^Annotation\.\d+$/.test(schema)) return readEffect(node, effectIndex++, space);
    const inner = /^Clip\.\d+$/.test(schema) ? spaceOf(node, aspect, space) : space;
    for (const value of Object.values(node)) if (isObject(value)) visit(value, inner);
  };
  const readEffect = (effect: Json, index: number, space: Space) => {
    const layers: unknown[] = Array.isArray(effect.layers) ? effect.layers : [];
    layers.forEach((layer, at) => {
      const loc = ['body', 'Annotation', index, 'layers', at];
      if (!isObject(layer)) return;
      const schema = String(layer.OTIO_SCHEMA ?? '');
      if (!DRAWN.has(schema.split('.')[0]!)) return read.skipped.push(schema || 'unnamed');
      if (layer.visible === false || layer.soft_deleted === true) return;
      const frames = framesOf(layer);
      const drawn = typeof frames === 'string' ? frames : shapeOf(layer, space);
      const color = typeof drawn === 'string' ? null : colorOf(drawn.color);
      if (typeof frames === 'string' || typeof drawn === 'string' || !color) {
        const msg =
          typeof frames === 'string'
            ? frames
            : typeof drawn === 'string'
              ? drawn
              : 'a colour is [r, g, b, a]';
        return read.problems.push({ loc, msg: `${schema}: ${msg}`, type: 'value_error' });
      }
      const id = plainId(layer.id);
      frames.forEach((frame, i) =>
        read.annotations.push({ id: i ? undefined : id, frame, color, shape: drawn.shape }),
      );
    });
  };
  visit(document, { scale: aspect / 16, cx: 0, cy: 0 });
  return read;
}
