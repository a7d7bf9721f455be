import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, startWebApp } from './browser';
import { until } from './frames';
import { seedReview, type SeededReview } from './seed-review';

// Pan and zoom in the review player. What is checked is where the picture is on screen: the video's box as the
// browser lays it out, panned and zoomed (getBoundingClientRect gives the transformed box), less the bars of its
// object-fit. A stroke drawn zoomed in and panned is read back through the API in picture space; in a synced review
// the follower's picture sits where the driver's does.

const PEOPLE = [
  { name: 'admin', password: 'a strong password' },
  { name: 'rita', password: 'a strong password' },
];

let core: TestCore;
let base: string;
let token: string;
let media: string;
let seeded: SeededReview;
let session: BrowserSession;
let page: Page;

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'pan-zoom-'));
  const clip = join(media, 'pattern.mp4');
  // Only where the picture is counts here, not which frame: ffmpeg's test pattern, 1 s, 320x180.
  const made = promisify(execFile)('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'testsrc=size=320x180:rate=24:duration=1'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip],
  ]);
  made.catch(() => undefined);
  ({ core, base, token } = await startWebApp({
    addons: [
      ...['graphql', 'websocket', 'files', 'thumbnails', 'activities'],
      ...['reviewables', 'annotations', 'lists', 'review-sessions'],
    ],
    screens: ['reviewables'],
    admin: PEOPLE[0]!,
  }));
  await made;
  seeded = await seedReview(core, token, { clip, list: true, people: PEOPLE.slice(1) });
  session = await openBrowser(base);
  page = session.page;
  await openReview(page, PEOPLE[0]!);
}, 60_000);

afterAll(async () => {
  await closeAll(session, core);
  if (media) await rm(media, { recursive: true, force: true });
});

const reviewUrl = () =>
  `${base}/addon/reviewables/reviewables_screens?project=demo&version=${seeded.version}&list=${seeded.list}`;

async function openReview(on: Page, person: (typeof PEOPLE)[number]) {
  await logIn(on, reviewUrl(), person);
  await on.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
  await on.getByRole('img', { name: /^Annotations of frame/ }).waitFor();
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The picture on screen, its viewport (the frame it is shown in, the video's box unzoomed), its width there when
 * fitted, and the drawing layer's box. */
const shown = (on: Page) =>
  on.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('video[aria-label^="Video: "]')!;
    const [vw, vh] = [video.videoWidth, video.videoHeight];
    const box = video.getBoundingClientRect();
    const scale = Math.min(box.width / vw, box.height / vh);
    const rect = (r: DOMRect) => ({ x: r.left, y: r.top, w: r.width, h: r.height });
    const port = rect(video.parentElement!.getBoundingClientRect());
    return {
      picture: {
        x: box.left + (box.width - vw * scale) / 2,
        y: box.top + (box.height - vh * scale) / 2,
        w: vw * scale,
        h: vh * scale,
      },
      port,
      fit: Math.min(port.w / vw, port.h / vh) * vw,
      layer: rect(document.querySelector('svg[data-frame]')!.getBoundingClientRect()),
    };
  });
type Shown = Awaited<ReturnType<typeof shown>>;

/** The view as the viewport shows it: the picture's zoom from fitted, and its centre from the port's (sdk's view). */
const viewOf = ({ picture, port, fit }: Shown) => ({
  zoom: picture.w / fit,
  x: (picture.x + picture.w / 2 - (port.x + port.w / 2)) / picture.w,
  y: (picture.y + picture.h / 2 - (port.y + port.h / 2)) / picture.h,
});
type View = ReturnType<typeof viewOf>;
const nearView = (seen: View, want: View) =>
  Math.abs(seen.zoom - want.zoom) < 0.01 &&
  Math.abs(seen.x - want.x) < 0.003 &&
  Math.abs(seen.y - want.y) < 0.003;

/** Read a view until it is near `want` (for 3 s at most); fail saying what it was. */
async function expectView(read: () => Promise<View>, want: View, what: string) {
  let seen = await read();
  for (const end = Date.now() + 3000; Date.now() < end && !nearView(seen, want); seen = await read())
    await new Promise((wait) => setTimeout(wait, 50));
  if (!nearView(seen, want)) throw new Error(`${what}: ${JSON.stringify(seen)}, not ${JSON.stringify(want)}`);
}

