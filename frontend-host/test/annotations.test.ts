import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { activitiesRef } from '@pipewright/plugin-activities/api';
import { type BrowserSession, closeAll, logIn, openBrowser, screenshot, startWebApp } from './browser';
import { countedClip, framesOf, randomFrames, showsFrame, until } from './frames';

// Drawing on review media, frame-exact. The clip is made here by ffmpeg with its frame index burned in as a grey
// level (4 levels a frame), so the test reads from the pixels which frame the picture shows. Objects are drawn with
// the mouse on frames reached by the timeline, by stepping, and by Home and End, and through the API; after a
// reload each frame shows exactly its own. Two people drawing on one frame at once keep all they drew.

const ADMIN = { name: 'admin', password: 'a strong password' };
const FRAMES = 48;
const FIRST = 1001;
/** The rates a studio's review media come in; each clip is 2 s, its frames 3 grey levels apart. */
const RATES = [
  { name: '24', rate: '24' },
  { name: '23.976', rate: '24000/1001' },
  { name: '25', rate: '25' },
  { name: '29.97', rate: '30000/1001' },
  { name: '30', rate: '30' },
];
const LEVELS = 3;
/** Every clip made: the first for the drawing tests, one per rate for the rates test. */
const CLIPS = [{ name: 'main', rate: '24' }, ...RATES];

let core: TestCore;
let base: string;
let sessions: BrowserSession[] = [];
let page: Page;
let token: string;
let media: string;
let version: string;
let reviewable: string;
let reviewUrl: string;

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });
/** The versions of the clips at each rate, and their reviewables. */
const clips = new Map<string, { version: string; reviewable: string }>();

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'annotations-e2e-'));
  const made = Promise.all([
    ...CLIPS.map(({ name, rate }) =>
      countedClip(join(media, `counted-${name}.mp4`), { rate, seconds: 2, levels: LEVELS }),
    ),
    promisify(execFile)('/usr/bin/ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', 'testsrc=size=400x300', '-frames:v', '1', join(media, 'still.png')],
    ]),
  ]);
  made.catch(() => undefined);
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'websocket', 'files', 'thumbnails', 'activities', 'reviewables', 'annotations'],
    screens: ['reviewables'],
    admin: ADMIN,
  }));
  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/demo/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const shot = await create('folders', { name: 'sh010', folderType: 'Shot', attrib: { frameStart: FIRST } });
  const product = await create('products', { name: 'compMain', productType: 'render', folderId: shot });
  await made;
  for (const [i, { name }] of CLIPS.entries()) {
    const id = await create('versions', { version: i + 1, productId: product });
    const upload = await core.request('POST', `/api/projects/demo/versions/${id}/reviewables`, {
      token,
      body: await readFile(join(media, `counted-${name}.mp4`)),
      headers: { 'content-type': 'video/mp4', 'x-file-name': 'counted.mp4' },
    });
    expect(upload.status).toBeLessThan(300);
    clips.set(name, { version: id, reviewable: upload.body.activityId });
  }
  const stillVersion = await create('versions', { version: CLIPS.length + 1, productId: product });
  const still = await core.request('POST', `/api/projects/demo/versions/${stillVersion}/reviewables`, {
    token,
    body: await readFile(join(media, 'still.png')),
    headers: { 'content-type': 'image/png', 'x-file-name': 'still.png' },
  });
  expect(still.status).toBeLessThan(300);
  clips.set('still', { version: stillVersion, reviewable: still.body.activityId });
  ({ version, reviewable } = clips.get('main')!);
  reviewUrl = review(version);
  sessions = [await openBrowser(base)];
  page = sessions[0]!.page;
  await logIn(page, reviewUrl, ADMIN);
}, 120_000);

afterAll(async () => {
  for (const session of sessions.slice(1)) await session.browser.close();
  await closeAll(sessions[0]!, core);
  if (media) await rm(media, { recursive: true, force: true });
});

const review = (id: string) => `${base}/addon/reviewables/reviewables_screens?project=demo&version=${id}`;
const annotationsUrl = (at = { version, reviewable }) =>
  `/api/projects/demo/versions/${at.version}/reviewables/${at.reviewable}/annotations`;

