import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DRAWN, FIRST, reviewWorld, type ReviewWorld } from './review-world.js';

// Annotations out to OTIO (OpenRV's annotation schemas) and an OpenRV paint fragment, and back in from OTIO (the
// OpenRV import has openrv.test.ts). The media is a real 1920x1080 clip at 24 fps uploaded as a reviewable of a
// shot that starts at frame 1001.
let world: ReviewWorld;
let artie: string;
let gus: string;
let base: string;
let as: ReviewWorld['as'];
let all: ReviewWorld['all'];
let clear: ReviewWorld['clear'];

/** Where a point of the picture shows on a 4096x2160 screen: a 1920x1080 frame fills 3840x2160 of it, centred. */
const onScreen = ([x, y]: number[]) => [2048 + x! * 2160, 1080 - y! * 2160];
/** Every position and length of an object, in pixels of that screen (a box by its lower and upper corners). */
function pixels(shape: any): number[] {
  const [a, b] = [shape.from, shape.to];
  const box = shape.kind === 'rectangle' || shape.kind === 'ellipse';
  const points: number[][] =
    shape.points ??
    (box
      ? [
          [Math.min(a[0], b[0]), Math.min(a[1], b[1])],
          [Math.max(a[0], b[0]), Math.max(a[1], b[1])],
        ]
      : [a, b, shape.at].filter(Boolean));
  const lengths: number[] = [
    ...(shape.points ?? []).map((p: number[]) => p[2]),
    shape.width ?? shape.size ?? 0,
  ];
  return [...points.flatMap(onScreen), ...lengths.map((l) => l * 2160)];
}

beforeAll(async () => {
  world = await reviewWorld();
  ({ artie, gus, base, as, all, clear } = world);
}, 60_000);
afterAll(() => world.close());

