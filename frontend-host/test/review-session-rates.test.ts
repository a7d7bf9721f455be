import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, startWebApp } from './browser';
import { countedClip, framesOf, pictureIndex, randomFrames, until } from './frames';

// Frame-exact in a synced review, at every rate review media come in: a list holds a clip at 23.976, 24, 25, 29.97
// and 30 fps, each with a stroke kept on 40 random frames (200 in all). The driver opens each clip and goes to its
// frames by dragging or clicking the timeline, by stepping and through the API (the session's own seek); a reviewer
// who follows shows exactly that picture (read from its pixels) and exactly that frame's drawing, and reloads half
// way through each clip, rejoining where the session is.

const FIRST = 1001;
const LEVELS = 3;
const SECONDS = 2;
const RATES = ['24000/1001', '24', '25', '30000/1001', '30'];
const DRIVER = { name: 'admin', password: 'a strong password' };
const REVIEWER = { name: 'rita', password: 'a strong password' };

let core: TestCore;
let base: string;
let media: string;
let listId: string;
let api: (method: string, path: string, body?: unknown) => ReturnType<TestCore['request']>;
const clips: { rate: string; version: string; frames: number[] }[] = [];
const browsers: BrowserSession[] = [];

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'review-session-rates-'));
  const made = Promise.all(
    RATES.map((rate, i) =>
      countedClip(join(media, `counted-${i}.mp4`), { rate, seconds: SECONDS, levels: LEVELS, gop: 12 }),
    ),
  );
  made.catch(() => undefined);
  let token: string;
  ({ core, base, token } = await startWebApp({
    addons: [
      ...['graphql', 'websocket', 'files', 'thumbnails', 'activities', 'reviewables', 'annotations'],
      ...['lists', 'review-sessions'],
    ],
    screens: ['reviewables'],
    admin: DRIVER,
  }));
  api = (method, path, body) => core.request(method, path, { token, body });
  const user = await api('PUT', `/api/users/${REVIEWER.name}`, {
    password: REVIEWER.password,
    data: { isManager: true },
  });
  expect(user.status).toBe(204);
  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  const create = async (plural: string, body: unknown) => {
    const res = await api('POST', `/api/projects/demo/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const shot = await create('folders', { name: 'sh010', folderType: 'Shot', attrib: { frameStart: FIRST } });
  const product = await create('products', { name: 'comp', productType: 'render', folderId: shot });
  await made;
  for (const [i, rate] of RATES.entries()) {
    const version = await create('versions', { version: i + 1, productId: product });
    const upload = await core.request('POST', `/api/projects/demo/versions/${version}/reviewables`, {
      token,
      body: await readFile(join(media, `counted-${i}.mp4`)),
      headers: { 'content-type': 'video/mp4', 'x-file-name': `counted-${i}.mp4` },
    });
    expect(upload.status).toBeLessThan(300);
    const frames = randomFrames(40, 2000 + i, framesOf(rate, SECONDS), FIRST);
    const annotations = `/api/projects/demo/versions/${version}/reviewables/${upload.body.activityId}/annotations`;
    for (const frame of frames) {
      const shape = { kind: 'stroke', points: [[0, 0, 0.01] as const, [0.1, 0.1, 0.01] as const] };
      expect((await api('POST', annotations, { frame, color: '#ff0000', shape })).status).toBe(201);
    }
    clips.push({ rate, version, frames });
  }
  listId = await create('lists', {
    label: 'Dailies',
    entityListType: 'review-session',
    entityType: 'version',
    access: { __everyone__: 20 },
    items: clips.map(({ version }) => ({ entityId: version })),
  });
}, 120_000);

afterAll(async () => {
  for (const session of browsers.slice(1)) await session.browser.close();
  await closeAll(browsers[0], core);
  if (media) await rm(media, { recursive: true, force: true });
});

const reviewUrl = (version: string) =>
  `${base}/addon/reviewables/reviewables_screens?project=demo&version=${version}&list=${listId}`;

/** A person's browser in the list's synced review, with the player's first picture. */
async function joinAs(person: typeof DRIVER, version: string) {
  const session = await openBrowser(base);
  browsers.push(session);
  const { page } = session;
  await logIn(page, reviewUrl(version), person);
  await page.getByRole('button', { name: 'Review together' }).click();
  await page.getByRole('status', { name: 'Who drives' }).waitFor();
  return page;
}

/** The picture and the drawing both on `frame`: its grey level, and its one stroke. */
async function shows(page: Page, who: string, frame: number, drawn: boolean) {
  let index = await pictureIndex(page, LEVELS);
  for (const end = Date.now() + 10_000; index !== frame - FIRST && Date.now() < end;) {
    await page.waitForTimeout(50);
    index = await pictureIndex(page, LEVELS);
  }
  expect([who, frame, FIRST + index]).toEqual([who, frame, frame]);
  const layer = page.getByRole('img', { name: `Annotations of frame ${frame}` });
  await layer.waitFor();
  expect([who, frame, Number(await layer.getAttribute('data-count'))]).toEqual([who, frame, drawn ? 1 : 0]);
}

/** The frame the driver's readout names. */
const readout = async (page: Page) =>
  Number(/frame (\d+)/.exec((await page.getByLabel('Frame number').textContent()) ?? '')![1]);

/**
 * The driver goes to a frame: the timeline dragged to it, a click on the timeline near it and the arrow keys from
 * there, steps from two frames away, or the session's seek through the API.
 */
async function reach(driver: Page, frame: number, how: number, frames: number) {
  const timeline = driver.getByLabel('Frame', { exact: true });
  if (how === 0) await timeline.fill(String(frame));
  else if (how === 1) {
    // The slider's thumb travels its width less its own (about 16 px).
    const box = (await timeline.boundingBox())!;
    const x = box.x + 8 + ((frame - FIRST) / (frames - 1)) * (box.width - 16);
    await driver.mouse.click(x, box.y + box.height / 2);
    for (let at = await readout(driver), tries = 0; at !== frame && tries < 8; tries++) {
      await driver.keyboard.press(at < frame ? 'ArrowRight' : 'ArrowLeft');
      at = await readout(driver);
    }
  } else if (how === 2) {
    const from = frame - 2 >= FIRST ? frame - 2 : frame + 2;
    await timeline.fill(String(from));
    await until(() => readout(driver), from);
    await driver.getByRole('region', { name: /^Stage/ }).focus();
    for (let i = 0; i < 2; i++) await driver.keyboard.press(frame > from ? 'ArrowRight' : 'ArrowLeft');
  } else {
    const answer = await api('POST', `/api/projects/demo/lists/${listId}/session`, {
      command: 'seek',
      frame,
    });
    expect(answer.status).toBe(200);
    return;
  }
  await until(() => readout(driver), frame);
}

describe('a synced review at 23.976, 24, 25, 29.97 and 30 fps', () => {
  it('shows 200 random frames, each with exactly its drawing, in the driver and a reviewer who reloads', async () => {
    const driver = await joinAs(DRIVER, clips[0]!.version);
    const reviewer = await joinAs(REVIEWER, clips[0]!.version);
    await reviewer.getByRole('status', { name: 'Who drives' }).filter({ hasText: 'admin drives' }).waitFor();
    for (const [i, { version, frames, rate }] of clips.entries()) {
      if (i > 0) {
        // The driver opens the next clip of the list (a link to it, so its page loads again); the reviewer follows.
        await driver.goto(`${reviewUrl(version)}&session=1`);
        await driver.getByRole('status', { name: 'Who drives' }).filter({ hasText: 'You drive' }).waitFor();
        // A player that takes control first goes where the session is, and its moves count 400 ms later.
        await driver.waitForTimeout(500);
      }
      await until(() => reviewer.evaluate(() => new URL(location.href).searchParams.get('version')), version);
      const drawn = new Set(frames);
      for (const [n, frame] of frames.entries()) {
        // The API moves the session alone: the driver's own player stays where it is until it moves again.
        const how = n % 4;
        await reach(driver, frame, how, framesOf(rate, SECONDS));
        if (how !== 3) await shows(driver, `driver (way ${how})`, frame, drawn.has(frame));
        await shows(reviewer, `reviewer (way ${how}, ${rate} fps)`, frame, drawn.has(frame));
        if (n === 20) {
          await reviewer.reload();
          await reviewer.getByRole('status', { name: 'Who drives' }).waitFor();
          await shows(reviewer, 'reviewer after a reload', frame, true);
        }
      }
    }
  }, 240_000);
});
