import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, startWebApp } from './browser';
import { countedClip, pictureIndex } from './frames';
import { seedReview } from './seed-review';

// A synced review with three people in three browsers: the driver plays, pauses and steps, and the others follow.
// One of them has 150 ms of added round-trip latency on every request (75 ms each way, as a network adds it); the
// third joins while the clip plays. The clip carries its frame index as a grey level (2 levels a frame), so each
// browser's picture says which frame it shows; during playback each player's position is sampled against the
// machine's one clock, so the drift between them is measured, not inferred.

const FPS = 24;
const FIRST = 1001;
const LEVELS = 2;
/** The clip's length in seconds, and where the drift stops counting: its last frames. */
const SECONDS = 4.5;
const END = SECONDS - 3 / FPS;
const PEOPLE = [
  { name: 'admin', password: 'a strong password' },
  { name: 'rita', password: 'a strong password' },
  { name: 'leo', password: 'a strong password' },
];

let core: TestCore;
let base: string;
let media: string;
let url: string;
let annotations: string;
let api: (method: string, path: string, body?: unknown) => ReturnType<TestCore['request']>;
const browsers: BrowserSession[] = [];
const pages: Page[] = [];

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'review-session-'));
  const clip = join(media, 'counted.mp4');
  const made = countedClip(clip, { rate: String(FPS), seconds: SECONDS, levels: LEVELS, gop: 12 });
  made.catch(() => undefined);
  let token: string;
  ({ core, base, token } = await startWebApp({
    addons: [
      ...['graphql', 'websocket', 'files', 'thumbnails', 'activities', 'reviewables', 'annotations'],
      ...['lists', 'review-sessions'],
    ],
    screens: ['reviewables'],
    admin: PEOPLE[0]!,
  }));
  await made;
  const seeded = await seedReview(core, token, { clip, first: FIRST, list: true, people: PEOPLE.slice(1) });
  annotations = seeded.annotations;
  // A second take of the same clip, for the comparison the driver shares.
  const copy = await core.request(
    'POST',
    `/api/projects/demo/versions/${seeded.version}/reviewables?label=Copy`,
    {
      token,
      body: await readFile(clip),
      headers: { 'content-type': 'video/mp4', 'x-file-name': 'copy.mp4' },
    },
  );
  expect(copy.status).toBeLessThan(300);
  api = (method, path, body) => core.request(method, path, { token, body });
  url = `${base}/addon/reviewables/reviewables_screens?project=demo&version=${seeded.version}&list=${seeded.list}&session=1`;
}, 120_000);

afterAll(async () => {
  for (const session of browsers.slice(1)) await session.browser.close();
  await closeAll(browsers[0], core);
  if (media) await rm(media, { recursive: true, force: true });
});

/** A person's browser on the list's review, not yet in its synced review, with the player's first picture. */
async function openAs(person: (typeof PEOPLE)[number], latency = 0) {
  const session = await openBrowser(base);
  browsers.push(session);
  if (latency)
    await session.page.context().route(`${base}/api/**`, async (route) => {
      // A request the page gives up on meanwhile (a video seeking elsewhere) has nothing left to answer.
      try {
        await new Promise((wait) => setTimeout(wait, latency / 2));
        const response = await route.fetch();
        await new Promise((wait) => setTimeout(wait, latency / 2));
        await route.fulfill({ response });
      } catch {
        await route.abort().catch(() => undefined);
      }
    });
  await logIn(session.page, url.replace('&session=1', ''), person);
  await session.page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
  pages.push(session.page);
  return session.page;
}

/** Take part: the "Review together" button, then the session's bar says who drives. */
async function joinFrom(page: Page) {
  await page.getByRole('button', { name: 'Review together' }).click();
  await page
    .getByRole('region', { name: 'Synced review' })
    .getByRole('status', { name: 'Who drives' })
    .waitFor();
}

/** Where each page's video is, sampled every 50 ms against the machine's clock: [ms since the epoch, seconds]. */
const startSampling = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { samples: [number, number][] };
    w.samples = [];
    setInterval(() => w.samples.push([Date.now(), document.querySelector('video')!.currentTime]), 50);
  });
const samplesOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { samples: [number, number][] }).samples);

/** The driver's position at a moment, from its samples (it plays at normal speed between them). */
function positionAt(samples: [number, number][], at: number): number | null {
  const before = samples.filter(([t]) => t <= at).at(-1);
  const after = samples.find(([t]) => t >= at);
  if (!before || !after) return null;
  return after[0] === before[0]
    ? before[1]
    : before[1] + ((after[1] - before[1]) * (at - before[0])) / (after[0] - before[0]);
}