/** Wait until the readout, the picture and the annotation layer are all on this frame. */
async function shows(on: Page, frame: number) {
  await showsFrame(on, frame, frame - FIRST, LEVELS);
  await on.getByRole('img', { name: `Annotations of frame ${frame}` }).waitFor();
}

/** Go to a frame the way a reviewer would: the timeline, the arrow keys, or Home and End. */
async function reach(on: Page, frame: number, how: 'timeline' | 'steps' | 'ends') {
  if (how === 'ends') await on.keyboard.press(frame === FIRST ? 'Home' : 'End');
  else if (how === 'timeline') await on.getByLabel('Frame', { exact: true }).fill(String(frame));
  else {
    const current = Number(/frame (\d+)/.exec((await on.getByLabel('Frame number').textContent()) ?? '')![1]);
    const key = frame > current ? 'ArrowRight' : 'ArrowLeft';
    await on.getByRole('region', { name: /^Stage/ }).focus();
    for (let i = 0; i < Math.abs(frame - current); i++) await on.keyboard.press(key);
  }
  await shows(on, frame);
}

/** A short stroke with the mouse, at a place of the picture given in fractions of its width and height. */
async function stroke(on: Page, fx: number, fy: number) {
  const box = (await on.getByRole('img', { name: /^Annotations of frame/ }).boundingBox())!;
  const x = box.x + fx * box.width;
  const y = box.y + fy * box.height;
  await on.mouse.move(x, y);
  await on.mouse.down();
  await on.mouse.move(x + 12, y + 6, { steps: 3 });
  await on.mouse.up();
}

const countOn = (on: Page, frame: number) =>
  on
    .getByRole('img', { name: `Annotations of frame ${frame}` })
    .getAttribute('data-count')
    .then(Number);

/** The red level of a PNG's third pixel on its first row (a corner no stroke reaches), read from the file. */
function cornerRed(png: Uint8Array): number {
  const bytes = Buffer.from(png);
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT')
      idat.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(idat));
  // Row 0 of an 8-bit RGBA picture: its filter byte, then 4 bytes a pixel; there is no row above it.
  const filter = rows[0]!;
  const line: number[] = [];
  for (let i = 0; i < 12; i++) {
    const raw = rows[1 + i]!;
    const left = i >= 4 ? line[i - 4]! : 0;
    const predicted = filter === 1 || filter === 4 ? left : filter === 3 ? left >> 1 : 0;
    line.push((raw + predicted) & 0xff);
  }
  return line[8]!;
}

