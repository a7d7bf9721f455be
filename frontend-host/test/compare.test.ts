import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, screenshot, startWebApp } from './browser';

// A supervisor compares v002 of a shot with v001 in the review player. Both clips are made here by ffmpeg with
// their frame index burned in as the grey level (luma 30 + 3 a frame); v001's is tinted red (Cr + 40), so a pixel
// of the screen says which side it comes from (red minus blue) and which frame (blue: Cb is neutral, so blue is
// the luma whatever the colour matrix). Every check reads screenshots of the picture: what the user sees.

const ADMIN = { name: 'admin', password: 'a strong password' };
const FIRST = 1001;
const BASE = 30;
const LEVELS = 3;

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
let media: string;
const ids: Record<string, string> = {};

/** A 2 s clip at 24 fps, 320x180, whose luma tells its frame; `red` tints it. */
function clip(name: string, red: boolean) {
  return promisify(execFile)('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'color=c=black:s=320x180:r=24:d=2'],
    ...['-vf', `format=yuv420p,geq=lum='${BASE}+${LEVELS}*N':cb=128:cr=${red ? 168 : 128}`],
    // Tagged BT.709 throughout: untagged, the browser takes other primaries and mixes red into blue on the way.
    ...['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '1', join(media, `${name}.mp4`)],
  ]);
}

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'compare-e2e-'));
  const made = Promise.all([clip('grey', false), clip('red', true)]);
  made.catch(() => undefined);
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'websocket', 'files', 'thumbnails', 'activities', 'reviewables', 'annotations'],
    screens: ['reviewables'],
    admin: ADMIN,
  }));
  const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });
  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/demo/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const shot = await create('folders', { name: 'sh010', folderType: 'Shot', attrib: { frameStart: FIRST } });
  const product = await create('products', { name: 'compMain', productType: 'render', folderId: shot });
  ids.v1 = await create('versions', { version: 1, productId: product });
  ids.v2 = await create('versions', { version: 2, productId: product });
  await made;
  const upload = async (version: string, file: string, label: string) => {
    const res = await core.request(
      'POST',
      `/api/projects/demo/versions/${version}/reviewables?label=${encodeURIComponent(label)}`,
      {
        token,
        body: await readFile(join(media, `${file}.mp4`)),
        headers: { 'content-type': 'video/mp4', 'x-file-name': `${file}.mp4` },
      },
    );
    expect(res.status).toBeLessThan(300);
    return res.body.activityId as string;
  };
  ids.older = await upload(ids.v1, 'red', 'Older take');
  ids.main = await upload(ids.v2, 'grey', 'Main take');
  ids.again = await upload(ids.v2, 'grey', 'Main take again');
  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/addon/reviewables/reviewables_screens?project=demo&version=${ids.v2}`, ADMIN);
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
  if (media) await rm(media, { recursive: true, force: true });
});

const videoA = () => page.getByLabel('Video: Main take', { exact: true });
const controls = () => page.getByRole('group', { name: 'Compare', exact: true });
const mode = (name: string) =>
  controls().getByRole('group', { name: 'Compare mode' }).getByRole('button', { name, exact: true });
const divider = () => page.getByRole('slider', { name: 'Wipe divider' });
const COMPARE_PARAMS = ['compare', 'mode', 'wipe', 'dir', 'opacity', 'offset', 'audio', 'show'];
const params = () => Object.fromEntries(new URL(page.url()).searchParams);

/** What a pixel of the screen shows: which side (or a mix of both, or black), and the frame its grey level says. */
interface Seen {
  side: 'a' | 'b' | 'mix' | 'black';
  frame: number;
  rgb: number[];
}
const seen = ([r, g, b]: number[]): Seen => {
  const red = r! - b!;
  const side = r! + g! + b! < 24 ? 'black' : red < 12 ? 'a' : red > 50 ? 'b' : 'mix';
  // Video levels 16-235 spread to 0-255; blue is the luma where Cb is neutral.
  // (+ 0: no -0 for a frame read just under the first.)
  return { side, frame: Math.round(((b! * 219) / 255 + 16 - BASE) / LEVELS) + 0, rgb: [r!, g!, b!] };
};

/** A place on a side's picture, in fractions of its width and height. */
type Spot = [side: 'A' | 'B', fx: number, fy: number];

/** Screenshot the player's picture and read these spots from it. */
async function look(spots: Spot[]): Promise<Seen[]> {
  const box = page.locator('.pwr-picture-box');
  const png = await box.screenshot();
  const points = await box.evaluate((element, spots) => {
    const around = element.getBoundingClientRect();
    const pictureOf = (video: HTMLVideoElement) => {
      const r = video.getBoundingClientRect();
      const scale = Math.min(r.width / video.videoWidth, r.height / video.videoHeight);
      const [w, h] = [video.videoWidth * scale, video.videoHeight * scale];
      return {
        x: r.left - around.left + (r.width - w) / 2,
        y: r.top - around.top + (r.height - h) / 2,
        w,
        h,
      };
    };
    const a = pictureOf(element.querySelector('video[aria-label^="Video: "]')!);
    const b = pictureOf(element.querySelector('video[aria-label^="Video B: "]')!);
    return spots.map(([side, fx, fy]) => {
      const r = side === 'A' ? a : b;
      return [Math.round(r.x + fx * r.w), Math.round(r.y + fy * r.h)];
    });
  }, spots);
  const colours = await page.evaluate(
    async ({ data, points }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const picture = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(picture.width, picture.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(picture, 0, 0);
      return points.map(([x, y]) => [...context.getImageData(x!, y!, 1, 1).data.slice(0, 3)]);
    },
    { data: png.toString('base64'), points },
  );
  return colours.map(seen);
}

/**
 * Wait until both videos rest on their frames (a burst of seeks can keep Chromium's decoders busy for seconds on a
 * loaded machine), then until the spots show what is expected.
 */
async function expectSeen(spots: Spot[], expected: Pick<Seen, 'side' | 'frame'>[] | Pick<Seen, 'side'>[]) {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLVideoElement>('.pwr-picture-box video')].every(
        (video) => !video.seeking && video.readyState >= 2,
      ),
    undefined,
    { timeout: 30_000 },
  );
  const want = (found: Seen[]) =>
    found.map((one, i) =>
      'frame' in expected[i]! ? { side: one.side, frame: one.frame } : { side: one.side },
    );
  const deadline = Date.now() + 8000;
  let found = await look(spots);
  while (JSON.stringify(want(found)) !== JSON.stringify(expected) && Date.now() < deadline) {
    await page.waitForTimeout(100);
    found = await look(spots);
  }
  // The colours read are told too, to tell a near miss from a wrong picture.
  if (JSON.stringify(want(found)) === JSON.stringify(expected)) return;
  const videos = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLVideoElement>('.pwr-picture-box video')].map((video) => ({
      time: video.currentTime,
      frame: video.dataset.frame,
      paused: video.paused,
      seeking: video.seeking,
    })),
  );
  throw new Error(
    `expected ${JSON.stringify(expected)}, saw ${JSON.stringify(found)}; videos ${JSON.stringify(videos)}`,
  );
}

/** Put A on a frame of the shot through the timeline. */
async function seek(frame: number) {
  await page.getByLabel('Frame', { exact: true }).fill(String(frame));
  await page
    .getByLabel('Frame number')
    .filter({ hasText: new RegExp(`^frame ${frame}\\b`) })
    .waitFor();
}

const centres: Spot[] = [
  ['A', 0.5, 0.5],
  ['B', 0.5, 0.5],
];

describe('compare in the review player', () => {
  it('compares v002 with v001 side by side, frame-locked through seeks, steps and playback', async () => {
    await videoA().waitFor();
    await page.getByRole('button', { name: 'Compare…' }).click();
    const chooser = page.getByRole('region', { name: 'Compare with' });
    // The other reviewable of this version, and v001's.
    await chooser.getByRole('button', { name: 'Compare with v002 · Main take again' }).waitFor();
    await chooser.getByRole('button', { name: 'Compare with v001 · Older take' }).click();
    await page.getByLabel('Video B: v001 · Older take').waitFor();
    await expect(mode('Side by side').getAttribute('aria-pressed')).resolves.toBe('true');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('mode') === 'side');
    expect(params().compare).toBe(`${ids.v1}/${ids.older}`);

    await expectSeen(centres, [
      { side: 'a', frame: 0 },
      { side: 'b', frame: 0 },
    ]);
    await seek(FIRST + 10);
    await expectSeen(centres, [
      { side: 'a', frame: 10 },
      { side: 'b', frame: 10 },
    ]);
    await page.getByRole('region', { name: /^Stage/ }).focus();
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft']) await page.keyboard.press(key);
    await expectSeen(centres, [
      { side: 'a', frame: 12 },
      { side: 'b', frame: 12 },
    ]);

    // Playing, B keeps to A's time within a frame whenever both have the data to play (a decoder waiting for
    // data holds the other back, and is put back in step when it goes on); paused, both show the same frame.
    await page.keyboard.press('Space');
    const drifts: (number | null)[] = [];
    for (let i = 0; i < 8; i++) {
      await page.waitForTimeout(60);
      drifts.push(
        await page.evaluate(() => {
          const [a, b] = [...document.querySelectorAll<HTMLVideoElement>('.pwr-picture-box video')];
          const playing = (v: HTMLVideoElement) => !v.paused && !v.seeking && v.readyState >= 3;
          return playing(a!) && playing(b!) ? Math.abs(a!.currentTime - b!.currentTime) * 24 : null;
        }),
      );
    }
    await page.keyboard.press('Space');
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLVideoElement>('.pwr-picture-box video')].every((v) => v.paused),
    );
    const measured = drifts.filter((drift): drift is number => drift !== null);
    expect(measured.length).toBeGreaterThan(1);
    expect(Math.max(...measured)).toBeLessThan(1.5);
    const [a] = await look([['A', 0.5, 0.5]]);
    expect(a!.frame).toBeGreaterThan(12);
    await expectSeen(centres, [
      { side: 'a', frame: a!.frame },
      { side: 'b', frame: a!.frame },
    ]);
    await screenshot(page, 'compare-side-by-side');
  });

  it('shows B a number of frames later with an offset, through seeks and steps', async () => {
    await seek(FIRST + 20);
    await controls().getByLabel('B offset').fill('3');
    await expectSeen(centres, [
      { side: 'a', frame: 20 },
      { side: 'b', frame: 23 },
    ]);
    await page.getByRole('region', { name: /^Stage/ }).focus();
    await page.keyboard.press('ArrowLeft');
    await expectSeen(centres, [
      { side: 'a', frame: 19 },
      { side: 'b', frame: 22 },
    ]);
    await expect(controls().getByLabel('Frame of B').textContent()).resolves.toBe(`B at frame ${FIRST + 22}`);
  });

  it('wipes at 30 %, left and right, and the divider moves by keyboard and by dragging', async () => {
    await mode('Wipe').click();
    const slider = divider();
    await slider.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('30');
    // The arrows moved the divider, not the player.
    await expect(page.getByLabel('Frame number').textContent()).resolves.toMatch(/^frame 1020\b/);
    const across = (at: number): Spot[] => [
      ['A', 0.05, 0.5],
      ['A', at - 0.05, 0.5],
      ['A', at + 0.05, 0.5],
      ['A', 0.95, 0.5],
    ];
    await expectSeen(across(0.3), [
      { side: 'a', frame: 19 },
      { side: 'a', frame: 19 },
      { side: 'b', frame: 22 },
      { side: 'b', frame: 22 },
    ]);

    // Dragged with the mouse to 70 %.
    const grip = (await slider.boundingBox())!;
    const picture = (await videoA().boundingBox())!;
    const rect = await videoA().evaluate((element) => {
      const video = element as HTMLVideoElement;
      const scale = Math.min(video.clientWidth / video.videoWidth, video.clientHeight / video.videoHeight);
      return { w: video.videoWidth * scale, x: (video.clientWidth - video.videoWidth * scale) / 2 };
    });
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(picture.x + rect.x + 0.7 * rect.w, grip.y + grip.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('70');
    await expectSeen(across(0.7), [{ side: 'a' }, { side: 'a' }, { side: 'b' }, { side: 'b' }]);

    // Top and bottom: A above the divider, B below.
    await controls().getByRole('button', { name: 'Top / bottom' }).click();
    await expectSeen(
      [
        ['A', 0.5, 0.65],
        ['A', 0.5, 0.75],
      ],
      [{ side: 'a' }, { side: 'b' }],
    );
    await screenshot(page, 'compare-wipe');
  });

  it('lays B over A at half opacity, and a difference is black where the two agree', async () => {
    await controls().getByLabel('B offset').fill('0');
    await mode('Overlay').click();
    await expect(controls().getByLabel('B opacity').inputValue()).resolves.toBe('50');
    await expectSeen([['A', 0.5, 0.5]], [{ side: 'mix', frame: 19 }]);

    await mode('Difference').click();
    // A grey against the same grey tinted: only the tint is left (red, no blue).
    const [tint] = await look([['A', 0.5, 0.5]]);
    expect(tint!.rgb[0]).toBeGreaterThan(40);
    expect(tint!.rgb[2]).toBeLessThan(8);

    // A clip against itself: black everywhere.
    await page.getByRole('button', { name: 'Change B…' }).click();
    await page
      .getByRole('region', { name: 'Compare with' })
      .getByRole('button', { name: 'Compare with v002 · Main take again' })
      .click();
    await page.getByLabel('Video B: v002 · Main take again').waitFor();
    await expect(mode('Difference').getAttribute('aria-pressed')).resolves.toBe('true');
    const everywhere: Spot[] = [0.1, 0.5, 0.9].flatMap((fx) => [0.2, 0.8].map((fy) => ['A', fx, fy] as Spot));
    await expectSeen(
      everywhere,
      everywhere.map(() => ({ side: 'black' as const })),
    );
    for (const spot of await look(everywhere)) expect(Math.max(...spot.rgb)).toBeLessThan(8);
    // Five frames apart, it is not.
    await controls().getByLabel('B offset').fill('5');
    await page.waitForFunction(
      () => document.querySelector('video[aria-label^="Video B"]')?.getAttribute('data-frame') === '24',
    );
    await expectSeen([['A', 0.5, 0.5]], [{ side: 'a' }]);
    await controls().getByLabel('B offset').fill('0');
    await screenshot(page, 'compare-difference');
  });

  it('switches A and B with T and the button, with no black frame between and no reload', async () => {
    await page.getByRole('button', { name: 'Change B…' }).click();
    await page
      .getByRole('region', { name: 'Compare with' })
      .getByRole('button', { name: 'Compare with v001 · Older take' })
      .click();
    await page.getByLabel('Video B: v001 · Older take').waitFor();
    await mode('A/B').click();
    await seek(FIRST + 15);
    await expectSeen([['A', 0.5, 0.5]], [{ side: 'a', frame: 15 }]);

    // Every animation frame, the picture on top at the centre (hidden ones are not hit), read as it is drawn.
    await page.evaluate(() => {
      const w = window as unknown as { samples: string[]; sampling: boolean; loads: number };
      w.samples = [];
      w.sampling = true;
      w.loads = 0;
      for (const video of document.querySelectorAll('.pwr-picture-box video'))
        for (const name of ['loadstart', 'emptied']) video.addEventListener(name, () => w.loads++);
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      const a = document.querySelector<HTMLVideoElement>('video[aria-label^="Video: "]')!;
      const tick = () => {
        const r = a.getBoundingClientRect();
        const top = document
          .elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2)
          .find((element): element is HTMLVideoElement => element instanceof HTMLVideoElement);
        context.clearRect(0, 0, 1, 1);
        if (top && top.readyState >= 2)
          context.drawImage(top, top.videoWidth / 2, top.videoHeight / 2, 1, 1, 0, 0, 1, 1);
        const [red, green, blue] = context.getImageData(0, 0, 1, 1).data;
        w.samples.push(`${top === a ? 'A' : top ? 'B' : '-'}:${red},${green},${blue}`);
        if (w.sampling) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const frames = (count: number) =>
      page.waitForFunction(
        (count) => (window as unknown as { samples: string[] }).samples.length >= count,
        count,
      );
    await frames(6);
    await page.keyboard.press('t');
    await frames(20);
    await expectSeen([['A', 0.5, 0.5]], [{ side: 'b', frame: 15 }]);
    await controls()
      .getByRole('button', { name: /^Showing B · show A/ })
      .click();
    await frames(
      (await page.evaluate(() => (window as unknown as { samples: string[] }).samples.length)) + 14,
    );
    await expectSeen([['A', 0.5, 0.5]], [{ side: 'a', frame: 15 }]);
    const { samples, loads } = await page.evaluate(() => {
      const w = window as unknown as { samples: string[]; sampling: boolean; loads: number };
      w.sampling = false;
      return { samples: w.samples, loads: w.loads };
    });
    expect(loads).toBe(0);
    const runs = samples.map((sample) => {
      const [on, rgb] = sample.split(':');
      return { on, ...seen(rgb!.split(',').map(Number)) };
    });
    // A, then B, then A again; every sample a whole picture of frame 15 from the side on top, never black.
    const order = runs.map((run) => run.on).filter((on, i, all) => on !== all[i - 1]);
    expect(order).toEqual(['A', 'B', 'A']);
    for (const run of runs)
      expect({ on: run.on, colour: run.side, frame: run.frame }).toEqual({
        on: run.on,
        colour: run.on === 'A' ? 'a' : 'b',
        frame: 15,
      });
  });

  it('keeps the comparison in the address: a reload reopens mode, wipe, offset and sound', async () => {
    await mode('Wipe').click();
    await controls().getByRole('button', { name: 'Left | right' }).click();
    await divider().focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
    await controls().getByLabel('B offset').fill('3');
    await controls().getByLabel('Sound from').selectOption('b');
    await page.waitForFunction(() => {
      const p = new URL(location.href).searchParams;
      return (
        p.get('mode') === 'wipe' &&
        p.get('wipe') === '0.3' &&
        p.get('offset') === '3' &&
        p.get('audio') === 'b'
      );
    });
    const address = page.url();
    await page.reload();
    await page.getByLabel('Video B: v001 · Older take').waitFor();
    expect(page.url()).toBe(address);
    await expect(mode('Wipe').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(divider().getAttribute('aria-valuenow')).resolves.toBe('30');
    await expect(controls().getByLabel('B offset').inputValue()).resolves.toBe('3');
    await expect(controls().getByLabel('Sound from').inputValue()).resolves.toBe('b');
    await expectSeen(
      [
        ['A', 0.25, 0.5],
        ['A', 0.35, 0.5],
      ],
      [
        { side: 'a', frame: 0 },
        { side: 'b', frame: 3 },
      ],
    );
    // Only B is heard.
    await expect(
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLVideoElement>('.pwr-picture-box video')].map((v) => v.muted),
      ),
    ).resolves.toEqual([true, false]);

    // Leaving the comparison takes it out of the address, and A is heard again.
    await page.getByRole('button', { name: 'Leave compare' }).click();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('compare'));
    expect(Object.keys(params()).filter((name) => COMPARE_PARAMS.includes(name))).toEqual([]);
    expect(params().version).toBe(ids.v2);
    expect(await page.locator('.pwr-picture-box video').count()).toBe(1);
    await expect(videoA().evaluate((v) => (v as HTMLVideoElement).muted)).resolves.toBe(false);
  });

  it('had no page errors and asked for nothing outside the server', () => {
    expect(session.pageErrors).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
  });
});