/** Wait until the picture has moved from `before`, and answer where it is now. */
async function moved(on: Page, before: Rect) {
  const same = (a: Rect) =>
    Math.abs(a.x - before.x) + Math.abs(a.w - before.w) + Math.abs(a.y - before.y) < 0.5;
  for (const end = Date.now() + 3000; Date.now() < end; await on.waitForTimeout(30)) {
    const now = await shown(on);
    if (!same(now.picture)) return now;
  }
  throw new Error('the picture did not move');
}

const zoomLevel = (on: Page) =>
  on.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: /^Zoom \d+ %/ });

/** A drag from a point of the screen by dx, dy, with a button. */
async function drag(on: Page, [x, y]: [number, number], dx: number, dy: number, button: 'left' | 'middle') {
  await on.mouse.move(x, y);
  await on.mouse.down({ button });
  await on.mouse.move(x + dx, y + dy, { steps: 6 });
  await on.mouse.up({ button });
}

const near = (value: number, expected: number, within: number) =>
  expect(Math.abs(value - expected)).toBeLessThanOrEqual(within);

describe('pan and zoom in the review player', () => {
  let fitted: Rect;

  it('zooms by keys and the wheel about the pointer, and pans by a middle or Space drag', async () => {
    await page.getByRole('region', { name: /^Stage/ }).focus();
    ({ picture: fitted } = await shown(page));
    const fitLevel = Number(/\d+/.exec((await zoomLevel(page).textContent())!)![0]);

    await page.keyboard.press('+');
    const twice = await moved(page, fitted);
    near(twice.picture.w, fitted.w * 2, 1);
    near(twice.picture.x + twice.picture.w / 2, fitted.x + fitted.w / 2, 1);
    await zoomLevel(page)
      .filter({ hasText: `${fitLevel * 2} %` })
      .waitFor();
    // 1 is 100 %: one picture pixel a screen pixel (the clip is 320 wide).
    await page.keyboard.press('1');
    const actual = await moved(page, twice.picture);
    near(actual.picture.w, 320, 1);
    await zoomLevel(page)
      .filter({ hasText: /^100 %$/ })
      .waitFor();
    await page.keyboard.press('0');
    near((await moved(page, actual.picture)).picture.w, fitted.w, 0.5);

    // The wheel zooms about the pointer: the picture's point under it stays there.
    const at: [number, number] = [fitted.x + fitted.w * 0.25, fitted.y + fitted.h * 0.3];
    await page.mouse.move(...at);
    await page.mouse.wheel(0, -100);
    const wheeled = await moved(page, fitted);
    expect(wheeled.picture.w / fitted.w).toBeGreaterThan(1.1);
    near((at[0] - wheeled.picture.x) / wheeled.picture.w, 0.25, 0.003);
    near((at[1] - wheeled.picture.y) / wheeled.picture.h, 0.3, 0.003);

    // A middle drag pans by as much as the pointer moved; so does a drag with Space held, which plays nothing.
    await page.keyboard.press('+');
    const zoomed = await moved(page, wheeled.picture);
    await drag(page, [zoomed.port.x + 300, zoomed.port.y + 200], -60, -40, 'middle');
    const panned = await moved(page, zoomed.picture);
    near(panned.picture.x - zoomed.picture.x, -60, 0.5);
    near(panned.picture.y - zoomed.picture.y, -40, 0.5);
    await page.keyboard.down('Space');
    await drag(page, [panned.port.x + 300, panned.port.y + 200], 30, 20, 'left');
    await page.keyboard.up('Space');
    const spaced = await moved(page, panned.picture);
    near(spaced.picture.x - panned.picture.x, 30, 0.5);
    expect(await page.locator('video').evaluate((video) => (video as HTMLVideoElement).paused)).toBe(true);
  });

  it('draws where the pointer is on the picture while zoomed in and panned, and it stays there once fitted', async () => {
    const before = await shown(page);
    // The drawing layer covers exactly the picture, zoomed and panned with it.
    for (const side of ['x', 'y', 'w', 'h'] as const) near(before.layer[side], before.picture[side], 0.5);
    await page.getByRole('button', { name: 'Pen', exact: true }).click();
    const { picture } = before;
    const from: [number, number] = [before.port.x + 200, before.port.y + 150];
    await drag(page, from, 80, 30, 'left');
    await page.locator('svg[data-count="1"]').waitFor();
    // The page shows the stroke at once; the server has it once the page's request is answered.
    const stored = async () => (await core.request('GET', seeded.annotations, { token })).body.annotations;
    await until(async () => (await stored()).length, 1);
    const [{ shape }] = await stored();
    const points = shape.points as number[][];
    // Picture space: x from the centre in picture heights, y up from the centre (sdk toPicture).
    const inPicture = ([x, y]: [number, number]) => [
      ((x - picture.x) / picture.w - 0.5) * (picture.w / picture.h),
      0.5 - (y - picture.y) / picture.h,
    ];
    const [fx, fy] = inPicture(from);
    near(points[0]![0]!, fx!, 0.004);
    near(points[0]![1]!, fy!, 0.004);
    const [tx, ty] = inPicture([from[0] + 80, from[1] + 30]);
    near(points.at(-1)![0]!, tx!, 0.004);
    near(points.at(-1)![1]!, ty!, 0.004);

    // Fitted again (F), the stroke starts at the same place of the picture.
    await page.keyboard.press('f');
    const fit = await moved(page, picture);
    near(fit.picture.w, fitted.w, 0.5);
    const start = await page
      .locator('svg[data-count="1"] line')
      .first()
      .evaluate((line) => {
        const svg = (line as SVGLineElement).ownerSVGElement!;
        const box = svg.getBoundingClientRect();
        const scale = box.width / svg.width.baseVal.value;
        return [
          box.left + Number(line.getAttribute('x1')) * scale,
          box.top + Number(line.getAttribute('y1')) * scale,
        ];
      });
    const fraction = (from[0] - picture.x) / picture.w;
    near(start[0]!, fit.picture.x + fraction * fit.picture.w, 1);
    near(start[1]!, fit.picture.y + ((from[1] - picture.y) / picture.h) * fit.picture.h, 1);
    await page.getByRole('button', { name: 'View', exact: true }).click();
  });

  it("shares the driver's view in a synced review, which a follower cannot change", async () => {
    const sessionUrl = `/api/projects/demo/lists/${seeded.list}/session`;
    const shared = async () => (await core.request('GET', sessionUrl, { token })).body.view;
    const joinFrom = async (on: Page) => {
      await on.getByRole('button', { name: 'Review together' }).click();
      await on.getByRole('status', { name: 'Who drives' }).waitFor();
    };
    await joinFrom(page);
    await page.getByRole('status', { name: 'Who drives' }).filter({ hasText: 'You drive' }).waitFor();
    // The driver zooms and pans; what goes to the session is throttled, and its last view always arrives.
    const sent: string[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (request.url().endsWith('/session') && body.includes('"view"')) sent.push(body);
    });
    await page.getByRole('region', { name: /^Stage/ }).focus();
    const fitted = await shown(page);
    await page.keyboard.press('+');
    const zoomed = await moved(page, fitted.picture);
    const dragStarted = Date.now();
    await drag(page, [zoomed.port.x + 300, zoomed.port.y + 200], -90, -50, 'middle');
    const dragMs = Date.now() - dragStarted;
    const driven = viewOf(await moved(page, zoomed.picture));
    await expectView(shared, driven, "the session's view");
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(dragMs / 100) + 3);

    // A follower who joins now opens at the driver's view, and follows it as it changes.
    const context = await session.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const follower = await context.newPage();
    const follows = (want: View) =>
      expectView(async () => viewOf(await shown(follower)), want, 'the follower');
    try {
      await openReview(follower, PEOPLE[1]!);
      await joinFrom(follower);
      await follows(driven);
      const before = await shown(page);
      await drag(page, [before.port.x + 300, before.port.y + 200], 50, 0, 'middle');
      const again = viewOf(await moved(page, before.picture));
      await follows(again);

      // The follower's keys, wheel and drags change nothing, here or in the session; its buttons are off.
      const settled = await shared();
      await follower.getByRole('region', { name: /^Stage/ }).focus();
      await follower.keyboard.press('+');
      const { port } = await shown(follower);
      await follower.mouse.move(port.x + 200, port.y + 100);
      await follower.mouse.wheel(0, -200);
      await drag(follower, [port.x + 200, port.y + 100], 40, 40, 'middle');
      expect(await follower.getByRole('button', { name: 'Zoom in' }).isDisabled()).toBe(true);
      await follower.waitForTimeout(300);
      expect(await shared()).toEqual(settled);
      await follows(again);
    } finally {
      await context.close();
    }
  });
});