describe('annotations on review media', () => {
  it('stay on exactly their frame after a reload, whichever way the frame was reached', async () => {
    await shows(page, FIRST);
    const toolbar = page.getByRole('toolbar', { name: 'Annotation tools' });
    await toolbar.getByRole('button', { name: 'Pen', exact: true }).click();
    const frames = randomFrames(10, 20261130, FRAMES, FIRST);
    const expected = new Map<number, number>();
    const ways = ['timeline', 'steps', 'timeline', 'steps'] as const;
    for (const [i, frame] of frames.entries()) {
      await reach(page, frame, ways[i % ways.length]!);
      const strokes = 1 + (i % 3);
      for (let n = 0; n < strokes; n++) await stroke(page, 0.2 + 0.2 * n, 0.3 + 0.05 * i);
      expected.set(frame, strokes);
      await page
        .getByLabel('Annotations on this frame')
        .filter({ hasText: `${strokes} on this frame` })
        .waitFor();
    }
    // The first and the last frame, by Home and End; a rectangle and a text on the last.
    await reach(page, FIRST + FRAMES - 1, 'ends');
    await toolbar.getByRole('button', { name: 'Rectangle' }).click();
    const box = (await page.getByRole('img', { name: /^Annotations of frame/ }).boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + 90, { steps: 4 });
    await page.mouse.up();
    await toolbar.getByRole('button', { name: 'Text' }).click();
    await page.mouse.click(box.x + 60, box.y + 140);
    await page.getByLabel('Annotation text').fill('Grade this darker');
    await page.getByLabel('Annotation text').press('Enter');
    expected.set(FIRST + FRAMES - 1, (expected.get(FIRST + FRAMES - 1) ?? 0) + 2);
    await page
      .getByLabel('Annotations on this frame')
      .filter({ hasText: `${expected.get(FIRST + FRAMES - 1)} on this frame` })
      .waitFor();
    await screenshot(page, 'annotations-drawn');

    // Select the rectangle, drag it right, and give it another colour: the same object, changed.
    const rectangles = async () =>
      (
        (await api('GET', `${annotationsUrl()}?frame=${FIRST + FRAMES - 1}`)).body.annotations as any[]
      ).filter((a) => a.shape.kind === 'rectangle');
    const [before] = await rectangles();
    await toolbar.getByRole('button', { name: 'Select', exact: true }).click();
    const edge = (await page.locator(`[data-annotation-id="${before.id}"] rect`).boundingBox())!;
    await page.mouse.move(edge.x + 1, edge.y + edge.height / 2);
    await page.mouse.down();
    await page.mouse.move(edge.x + 61, edge.y + edge.height / 2, { steps: 5 });
    await page.mouse.up();
    await toolbar.getByLabel('Colour').fill('#00aaff');
    for (const end = Date.now() + 5000; Date.now() < end; await page.waitForTimeout(100)) {
      const [now] = await rectangles();
      if (now.color === '#00aaff' && now.shape.from[0] > before.shape.from[0]) break;
    }
    const [after] = await rectangles();
    expect(after.id).toBe(before.id);
    expect(after.color).toBe('#00aaff');
    expect(after.shape.from[0]).toBeGreaterThan(before.shape.from[0] + 0.05);
    expect(Math.abs(after.shape.from[1] - before.shape.from[1])).toBeLessThan(0.01);
    await toolbar.getByRole('button', { name: 'View' }).click();
    await reach(page, FIRST, 'ends');
    // And one through the API, as a script or another tool draws.
    const apiFrame = frames.includes(FIRST + 5) ? FIRST + 6 : FIRST + 5;
    const drawn = await api('POST', annotationsUrl(), {
      frame: apiFrame,
      color: '#00ff00',
      shape: { kind: 'arrow', from: [-0.3, -0.2], to: [0.1, 0.1], width: 0.005 },
    });
    expect(drawn.status).toBe(201);
    expected.set(apiFrame, (expected.get(apiFrame) ?? 0) + 1);
    // The page hears of it live, as everyone watching does.
    await reach(page, apiFrame, 'timeline');
    await page.locator(`svg[data-frame="${apiFrame}"][data-count="${expected.get(apiFrame)}"]`).waitFor();

    // The server holds each object on its frame, a whole number in the shot's numbering.
    const stored = (await api('GET', annotationsUrl())).body.annotations as { frame: number }[];
    const counted = new Map<number, number>();
    for (const { frame } of stored) counted.set(frame, (counted.get(frame) ?? 0) + 1);
    expect(counted).toEqual(expected);

    // Every annotated frame as a PNG in one ZIP: each the picture of its own frame (read from its pixels).
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      toolbar.getByRole('button', { name: 'Save annotated frames (ZIP)' }).click(),
    ]);
    const zipped = unzipSync(await readFile((await download.path())!));
    const names = [...expected.keys()].sort((a, b) => a - b).map((frame) => `frame-${frame}.png`);
    expect(Object.keys(zipped).sort()).toEqual([...names].sort());
    for (const [name, png] of Object.entries(zipped)) {
      const frame = Number(/frame-(\d+)/.exec(name)![1]);
      expect([name, Buffer.from(png).readUInt32BE(16), Buffer.from(png).readUInt32BE(20)]).toEqual([
        name,
        320,
        180,
      ]);
      expect([name, 1001 + Math.round((cornerRed(png) * 219) / 255 / LEVELS)]).toEqual([name, frame]);
    }

    await page.reload();
    await shows(page, FIRST);
    const visits = [...expected.keys(), FIRST + 1, FIRST + 2].sort(() => 0.5 - Math.random());
    for (const [i, frame] of visits.entries()) {
      await reach(page, frame, i % 2 ? 'timeline' : 'steps');
      expect(await countOn(page, frame)).toBe(expected.get(frame) ?? 0);
    }
  }, 180_000);

  it('stay on their frame at 23.976, 24, 25, 29.97 and 30 fps: 200 random frames, after a reload', async () => {
    for (const [i, { name, rate }] of RATES.entries()) {
      const at = clips.get(name)!;
      const [num, den = '1'] = rate.split('/');
      const frames = framesOf(rate, 2);
      // 40 frames of each clip, the first few drawn with the mouse, the rest through the API.
      const chosen = randomFrames(40, 1000 + i, frames, FIRST);
      await page.goto(review(at.version));
      await shows(page, FIRST);
      await page
        .getByRole('toolbar', { name: 'Annotation tools' })
        .getByRole('button', { name: 'Pen', exact: true })
        .click();
      for (const frame of chosen.slice(0, 4)) {
        await reach(page, frame, 'timeline');
        await stroke(page, 0.5, 0.5);
        await page.getByLabel('Annotations on this frame').filter({ hasText: '1 on this frame' }).waitFor();
      }
      for (const frame of chosen.slice(4)) {
        const drawn = await api('POST', annotationsUrl(at), {
          frame,
          color: '#ffcc00',
          shape: {
            kind: 'stroke',
            points: [
              [0, 0, 0.01],
              [0.1, 0.05, 0.01],
            ],
          },
        });
        expect(drawn.status).toBe(201);
      }
      const stored = (await api('GET', annotationsUrl(at))).body.annotations as { frame: number }[];
      expect(stored.map((a) => a.frame).sort()).toEqual([...chosen].sort());
      // Every export keys them on the same frames: OTIO's layer ranges at the clip's rate, RV's from 1.
      const otio = (await api('GET', `${annotationsUrl(at)}/otio`)).body;
      const times = otio.tracks.children[0].children[0].effects.flatMap((effect: any) =>
        effect.layers.map((layer: any) => layer.layer_range.start_time),
      );
      expect(times.map((t: any) => t.value).sort()).toEqual([...chosen].sort());
      for (const t of times) expect(t.rate).toBeCloseTo(Number(num) / Number(den), 3);
      const paint = (await api('GET', `${annotationsUrl(at)}/openrv`)).text;
      const rvFrames = [...paint.matchAll(/"frame:(\d+)"/g)].map((m) => Number(m[1]) + FIRST - 1);
      expect(rvFrames.sort()).toEqual([...chosen].sort());

      await page.reload();
      await shows(page, FIRST);
      const drawnOn = new Set(chosen);
      // Each chosen frame and the frame after it (drawn on or not), by the timeline or by a step.
      for (const [n, frame] of chosen.entries()) {
        await reach(page, frame, n % 3 ? 'timeline' : 'steps');
        expect([frame, await countOn(page, frame)]).toEqual([frame, 1]);
        if (frame + 1 < FIRST + frames && n % 4 === 0) {
          await reach(page, frame + 1, 'steps');
          expect([frame + 1, await countOn(page, frame + 1)]).toEqual([
            frame + 1,
            drawnOn.has(frame + 1) ? 1 : 0,
          ]);
        }
      }
    }
  }, 300_000);

  it('posts a comment on a frame with its drawing as AYON keeps it, and the comment leads back to the frame', async () => {
    await page.goto(reviewUrl);
    await shows(page, FIRST);
    const frame = FIRST + 29;
    await reach(page, frame, 'timeline');
    await page
      .getByRole('toolbar', { name: 'Annotation tools' })
      .getByRole('button', { name: 'Pen', exact: true })
      .click();
    await stroke(page, 0.4, 0.6);
    await page.getByLabel(`Comment on frame ${frame}`).fill('Soften this edge');
    await page
      .getByRole('form', { name: 'Comment on this frame' })
      .getByRole('button', { name: 'Post' })
      .click();
    const feed = page.getByRole('article', { name: /^Comment by/ }).filter({ hasText: 'Soften this edge' });
    await feed.waitFor();

    const [comment] = (await core.services.get(activitiesRef).list('demo', 'comment', [version])).filter(
      (a) => a.body.includes('Soften this edge'),
    );
    expect(comment!.data).toMatchObject({ frame, reviewableId: reviewable });
    // AYON's shape: the drawing over the picture and alone, as PNG files of the comment, with a 1-based range.
    const [annotation] = comment!.data.annotations;
    expect(annotation.range).toEqual([30, 30]);
    for (const id of [annotation.composite, annotation.transparent]) {
      const file = await fetch(`${base}/api/projects/demo/files/${id}/payload`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(file.status).toBe(200);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      // The picture's own size, 320 by 180.
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([320, 180]);
    }

    await reach(page, FIRST, 'ends');
    await feed.getByRole('link', { name: `frame ${frame}` }).click();
    await shows(page, frame);
    expect(await countOn(page, frame)).toBe(1);

    // A range: marked in on this frame, the player moved on five frames.
    await page
      .getByRole('form', { name: 'Comment on this frame' })
      .getByRole('button', { name: 'Mark in' })
      .click();
    await reach(page, frame + 5, 'steps');
    await page.getByLabel(`Comment on frames ${frame}–${frame + 5}`).fill('Check the move here');
    await page
      .getByRole('form', { name: 'Comment on this frame' })
      .getByRole('button', { name: 'Post' })
      .click();
    const ranged = page
      .getByRole('article', { name: /^Comment by/ })
      .filter({ hasText: 'Check the move here' });
    await ranged.waitFor();
    const [range] = (await core.services.get(activitiesRef).list('demo', 'comment', [version])).filter((a) =>
      a.body.includes('Check the move'),
    );
    expect(range!.data).toMatchObject({ frame, frameEnd: frame + 5 });
    expect(range!.data.annotations).toBeUndefined();
    await reach(page, FIRST, 'ends');
    await ranged.getByRole('link', { name: `frames ${frame}–${frame + 5}` }).click();
    await shows(page, frame);
  }, 60_000);

  it('draws on an image as on a frame (the shot\u2019s first), kept after a reload and sent with a comment', async () => {
    const at = clips.get('still')!;
    await page.goto(review(at.version));
    const drawing = page.getByRole('img', { name: `Annotations of frame ${FIRST}` });
    await drawing.waitFor();
    await page
      .getByRole('toolbar', { name: 'Annotation tools' })
      .getByRole('button', { name: 'Pen', exact: true })
      .click();
    await stroke(page, 0.3, 0.3);
    await stroke(page, 0.6, 0.5);
    await page.getByLabel('Annotations on this frame').filter({ hasText: '2 on this frame' }).waitFor();
    await page.getByLabel(`Comment on frame ${FIRST}`).fill('The logo is off-centre');
    await page
      .getByRole('form', { name: 'Comment on this frame' })
      .getByRole('button', { name: 'Post' })
      .click();
    await page
      .getByRole('article', { name: /^Comment by/ })
      .filter({ hasText: 'off-centre' })
      .waitFor();
    await page.reload();
    await drawing.waitFor();
    // The layer is there before the annotations it shows are read.
    await until(() => countOn(page, FIRST), 2);
    const [comment] = (await core.services.get(activitiesRef).list('demo', 'comment', [at.version])).filter(
      (a) => a.body.includes('off-centre'),
    );
    expect(comment!.data).toMatchObject({ frame: FIRST, annotations: [{ range: [1, 1] }] });
    // The frame with its drawing, saved as a PNG of the picture's own size.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save frame as PNG' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`frame-${FIRST}.png`);
    const saved = await readFile((await download.path())!);
    expect([saved.subarray(1, 4).toString(), saved.readUInt32BE(16), saved.readUInt32BE(20)]).toEqual([
      'PNG',
      400,
      300,
    ]);
    const file = await fetch(
      `${base}/api/projects/demo/files/${comment!.data.annotations[0].composite}/payload`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    const bytes = Buffer.from(await file.arrayBuffer());
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([400, 300]);

    // Out to OTIO and back: the drawing leaves, comes back from the file, and an OpenRV fragment is saved.
    const tools = page.getByRole('group', { name: 'Annotation files' });
    const [otio] = await Promise.all([
      page.waitForEvent('download'),
      tools.getByRole('button', { name: 'Export OTIO' }).click(),
    ]);
    const document = JSON.parse(await readFile((await otio.path())!, 'utf8'));
    expect(document.tracks.children[0].children[0].effects[0].layers).toHaveLength(2);
    for (const { id } of (await api('GET', annotationsUrl(at))).body.annotations)
      expect((await api('DELETE', `${annotationsUrl(at)}/${id}`)).status).toBe(204);
    await page.getByLabel('Annotations on this frame').filter({ hasText: 'Nothing drawn' }).waitFor();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      tools.getByRole('button', { name: 'Import OTIO…' }).click(),
    ]);
    await chooser.setFiles((await otio.path())!);
    await tools.getByRole('status').filter({ hasText: 'Imported 2 objects' }).waitFor();
    await page.getByLabel('Annotations on this frame').filter({ hasText: '2 on this frame' }).waitFor();
    const [paint] = await Promise.all([
      page.waitForEvent('download'),
      tools.getByRole('button', { name: 'Export OpenRV paint' }).click(),
    ]);
    expect((await readFile((await paint.path())!, 'utf8')).startsWith('GTOa (4)')).toBe(true);
  }, 60_000);

  it('keeps all 100 objects two people draw on one frame at once; deleting one removes exactly that one', async () => {
    const other = await openBrowser(base);
    sessions.push(other);
    await logIn(other.page, reviewUrl, ADMIN);
    const frame = FIRST + 20;
    await page.goto(reviewUrl);
    for (const on of [page, other.page]) await shows(on, FIRST);
    for (const on of [page, other.page]) {
      await reach(on, frame, 'timeline');
      await on
        .getByRole('toolbar', { name: 'Annotation tools' })
        .getByRole('button', { name: 'Pen', exact: true })
        .click();
    }
    const before = await countOn(page, frame);
    await Promise.all(
      [page, other.page].map(async (on, who) => {
        for (let n = 0; n < 50; n++)
          await stroke(on, 0.1 + (n % 10) * 0.08, 0.15 + who * 0.4 + Math.floor(n / 10) * 0.07);
      }),
    );
    const stored = async () =>
      ((await api('GET', `${annotationsUrl()}?frame=${frame}`)).body.annotations as { id: string }[]).map(
        (a) => a.id,
      );
    for (const end = Date.now() + 10_000; (await stored()).length < before + 100 && Date.now() < end;)
      await page.waitForTimeout(100);
    const ids = await stored();
    expect(ids).toHaveLength(before + 100);
    // Both see all of them, live.
    for (const on of [page, other.page])
      await on
        .getByRole('img', { name: `Annotations of frame ${frame}` })
        .and(on.locator(`[data-count="${before + 100}"]`))
        .waitFor();

    await page
      .getByRole('toolbar', { name: 'Annotation tools' })
      .getByRole('button', { name: 'Select', exact: true })
      .click();
    await page
      .locator(`[data-annotation-id="${ids[before + 42]}"] line`)
      .first()
      .click({ force: true });
    // The object under the pointer is selected (strokes may overlap there): that one, and only it, goes.
    const chosen = (await page.locator('.pwr-selected').getAttribute('data-annotation-id'))!;
    expect(ids).toContain(chosen);
    await page.getByRole('button', { name: 'Delete selected' }).click();
    for (const on of [page, other.page])
      await on
        .getByRole('img', { name: `Annotations of frame ${frame}` })
        .and(on.locator(`[data-count="${before + 99}"]`))
        .waitFor();
    const left = await stored();
    expect(left).toEqual(ids.filter((id) => id !== chosen));
    await screenshot(other.page, 'annotations-shared');
  }, 180_000);

  it('shows a stroke to the others while it is drawn; reshapes a figure by its ends and retypes a text', async () => {
    const other = sessions[1]!.page;
    const frame = FIRST + 30;
    for (const on of [page, other]) await reach(on, frame, 'timeline');
    const before = await countOn(page, frame);
    const tools = page.getByRole('toolbar', { name: 'Annotation tools' });
    await tools.getByRole('button', { name: 'Pen', exact: true }).click();
    const layer = page.getByRole('img', { name: `Annotations of frame ${frame}` });
    const box = (await layer.boundingBox())!;
    const at = (fx: number, fy: number) => [box.x + fx * box.width, box.y + fy * box.height] as const;
    await page.mouse.move(...at(0.2, 0.5));
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) {
      await page.mouse.move(...at(0.2 + i * 0.05, 0.5 + (i % 2) * 0.05));
      await page.waitForTimeout(40);
    }
    // The other sees the stroke while it is drawn, before anything is kept.
    const drawnOnOther = other.locator(`svg[data-frame="${frame}"] [data-annotation-id]`);
    await other.waitForFunction(
      ([f, n]) => document.querySelectorAll(`svg[data-frame="${f}"] [data-annotation-id]`).length > n,
      [frame, before] as const,
    );
    expect(await countOn(other, frame)).toBe(before);
    await page.mouse.up();
    await other.locator(`svg[data-frame="${frame}"][data-count="${before + 1}"]`).waitFor();
    expect(await drawnOnOther.count()).toBe(before + 1);

    // A thick rectangle and a text, drawn through the API; the rectangle's end dragged 40 px right and 30 px down.
    const draw = async (shape: unknown) =>
      (await api('POST', annotationsUrl(), { frame, color: '#00ccff', shape })).body.id as string;
    const rectangle = await draw({ kind: 'rectangle', from: [-0.5, 0.3], to: [-0.1, -0.1], width: 0.03 });
    const text = await draw({ kind: 'text', at: [0.1, -0.3], text: 'Too soft', size: 0.08 });
    await page.locator(`svg[data-frame="${frame}"][data-count="${before + 3}"]`).waitFor();
    await tools.getByRole('button', { name: 'Select', exact: true }).click();
    const edge = (await page.locator(`[data-annotation-id="${rectangle}"] rect`).boundingBox())!;
    await page.mouse.click(edge.x + 3, edge.y + edge.height / 2);
    const end = (await page.getByLabel('Reshape from its end').boundingBox())!;
    await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2);
    await page.mouse.down();
    await page.mouse.move(end.x + end.width / 2 + 40, end.y + end.height / 2 + 30, { steps: 4 });
    await page.mouse.up();
    const one = async (id: string) =>
      ((await api('GET', `${annotationsUrl()}?frame=${frame}`)).body.annotations as any[]).find(
        (a) => a.id === id,
      );
    for (const until = Date.now() + 5000; (await one(rectangle)).shape.to[0] === -0.1 && Date.now() < until;)
      await page.waitForTimeout(100);
    const reshaped = (await one(rectangle)).shape;
    expect(reshaped.from).toEqual([-0.5, 0.3]);
    expect(reshaped.to[0]).toBeCloseTo(-0.1 + 40 / box.height, 2);
    expect(reshaped.to[1]).toBeCloseTo(-0.1 - 30 / box.height, 2);

    await page.locator(`[data-annotation-id="${text}"] text`).dblclick();
    const field = page.getByLabel('Annotation text');
    expect(await field.inputValue()).toBe('Too soft');
    await field.fill('Too soft: sharpen');
    await field.press('Enter');
    await other
      .locator(`[data-annotation-id="${text}"] text`)
      .filter({ hasText: 'Too soft: sharpen' })
      .waitFor();
    expect((await one(text)).shape).toMatchObject({
      kind: 'text',
      at: [0.1, -0.3],
      text: 'Too soft: sharpen',
    });
    expect(await countOn(page, frame)).toBe(before + 3);
  }, 60_000);
});
