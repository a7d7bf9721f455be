import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, screenshot, startWebApp } from './browser';
import { countedClip, showsFrame, until } from './frames';

// The review player keeps the habits of review tools (RV, Kitsu, AYON): it opens on the first frame, numbers frames
// in the shot's frame numbers (a clip rendered with its handles starts at 999 for a cut from 1001) with the
// handles marked, Space plays and pauses, the arrows, Home and End
// move the picture, a click on the picture does not start it, the version's status changes from the review, and a
// version with reviewables but no representations (or the other way round) says what each is.

const ADMIN = { name: 'admin', password: 'a strong password' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
let media: string;
const ids: Record<string, string> = {};

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'player-e2e-'));
  // 2 s at 24 fps of grey whose level tells the frame (luma 16 + 4 per frame): the picture says which frame it is.
  const made = countedClip(join(media, 'counted.mp4'), {
    rate: '24',
    seconds: 2,
    levels: 4,
    size: '160x120',
  });
  made.catch(() => undefined);
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'websocket', 'files', 'thumbnails', 'activities', 'reviewables'],
    screens: ['reviewables'],
    admin: ADMIN,
  }));
  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/demo/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const sequence = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  // The cut is 1001-1044 with two handle frames at each end: the 48-frame clip holds 999-1046, as AYON renders it.
  ids.shot = await create('folders', {
    name: 'sh010',
    folderType: 'Shot',
    parentId: sequence,
    attrib: { frameStart: 1001, frameEnd: 1044, handleStart: 2, handleEnd: 2 },
  });
  ids.product = await create('products', { name: 'renderMain', productType: 'render', folderId: ids.shot });
  ids.v1 = await create('versions', { version: 1, productId: ids.product });
  ids.v2 = await create('versions', { version: 2, productId: ids.product });
  // v002 was published (an EXR representation) but nothing was uploaded for review.
  await create('representations', { name: 'exr', versionId: ids.v2 });
  await made;
  const upload = await core.request('POST', `/api/projects/demo/versions/${ids.v1}/reviewables`, {
    token,
    body: await readFile(join(media, 'counted.mp4')),
    headers: { 'content-type': 'video/mp4', 'x-file-name': 'counted.mp4' },
  });
  expect(upload.status).toBeLessThan(300);

  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/addon/reviewables/reviewables_screens?project=demo&version=${ids.v1}`, ADMIN);
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
  if (media) await rm(media, { recursive: true, force: true });
});

const video = () => page.getByLabel('Video: counted.mp4');
const readout = () => page.getByLabel('Frame number');
const paused = () => video().evaluate((element) => (element as HTMLVideoElement).paused);

/** Wait until the readout names this frame and the picture shows it (the clip's first frame is 999). */
const shows = (frame: number) => showsFrame(page, frame, frame - 999, 4);

describe('the review player', () => {
  it('opens on the first frame, numbered from the shot’s frameStart, with the handles marked', async () => {
    await video().waitFor();
    await shows(999);
    await expect(readout().textContent()).resolves.toContain('handle');
    await expect(page.getByLabel('Frame range').textContent()).resolves.toMatch(
      /999[–-]1046.*handles 2 \+ 2/,
    );
    expect(await paused()).toBe(true);
    await screenshot(page, 'player-habits');
  });

  it('steps with the arrows and jumps with Home and End, counting in the shot’s frames', async () => {
    await page.getByRole('region', { name: /^Stage/ }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await shows(1001);
    // Past the head handles: a frame of the cut, not marked.
    expect(await readout().textContent()).not.toContain('handle');
    await page.keyboard.press('End');
    await shows(1046);
    await expect(readout().textContent()).resolves.toContain('handle');
    await page.keyboard.press('Home');
    await shows(999);
  });

  it('plays and pauses with Space; a click on the picture does not start it', async () => {
    await video().click();
    await page.waitForTimeout(400);
    expect(await paused()).toBe(true);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.2);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('video')?.paused === true);
    // Space after using the play button still plays and pauses, as in every review tool.
    await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Play' }).click();
    await page.keyboard.press('Space');
    await page.waitForTimeout(300);
    expect(await paused()).toBe(true);
  });

  it('shuttles with J, K and L, and leaves keys typed in a field alone', async () => {
    const playback = page.getByRole('group', { name: 'Playback' });
    await page.getByRole('region', { name: /^Stage/ }).focus();
    await page.keyboard.press('Home');
    await shows(999);
    await page.keyboard.press('l');
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.1);
    // L again: faster.
    await page.keyboard.press('l');
    await playback.getByText('×2').waitFor();
    await page.keyboard.press('k');
    await page.waitForFunction(() => document.querySelector('video')?.paused === true);
    // The speed shown follows the video's ratechange event, which arrives a task after the pause.
    await playback.getByText('×2').waitFor({ state: 'detached' });
    await page.keyboard.press('End');
    await shows(1046);
    // J: a frame back (browsers cannot play backwards).
    await page.keyboard.press('j');
    await shows(1045);

    await page.getByRole('button', { name: 'Rename counted.mp4' }).click();
    const field = page.getByRole('list', { name: 'Reviewables' }).getByLabel('Label');
    await field.press('End');
    await field.pressSequentially(' jkl');
    await field.press('ArrowLeft');
    await field.press('Home');
    await expect(field.inputValue()).resolves.toBe('counted.mp4 jkl');
    await field.press('Escape');
    expect(await paused()).toBe(true);
    await expect(readout().textContent()).resolves.toMatch(/frame 1045\b/);
  });

  it('changes the version’s status from the review, kept after a reload', async () => {
    const status = page.getByRole('combobox', { name: 'Version status' });
    await status.selectOption('Approved');
    await until(
      async () => (await api('GET', `/api/projects/demo/versions/${ids.v1}`)).body.status,
      'Approved',
    );
    await page.reload();
    await video().waitFor();
    await expect(
      page.getByRole('combobox', { name: 'Version status' }).locator('option:checked').textContent(),
    ).resolves.toBe('Approved');
  });

  it('explains reviewables and representations where one of them is missing', async () => {
    await page
      .getByRole('note')
      .filter({ hasText: 'v001 has no representations' })
      .filter({ hasText: 'published files' })
      .waitFor();
    await page.goto(`${base}/addon/reviewables/reviewables_screens?project=demo&version=${ids.v2}`);
    await page
      .getByRole('note')
      .filter({ hasText: 'v002 has a representation (exr) but no reviewable' })
      .filter({ hasText: 'upload a video or an image' })
      .waitFor();
  });

  it('had no page errors and asked for nothing outside the server', () => {
    expect(session.pageErrors).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
  });
});