/** The largest drift in frames of a follower from the driver over the samples taken after `from`. */
function drift(driver: [number, number][], follower: [number, number][], from: number): number {
  let worst = 0;
  for (const [at, seconds] of follower.filter(([t]) => t >= from)) {
    const lead = positionAt(driver, at);
    // Until the driver reaches the clip's end, where every player stops.
    if (lead !== null && lead < END) worst = Math.max(worst, Math.abs(seconds - lead) * FPS);
  }
  return worst;
}

describe('a synced review session', () => {
  it('keeps three players on one frame (paused exactly, playing within a frame, a late joiner within 1 s), its drawing and its comparison', async () => {
    const [driver, slow, late] = [
      await openAs(PEOPLE[0]!),
      await openAs(PEOPLE[1]!, 150),
      await openAs(PEOPLE[2]!),
    ];
    await joinFrom(driver);
    await driver.getByRole('status', { name: 'Who drives' }).filter({ hasText: 'You drive' }).waitFor();
    await joinFrom(slow);
    await slow.getByRole('status', { name: 'Who drives' }).filter({ hasText: 'admin drives' }).waitFor();

    // Paused: the driver steps to frame 1009; the follower shows exactly that picture.
    await driver.getByRole('region', { name: /^Stage/ }).focus();
    for (let i = 0; i < 8; i++) await driver.keyboard.press('ArrowRight');
    const shows = async (page: Page, index: number) => {
      for (const end = Date.now() + 5000; (await pictureIndex(page, LEVELS)) !== index && Date.now() < end;)
        await page.waitForTimeout(50);
      return pictureIndex(page, LEVELS);
    };
    expect(await shows(driver, 8)).toBe(8);
    expect(await shows(slow, 8)).toBe(8);

    // Playing from the first frame: the players sampled against one clock; a second after play, within a frame.
    await driver.keyboard.press('Home');
    expect(await shows(slow, 0)).toBe(0);
    for (const page of [driver, slow, late]) await startSampling(page);
    const played = Date.now();
    await driver.keyboard.press('Space');
    await driver.waitForTimeout(1000);
    // The third joins while it plays: within a frame of the driver within 1 s of asking to.
    const joining = Date.now();
    await joinFrom(late);
    await driver.waitForTimeout(1200);
    const [byDriver, bySlow, byLate] = await Promise.all([driver, slow, late].map(samplesOf));
    const slowDrift = drift(byDriver!, bySlow!, played + 1000);
    const lateDrift = drift(byDriver!, byLate!, joining + 1000);
    expect(slowDrift).toBeLessThanOrEqual(1);
    expect(lateDrift).toBeLessThanOrEqual(1);
    // The measure covered playback: the driver was still playing at its end.
    expect(byDriver!.at(-1)![1]).toBeLessThan(END);

    // Paused again: the three show the same picture.
    await driver.keyboard.press('Space');
    await driver.waitForFunction(() => document.querySelector('video')!.paused);
    const at = await pictureIndex(driver, LEVELS);
    expect(at).toBeGreaterThan(20);
    for (const page of [slow, late]) expect(await shows(page, at)).toBe(at);

    // Frames the driver goes to, each with its own drawing: every player shows that picture and that drawing.
    const frames = [...new Set(Array.from({ length: 16 }, () => FIRST + Math.floor(Math.random() * 100)))];
    for (const frame of frames) {
      const shape = {
        kind: 'stroke',
        points: [
          [0, 0, 0.01],
          [0.1, 0.1, 0.01],
        ],
      };
      expect((await api('POST', annotations, { frame, color: '#ff0000', shape })).status).toBe(201);
    }
    for (const frame of frames) {
      await driver.getByLabel('Frame', { exact: true }).fill(String(frame));
      for (const page of [driver, slow, late]) {
        expect(await shows(page, frame - FIRST)).toBe(frame - FIRST);
        await page.locator(`svg[data-frame="${frame}"][data-count="1"]`).waitFor();
      }
    }

    // The driver hides the drawings for everyone, and shows them again; the others cannot.
    await driver.getByRole('button', { name: 'Hide drawings' }).click();
    for (const page of [slow, late]) {
      await page.locator('svg[data-frame]').waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: 'Show drawings' }).isDisabled()).toBe(true);
    }
    await driver.getByRole('button', { name: 'Show drawings' }).click();
    for (const page of [slow, late]) await page.locator('svg[data-frame]').waitFor();

    // The driver's comparison is everyone's.
    await driver.getByRole('button', { name: 'Compare…' }).click();
    await driver.getByRole('region', { name: 'Compare with' }).getByRole('button', { name: /Copy$/ }).click();
    await driver.getByRole('button', { name: 'Wipe', exact: true }).click();
    for (const page of [slow, late]) {
      await page.getByLabel(/^Video B: .*Copy$/).waitFor();
      await page.getByRole('button', { name: 'Wipe', exact: true, pressed: true }).waitFor();
    }
  }, 120_000);
});