describe('annotation interchange', () => {
  it('round-trip through OTIO: every object back on its frame, within 1 px of a 1920x1080 frame at 4096x2160', async () => {
    for (const drawn of DRAWN) expect((await as(artie)('POST', base, drawn)).status).toBe(201);
    const before = await all();
    const exported = await as(artie)('GET', `${base}/otio`);
    expect(exported.status).toBe(200);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="plate_v001.otio"');
    const timeline = exported.body;
    expect(timeline.OTIO_SCHEMA).toBe('Timeline.1');
    const clip = timeline.tracks.children[0].children[0];
    expect(clip.OTIO_SCHEMA).toBe('Clip.2');
    const reference = clip.media_references[clip.active_media_reference_key];
    expect(reference.available_range.start_time).toEqual({
      OTIO_SCHEMA: 'RationalTime.1',
      rate: 24,
      value: FIRST,
    });
    expect(reference.available_range.duration.value).toBe(24);
    expect([reference.available_image_bounds.min, reference.available_image_bounds.max]).toEqual([
      { OTIO_SCHEMA: 'V2d.1', x: -8, y: -4.5 },
      { OTIO_SCHEMA: 'V2d.1', x: 8, y: 4.5 },
    ]);
    // One Annotation.1 effect per annotated frame, its layers in drawing order, in the 16-unit-wide space.
    expect(clip.effects.map((e: any) => [e.OTIO_SCHEMA, e.layers.map((l: any) => l.OTIO_SCHEMA)])).toEqual([
      ['Annotation.1', ['Paint.1', 'Paint.1']],
      ['Annotation.1', ['Rectangle.1', 'Ellipse.1', 'Line.1']],
      ['Annotation.1', ['Arrow.1', 'Text.1']],
    ]);
    const [paint, eraser] = clip.effects[0].layers;
    expect([paint.type, eraser.type, paint.brush]).toEqual(['COLOR', 'ERASE', 'circle']);
    expect(paint.rgba).toEqual([1, 0.2, 0, 1]);
    expect(paint.points[0].x).toBeCloseTo(-0.8 * 9, 9);
    expect(paint.points[1].width).toBeCloseTo(0.009 * 9, 9);
    expect(paint.layer_range.start_time).toEqual({ OTIO_SCHEMA: 'RationalTime.1', rate: 24, value: FIRST });
    expect(paint.layer_range.duration.value).toBe(1);
    const ellipse = clip.effects[1].layers[1];
    expect([ellipse.min.x, ellipse.min.y, ellipse.max.x, ellipse.max.y]).toEqual([-8, -4.5, 8, 4.5]);
    expect(clip.effects[1].layers[0].min).toMatchObject({ x: -0.1 * 9, y: -0.2 * 9 });
    expect(clip.effects[2].layers[1]).toMatchObject({ text: 'Fix "edge"\nhere', text_align: 'LEFT' });
    expect(paint.id.replaceAll('-', '')).toBe(before[0].id);

    await clear();
    const imported = await as(artie)('POST', `${base}/otio`, timeline);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ created: DRAWN.length, updated: 0, unchanged: 0, skipped: [] });
    const after = await all();
    expect(after.map((a) => [a.id, a.frame, a.color, a.shape.kind])).toEqual(
      before.map((a) => [a.id, a.frame, a.color, a.shape.kind]),
    );
    for (const [i, annotation] of after.entries()) {
      const [was, now] = [pixels(before[i].shape), pixels(annotation.shape)];
      expect(now).toHaveLength(was.length);
      for (const [j, value] of now.entries()) expect(Math.abs(value - was[j]!)).toBeLessThanOrEqual(1);
    }
    expect(after.find((a) => a.shape.kind === 'text').shape.text).toBe('Fix "edge"\nhere');

    // The same file again changes nothing: each object is replaced by itself.
    const again = await as(artie)('POST', `${base}/otio`, timeline);
    expect(again.body).toEqual({ created: 0, updated: DRAWN.length, unchanged: 0, skipped: [] });
    expect((await all()).map((a) => a.id)).toEqual(before.map((a) => a.id));
  });

  it('read OpenRV-style effects: a held layer on each of its frames, bounds of their own, unknown layers skipped', async () => {
    await clear();
    const effect = {
      OTIO_SCHEMA: 'Annotation.1',
      name: 'from RV',
      effect_name: 'Annotation.1',
      visible: true,
      layers: [
        {
          OTIO_SCHEMA: 'Paint.1',
          name: 'pen',
          points: [
            { OTIO_SCHEMA: 'Point.1', x: 8, y: 4.5, width: 0.09 },
            { OTIO_SCHEMA: 'Point.1', x: 0, y: 0, width: 0.09 },
          ],
          rgba: [0, 1, 0, 0.5],
          type: 'COLOR',
          brush: 'gauss',
          layer_range: {
            OTIO_SCHEMA: 'TimeRange.1',
            start_time: { OTIO_SCHEMA: 'RationalTime.1', rate: 24, value: 1010 },
            duration: { OTIO_SCHEMA: 'RationalTime.1', rate: 24, value: 3 },
          },
          visible: true,
        },
        { OTIO_SCHEMA: 'Sticker.1', layer_range: {} },
        { OTIO_SCHEMA: 'Line.1', visible: false },
      ],
    };
    const res = await as(artie)('POST', `${base}/otio`, effect);
    expect(res.body).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: ['Sticker.1'] });
    const held = await all();
    expect(held.map((a) => a.frame)).toEqual([1010, 1011, 1012]);
    expect(new Set(held.map((a) => a.id)).size).toBe(3);
    expect(held[0].color).toBe('#00ff00');
    expect(held[0].shape.points[0][0]).toBeCloseTo(16 / 18, 9);
    expect(held[0].shape.points[0][1]).toBeCloseTo(0.5, 9);
    expect(held[0].shape.points[0][2]).toBeCloseTo(0.01, 9);

    // A clip whose image bounds are 0..1920 by 0..1080 (pixels, y up): its centre is ours.
    await clear();
    const clip = {
      OTIO_SCHEMA: 'Clip.2',
      media_references: {
        DEFAULT_MEDIA: {
          OTIO_SCHEMA: 'ExternalReference.1',
          available_image_bounds: { min: { x: 0, y: 0 }, max: { x: 1920, y: 1080 } },
        },
      },
      active_media_reference_key: 'DEFAULT_MEDIA',
      effects: [{ ...effect, layers: [{ ...effect.layers[0], points: [{ x: 1920, y: 540, width: 10.8 }] }] }],
    };
    expect((await as(artie)('POST', `${base}/otio`, clip)).body.created).toBe(3);
    const [point] = (await all())[0].shape.points;
    expect(point[0]).toBeCloseTo(16 / 18, 9);
    expect(point[1]).toBeCloseTo(0, 9);
    expect(point[2]).toBeCloseTo(0.01, 9);
  });

  it('refuse a document with a layer it cannot read as a whole, and guests', async () => {
    await clear();
    const layer = (extra: object) => ({
      OTIO_SCHEMA: 'Text.1',
      anchor: { x: 0, y: 0 },
      text: 'note',
      font_size: 0.3,
      inner_color: [1, 1, 1, 1],
      layer_range: { start_time: { value: 1001, rate: 24 }, duration: { value: 1, rate: 24 } },
      ...extra,
    });
    const bad = {
      OTIO_SCHEMA: 'Annotation.1',
      layers: [layer({}), layer({ anchor: null }), layer({ inner_color: 'white' }), layer({ font_size: 90 })],
    };
    const refused = await as(artie)('POST', `${base}/otio`, bad);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe('The OTIO document has annotations that cannot be read');
    expect(refused.text).toContain('Text.1: a text needs an anchor and its text');
    expect(refused.text).toContain('Text.1: a colour is [r, g, b, a]');
    expect(await all()).toEqual([]);
    expect(
      (await as(gus)('POST', `${base}/otio`, { OTIO_SCHEMA: 'Annotation.1', layers: [layer({})] })).status,
    ).toBe(403);
    expect((await as(artie)('POST', `${base}/otio`, [])).status).toBe(422);
  });

  it('export an OpenRV paint fragment: pens and texts in frame order, frames counted from 1', async () => {
    await clear();
    for (const drawn of DRAWN) expect((await as(artie)('POST', base, drawn)).status).toBe(201);
    const res = await as(artie)('GET', `${base}/openrv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const text: string = res.text;
    expect(text.startsWith('GTOa (4)\n\nsourceGroup000000_paint : RVPaint (3)\n{\n')).toBe(true);
    expect(text).toContain('"pen:1:1:artie"');
    expect(text).toContain('float[2] points = [ [ -0.8 0.4 ] [ -0.5 0.3 ] [ -0.2 0.35 ] ]');
    expect(text).toContain('float width = [ 0.004 0.009 0.006 ]');
    expect(text).toMatch(
      /"pen:2:1:artie"\n {4}\{\n {8}float\[4\] color = \[ \[ 1 1 1 1 \] \][\s\S]*?int mode = 1/,
    );
    // Frame 1003: rectangle, ellipse and line as pens; 1024: an arrow's shaft and head, and the text.
    expect(text).toContain('"frame:1"\n    {\n        string order = [ "pen:1:1:artie" "pen:2:1:artie" ]');
    expect(text).toContain('string order = [ "pen:3:3:artie" "pen:4:3:artie" "pen:5:3:artie" ]');
    expect(text).toContain('string order = [ "pen:6:24:artie" "pen:7:24:artie" "text:8:24:artie" ]');
    expect(text).toContain('string text = "Fix \\"edge\\"\\nhere"');
    expect(text).toContain('int nextId = 8');
    expect(text.trimEnd().endsWith('}')).toBe(true);
  });
});
