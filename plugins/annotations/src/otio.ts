import type { ReviewMedia } from './media.js';
import { dashedId, rgbaOf, type Drawn } from './interchange.js';

// OpenTimelineIO with the annotation schemas of OpenRV and the Open Review Initiative (Annotation.1 effects whose
// layers are Paint.1, Rectangle.1, Ellipse.1, Line.1, Arrow.1 and Text.1). Their coordinates are normalised to the
// image's bounds, centred, y up, the width spanning 16 units (x from -8 to 8, and y from -4.5 to 4.5 at 16:9); ours
// are normalised by the height, so one scale, 16 / aspect, carries one to the other, lengths included.
type Json = Record<string, any>;

const ORI_WIDTH = 16;
const time = (value: number, rate: number) => ({ OTIO_SCHEMA: 'RationalTime.1', rate, value });
const range = (start: number, duration: number, rate: number) => ({
  OTIO_SCHEMA: 'TimeRange.1',
  duration: time(duration, rate),
  start_time: time(start, rate),
});
const v2 = (x: number, y: number, schema = 'Position.1') => ({ OTIO_SCHEMA: schema, x, y });
const item = (schema: string, name: string, rest: Json) => ({
  OTIO_SCHEMA: schema,
  metadata: {},
  name,
  source_range: null,
  effects: [],
  markers: [],
  enabled: true,
  ...rest,
});

/** The layer of one object, in ORI units (k of them to our unit of height). */
function layerOf(annotation: Drawn, k: number, fps: number): Json {
  const { shape } = annotation;
  const rgba = rgbaOf(annotation.color);
  const at = ([x, y]: [number, number]) => v2(x * k, y * k);
  const common = { id: dashedId(annotation.id), visible: true, layer_range: range(annotation.frame, 1, fps) };
  switch (shape.kind) {
    case 'stroke':
    case 'eraser':
      return {
        OTIO_SCHEMA: 'Paint.1',
        name: '',
        points: shape.points.map(([x, y, width]) => ({
          OTIO_SCHEMA: 'Point.1',
          width: width * k,
          x: x * k,
          y: y * k,
        })),
        rgba,
        type: shape.kind === 'eraser' ? 'ERASE' : 'COLOR',
        brush: 'circle',
        ...common,
      };
    case 'rectangle':
    case 'ellipse': {
      const [[x1, y1], [x2, y2]] = [shape.from, shape.to];
      return {
        OTIO_SCHEMA: shape.kind === 'rectangle' ? 'Rectangle.1' : 'Ellipse.1',
        min: at([Math.min(x1, x2), Math.min(y1, y2)]),
        max: at([Math.max(x1, x2), Math.max(y1, y2)]),
        inner_color: [...rgba.slice(0, 3), 0],
        border_color: rgba,
        border_width: shape.width * k,
        ...(shape.kind === 'rectangle' ? { corner_radius: 0 } : {}),
        ...common,
      };
    }
    case 'line':
      return {
        OTIO_SCHEMA: 'Line.1',
        start_position: at(shape.from),
        end_position: at(shape.to),
        border_color: rgba,
        width: shape.width * k,
        ...common,
      };
    case 'arrow':
      return {
        OTIO_SCHEMA: 'Arrow.1',
        start_position: at(shape.from),
        end_position: at(shape.to),
        inner_color: rgba,
        border_color: rgba,
        width: shape.width * k,
        border_width: 0,
        ...common,
      };
    case 'text':
      return {
        OTIO_SCHEMA: 'Text.1',
        anchor: at(shape.at),
        text: shape.text,
        font_family: 'sans-serif',
        font_size: shape.size * k,
        font_weight: 'NORMAL',
        font_style: 'NORMAL',
        text_decoration: 'NONE',
        text_align: 'LEFT',
        inner_color: rgba,
        ...common,
      };
  }
}

/**
 * A timeline of one clip, the reviewable's media, carrying an Annotation.1 effect per annotated frame with that
 * frame's objects as layers, in the order they were drawn (an eraser clears what comes before it).
 */
export function toOtio(media: ReviewMedia, annotations: Drawn[], about: Json): Json {
  const aspect = media.width / media.height;
  const k = ORI_WIDTH / aspect;
  const frames = new Map<number, Drawn[]>();
  for (const annotation of annotations)
    frames.set(annotation.frame, [...(frames.get(annotation.frame) ?? []), annotation]);
  const effects = [...frames].map(([frame, drawn]) => ({
    OTIO_SCHEMA: 'Annotation.1',
    metadata: {},
    name: `Frame ${frame}`,
    effect_name: 'Annotation.1',
    enabled: true,
    visible: true,
    layers: drawn.map((annotation) => layerOf(annotation, k, media.fps)),
  }));
  const available = range(media.firstFrame, media.frameCount, media.fps);
  const clip = item('Clip.2', media.name, {
    source_range: available,
    effects,
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: 'ExternalReference.1',
        metadata: {},
        name: media.fileName,
        available_range: available,
        available_image_bounds: {
          OTIO_SCHEMA: 'Box2d.1',
          min: v2(-ORI_WIDTH / 2, -ORI_WIDTH / aspect / 2, 'V2d.1'),
          max: v2(ORI_WIDTH / 2, ORI_WIDTH / aspect / 2, 'V2d.1'),
        },
        target_url: media.url,
      },
    },
    active_media_reference_key: 'DEFAULT_MEDIA',
  });
  return {
    OTIO_SCHEMA: 'Timeline.1',
    metadata: { pipewright: about },
    name: media.name,
    global_start_time: null,
    tracks: item('Stack.1', 'tracks', {
      children: [item('Track.1', 'Review', { kind: 'Video', children: [clip] })],
    }),
  };
}
