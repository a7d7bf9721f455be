import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// Review reports read back with poppler (pdftotext for the words, pdftoppm for the pictures). The media is a real clip
// whose frame index is burned in as a grey level, so the report's picture of an annotated frame tells which frame
// it is; the drawing over it is a red bar the test finds by its pixels.
const run = promisify(execFile);
const FIRST = 1001;
const LEVELS = 8;
let core: TestCore;
let work: string;
let boss: string;
let artie: string;
let eve: string;
const versions: { id: string; reviewable: string }[] = [];
let list: string;

const as = (token: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });

/** The report's text, and its pages rendered at 30 dpi as RGB pixels. */
async function readReport(pdf: Buffer) {
  const file = join(work, `report-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const { stdout: text } = await run('pdftotext', ['-layout', file, '-']);
  await run('pdftoppm', ['-r', '30', file, `${file}-page`]);
  const pages = (await readdir(work))
    .filter((name) => name.startsWith(`${basename(file)}-page`))
    .sort()
    .map((name) => join(work, name));
  return { text, pages: await Promise.all(pages.map(async (page) => ppm(await readFile(page)))) };
}

/** A binary PPM (P6) as width, height and [r, g, b] at (x, y). */
function ppm(bytes: Buffer) {
  const [, w, h] = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 32).toString('latin1'))!.map(Number);
  const start = bytes.length - w! * h! * 3;
  const at = (x: number, y: number) => [
    ...bytes.subarray(start + (y * w! + x) * 3, start + (y * w! + x) * 3 + 3),
  ];
  return { w: w!, h: h!, at };
}

const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
/** The frame index a grey level of the burned-in clip stands for (video range 16-235 shown as 0-255). */
const indexOf = ([r]: number[]) => Math.round((r! * 219) / 255 / LEVELS);

/** The red pixels' box on a page, or null when it has none. */
function redBox(page: ReturnType<typeof ppm>) {
  let box: { x0: number; y0: number; x1: number; y1: number } | null = null;
  for (let y = 0; y < page.h; y++)
    for (let x = 0; x < page.w; x++)
      if (isRed(page.at(x, y)))
        box = box
          ? {
              x0: Math.min(box.x0, x),
              y0: Math.min(box.y0, y),
              x1: Math.max(box.x1, x),
              y1: Math.max(box.y1, y),
            }
          : { x0: x, y0: y, x1: x, y1: y };
  return box;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'review-report-'));
  const clip = join(work, 'counted.mp4');
  const made = run('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=black:s=640x360:r=24:d=1'],
    ...['-vf', `format=yuv420p,geq=lum='16+${LEVELS}*N':cb=128:cr=128`],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '1', clip],
  ]);
  core = await bootTestCore({
    addons: ['review-reports', 'reviewables', 'annotations', 'lists', 'access', 'users'],
  });
  boss = await seedUser(core, 'boss', { isManager: true });
  artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  eve = await seedUser(core, 'eve', {});
  const make = async (path: string, body: unknown) => {
    const res = await as(boss)('POST', path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  await make('/api/projects', { name: 'show', code: 'sh' });
  const folder = await make('/api/projects/show/folders', {
    name: 'sh010',
    folderType: 'Shot',
    attrib: { frameStart: FIRST },
  });
  const product = await make('/api/projects/show/products', {
    name: 'compMain',
    productType: 'render',
    folderId: folder,
  });
  await made;
  for (const number of [1, 2]) {
    const id = await make('/api/projects/show/versions', { version: number, productId: product });
    const upload = await core.request('POST', `/api/projects/show/versions/${id}/reviewables`, {
      token: boss,
      body: await readFile(clip),
      headers: { 'content-type': 'video/mp4', 'x-file-name': 'counted.mp4' },
    });
    expect(upload.status).toBeLessThan(300);
    versions.push({ id, reviewable: upload.body.activityId });
  }
  list = await make('/api/projects/show/lists', {
    label: 'Dailies 12 Nov',
    entityListType: 'review-session',
    entityType: 'version',
    access: { __everyone__: 10 },
    items: versions.map(({ id }) => ({ entityId: id })),
  });
}, 60_000);
afterAll(async () => {
  await core.close();
  await rm(work, { recursive: true, force: true });
});

describe('review reports', () => {
  it('show each version with its status changes, comments with frame and timecode, and annotated frames', async () => {
    const [v1, v2] = versions;
    const annotations = `/api/projects/show/versions/${v1!.id}/reviewables/${v1!.reviewable}/annotations`;
    // A thick red bar across frame 1013 (index 12), and a stroke and a text on 1020.
    const bar = {
      kind: 'stroke',
      points: [
        [-0.6, 0, 0.2],
        [0.6, 0, 0.2],
      ],
    };
    const draw = async (frame: number, color: string, shape: unknown) =>
      expect((await as(artie)('POST', annotations, { frame, color, shape })).status).toBe(201);
    await draw(1013, '#ff0000', bar);
    await draw(1020, '#ff0000', bar);
    await draw(1020, '#00ff00', { kind: 'text', at: [-0.5, -0.3], text: 'Edge flickers', size: 0.08 });
    // An eraser through the middle of the bar: the picture shows through it.
    await draw(1020, '#ffffff', {
      kind: 'eraser',
      points: [
        [0, 0.2, 0.1],
        [0, -0.2, 0.1],
      ],
    });
    const comment = await as(artie)('POST', `/api/projects/show/versions/${v1!.id}/activities`, {
      activityType: 'comment',
      body: 'Grain is heavier here, [boss](user:boss) — ça clignote',
      data: { frame: 1013, frameEnd: 1016, reviewableId: v1!.reviewable },
    });
    expect(comment.status).toBe(201);
    expect(
      (await as(boss)('PATCH', `/api/projects/show/versions/${v2!.id}`, { status: 'Approved' })).status,
    ).toBe(204);
    // The status change becomes an activity once its event is heard.
    for (let i = 0; i < 50; i++) {
      const feed = await as(boss)('GET', `/api/projects/show/versions/${v2!.id}/activities`);
      if (JSON.stringify(feed.body).includes('status.change')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const res = await as(artie)('GET', `/api/projects/show/lists/${list}/review-report`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Dailies_12_Nov.pdf"');
    const { text, pages } = await readReport(res.bytes);
    expect(text).toContain('Review: Dailies 12 Nov');
    expect(text).toContain('sh010 / compMain v001');
    expect(text).toContain('sh010 / compMain v002');
    expect(text).toContain('Grain is heavier here, @boss — ça clignote');
    expect(text).toContain('frames 1013 (00:00:00:12) to 1016 (00:00:00:15)');
    expect(text).toContain('boss: Not ready → Approved');
    expect(text).toContain('counted.mp4 · frame 1013 · 00:00:00:12 · 1 object');
    expect(text).toContain('counted.mp4 · frame 1020 · 00:00:00:19 · 3 objects');
    expect(text).toContain('Edge flickers');
    // Each annotated frame is its own picture with the drawing over it: 1013 (index 12), then 1020 (index 19),
    // whose bar the eraser cut in two, showing the picture through the gap.
    const drawn = pages.flatMap((page) => {
      const bar = redBox(page);
      if (!bar) return [];
      const [x, y] = [Math.round((bar.x0 + bar.x1) / 2), Math.round((bar.y0 + bar.y1) / 2)];
      return [{ below: indexOf(page.at(x, bar.y1 + 8)), centre: page.at(x, y), end: page.at(bar.x0 + 4, y) }];
    });
    expect(drawn).toHaveLength(2);
    const [at1013, at1020] = drawn;
    expect([at1013!.below, isRed(at1013!.centre), isRed(at1013!.end)]).toEqual([12, true, true]);
    expect([at1020!.below, indexOf(at1020!.centre), isRed(at1020!.end)]).toEqual([19, 19, true]);
  }, 60_000);

  it('leave out what the caller may not read, and refuse what is not a list of versions', async () => {
    expect((await as(eve)('GET', `/api/projects/show/lists/${list}/review-report`)).status).toBe(403);
    const one = await as(artie)('GET', `/api/projects/show/versions/${versions[1]!.id}/review-report`);
    expect(one.status).toBe(200);
    expect(one.headers['content-disposition']).toBe('attachment; filename="sh010_compMain_v002.pdf"');
    expect(
      (await as(artie)('GET', `/api/projects/show/versions/${'f'.repeat(32)}/review-report`)).status,
    ).toBe(404);
  });
});
