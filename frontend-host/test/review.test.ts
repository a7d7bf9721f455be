import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';
import { filesRef } from '@pipewright/plugin-files/api';
import { until } from './frames';

// The review screen in the built app against a real server: a supervisor opens a version of a shot, uploads an
// H.264 clip and a PNG through the screen, plays the clip and steps it frame by frame, puts the two in another
// order and renames one (both kept after a reload), and sees a ProRes upload explained with a still frame.

const ADMIN = { name: 'admin', password: 'a strong password' };
const VIEWER = { name: 'vic', password: 'another strong one' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
let media: string;
const ids: Record<string, string> = {};
/** How long the main steps took in the browser, printed at the end for the report. */
const timings: Record<string, number> = {};

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });
const run = promisify(execFile);

/** Test media made with Debian's ffmpeg: a 2 s H.264 MP4, the same as ProRes in a .mov, a PNG, a text file. */
async function makeMedia(dir: string) {
  const ffmpeg = (...args: string[]) =>
    run('/usr/bin/ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', ...args]);
  const clip = ['-i', 'testsrc=duration=2:size=320x240:rate=24'];
  await ffmpeg(...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', join(dir, 'shot.mp4'));
  await ffmpeg(...clip, '-c:v', 'prores', join(dir, 'master.mov'));
  await ffmpeg('-i', 'testsrc=size=640x360', '-frames:v', '1', join(dir, 'layout.png'));
  await writeFile(join(dir, 'notes.txt'), 'not a picture\n');
}

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[name] = Math.round(performance.now() - started);
  }
}

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'review-e2e-'));
  // Made while the server starts; a failure surfaces where it is awaited.
  const made = makeMedia(media);
  made.catch(() => undefined);
  ({ core, base, token } = await startWebApp({
    // What review needs on top: files with stills and thumbnails, the version's feed, the reviewables.
    addons: ['graphql', 'websocket', 'files', 'thumbnails', 'activities', 'reviewables'],
    screens: ['reviewables', 'activities'],
    admin: ADMIN,
  }));
  // A reviewer who reads everything and may publish nowhere: the screen offers them less, the server refuses the rest.
  expect(
    (await api('PUT', '/api/accessGroups/viewer/_', { publish: { enabled: true, access_list: [] } })).status,
  ).toBeLessThan(300);
  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  expect(
    (
      await api('PUT', `/api/users/${VIEWER.name}`, {
        password: VIEWER.password,
        data: { accessGroups: { demo: ['viewer'] } },
      })
    ).status,
  ).toBe(204);
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/demo/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  ids.sequence = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  ids.shot = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.sequence });
  // A folder without versions below it: the browser leaves it out.
  await create('folders', { name: 'sq020', folderType: 'Sequence' });
  ids.product = await create('products', { name: 'renderMain', productType: 'render', folderId: ids.shot });
  ids.v1 = await create('versions', { version: 1, productId: ids.product });
  ids.v2 = await create('versions', { version: 2, productId: ids.product });
  ids.hero = await create('versions', { version: -2, productId: ids.product });
  await made;
  session = await openBrowser(base);
  page = session.page;
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
  if (media) await rm(media, { recursive: true, force: true });
  if (Object.keys(timings).length) console.log('review timings (ms):', timings);
});

const strip = () => page.getByRole('list', { name: 'Reviewables' });
const card = (label: string) => strip().locator(`li[data-label="${label}"]`);
const cardLabels = () =>
  strip()
    .locator('li')
    .evaluateAll((items) => items.map((li) => li.dataset.label));
const stage = () => page.locator('.pwr-stage');
const upload = () => page.getByRole('region', { name: /^Upload to / });
const timecode = () => page.getByLabel('Timecode');

/**
 * Drop a file from "the desktop" on the review area: a DataTransfer holding the file, as the browser builds one for
 * a drag from the file manager.
 */
async function dropOnReview(file: string, type: string) {
  const bytes = (await readFile(join(media, file))).toString('base64');
  const transfer = await page.evaluateHandle(
    ({ bytes, name, type }) => {
      const data = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
      const dropped = new DataTransfer();
      dropped.items.add(new File([data], name, { type }));
      return dropped;
    },
    { bytes, name: file, type },
  );
  const area = page.locator('.pwr-main');
  await area.dispatchEvent('dragenter', { dataTransfer: transfer });
  await area.dispatchEvent('dragover', { dataTransfer: transfer });
  await page.getByText(/^Drop to add it to v001$/).waitFor();
  await area.dispatchEvent('drop', { dataTransfer: transfer });
  await transfer.dispose();
}

/** Choose (or drop) a file for the upload bar, give it a label, send it, and wait for its card. */
async function uploadThroughScreen(
  file: string,
  label: string | null,
  cardLabel: string,
  dropAs?: string,
): Promise<Locator> {
  if (dropAs) await dropOnReview(file, dropAs);
  else await upload().getByLabel('Video or image file').setInputFiles(join(media, file));
  await upload().getByTitle(file, { exact: true }).waitFor();
  if (label) await upload().getByLabel('Label').fill(label);
  await upload()
    .getByRole('button', { name: /^Upload to / })
    .click();
  await card(cardLabel).waitFor();
  return card(cardLabel);
}

/** The server's order of v001's reviewables, by label or file name. */
async function storedOrder(): Promise<string[]> {
  const res = await api('GET', `/api/projects/demo/versions/${ids.v1}/reviewables`);
  expect(res.status).toBe(200);
  return res.body.reviewables.map((r: { label: string | null; filename: string }) => r.label ?? r.filename);
}

/** Wait until the server has v001's reviewables in this order (a change is saved after the screen shows it). */
async function storedOrderBecomes(expected: string[]) {
  const deadline = Date.now() + 5000;
  let order = await storedOrder();
  while (JSON.stringify(order) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    order = await storedOrder();
  }
  expect(order).toEqual(expected);
}

describe('the review screen', () => {
  it('browses folder, product and version: only folders with versions, HERO first, then newest first', async () => {
    await timed('log in and open Review', async () => {
      await page.goto(`${base}/`);
      await page.getByLabel('User name').fill(ADMIN.name);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
      await switcher.focus();
      await page.locator('option', { hasText: 'demo (' }).waitFor({ state: 'attached' });
      await switcher.selectOption('demo');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Review', exact: true })
        .click();
    });
    const browser = page.getByRole('region', { name: 'Choose a version' });
    const folders = browser.getByRole('group', { name: 'Folders' });
    await folders.getByRole('button', { name: /^sq010/ }).click();
    await expect(folders.getByRole('button', { name: /^sq020/ }).count()).resolves.toBe(0);
    await folders.getByRole('button', { name: /^sh010/ }).click();
    await browser
      .getByRole('group', { name: 'Products' })
      .getByRole('button', { name: /^renderMain/ })
      .click();
    const versions = browser.getByRole('group', { name: 'Versions' });
    await versions.getByRole('button', { name: 'Review renderMain v001' }).waitFor();
    const listed = await versions
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')));
    expect(listed).toEqual(['Review renderMain HERO', 'Review renderMain v002', 'Review renderMain v001']);
    await versions.getByRole('button', { name: 'Review renderMain v001' }).click();

    await page.getByText('v001 has no reviewables yet.').waitFor();
    expect(new URL(page.url()).searchParams.get('version')).toBe(ids.v1);
    await expect(page.getByLabel('Version under review').textContent()).resolves.toContain('sq010 / sh010');
    // The version's feed, from the activities addon, sits beside the stage.
    await page
      .getByRole('complementary', { name: 'Activity of v001' })
      .getByRole('region', { name: 'Activity' })
      .waitFor();
  });

  it('uploads an H.264 MP4 with progress; it is ready, plays, and steps frame by frame', async () => {
    // Uploads are slowed down, so the progress can be seen on the way.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: Math.ceil((await stat(join(media, 'shot.mp4'))).size / 3),
    });
    const sawProgress = page
      .getByRole('status', { name: 'Upload progress' })
      .filter({ hasText: /Uploading: .* \(\d+ %\)/ })
      .waitFor();
    const mp4 = await timed('upload the MP4', async () => {
      const done = uploadThroughScreen('shot.mp4', 'Main take', 'Main take');
      await sawProgress;
      return done;
    });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
    await expect(mp4.locator('[data-availability]').textContent()).resolves.toBe('Ready');
    // The thumbnail comes from the files addon.
    await mp4.locator('img.pwr-thumb').waitFor();
    // The feed tells about the upload as it happens.
    await page
      .getByRole('complementary', { name: 'Activity of v001' })
      .getByText("Uploaded a reviewable 'Main take'")
      .waitFor();

    const video = page.getByLabel('Video: Main take');
    await video.waitFor();
    await expect(timecode().textContent()).resolves.toBe('00:00:00:00');
    // Frames are numbered in the shot's range: sh010 inherits the project's frameStart, 1001.
    await page
      .getByLabel('Frame number')
      .filter({ hasText: /^frame 1001$/ })
      .waitFor();
    await expect(page.getByLabel('Frame range').textContent()).resolves.toBe('1001–1048');
    await timed('video starts playing', async () => {
      await stage().click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Space');
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.2);
    });
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('video')?.paused === true);

    await page.getByRole('button', { name: 'First frame' }).click();
    await expect(timecode().textContent()).resolves.toBe('00:00:00:00');
    await stage().focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await page
      .getByLabel('Frame number')
      .filter({ hasText: /^frame 1003$/ })
      .waitFor();
    await expect(timecode().textContent()).resolves.toBe('00:00:00:02');
    // The picture really comes to that frame: the element's time lies within frame 2 (1/24 s each) once its seeks,
    // which run one at a time behind the readout, are done.
    await until(
      () => video.evaluate((element) => Math.floor((element as HTMLVideoElement).currentTime * 24)),
      2,
    );
    // Shift steps a second.
    await page.keyboard.press('Shift+ArrowRight');
    await expect(timecode().textContent()).resolves.toBe('00:00:01:02');
  });

  it('uploads a PNG and shows it as an image', async () => {
    const png = await timed('upload the PNG', () => uploadThroughScreen('layout.png', null, 'layout.png'));
    await expect(png.locator('[data-availability]').textContent()).resolves.toBe('Ready');
    await png.getByRole('button', { name: 'Show layout.png' }).click();
    const image = stage().getByRole('img', { name: 'layout.png' });
    await image.waitFor();
    await page.waitForFunction(
      () => (document.querySelector('.pwr-stage img') as HTMLImageElement | null)?.naturalWidth === 640,
    );
    expect(await cardLabels()).toEqual(['Main take', 'layout.png']);
  });

  it('reorders the two, by button and by dragging, and the order stays after a reload', async () => {
    await card('layout.png').getByRole('button', { name: 'Move layout.png earlier' }).click();
    await storedOrderBecomes(['layout.png', 'Main take']);
    expect(await cardLabels()).toEqual(['layout.png', 'Main take']);

    await timed('reload keeps the order', async () => {
      await page.reload();
      await card('Main take').waitFor();
    });
    expect(await cardLabels()).toEqual(['layout.png', 'Main take']);
    // The one on the stage is kept in the address too.
    await stage().getByRole('img', { name: 'layout.png' }).waitFor();

    await card('Main take').dragTo(card('layout.png'), { targetPosition: { x: 10, y: 40 } });
    await storedOrderBecomes(['Main take', 'layout.png']);
    await page.reload();
    await card('layout.png').waitFor();
    expect(await cardLabels()).toEqual(['Main take', 'layout.png']);
  });

  it('renames a reviewable in place', async () => {
    await card('Main take').getByRole('button', { name: 'Rename Main take' }).click();
    const field = card('Main take').getByLabel('Label');
    await field.fill('Main take, graded');
    await field.press('Enter');
    await card('Main take, graded').waitFor();
    expect(await storedOrder()).toEqual(['Main take, graded', 'layout.png']);
  });

  it('explains a ProRes upload (dropped on the screen) that needs converting, with a still frame', async () => {
    const mov = await timed('upload the ProRes .mov', () =>
      uploadThroughScreen('master.mov', 'Grade master', 'Grade master', 'video/quicktime'),
    );
    await expect(mov.locator('[data-availability]').textContent()).resolves.toBe('Needs conversion');
    await mov.getByRole('button', { name: 'Show Grade master' }).click();
    await stage().getByText('This file needs converting before it can play here.').waitFor();
    await expect(stage().getByRole('note').textContent()).resolves.toContain('ProRes in QuickTime (.mov)');
    await page.waitForFunction(
      () => (document.querySelector('.pwr-stage img') as HTMLImageElement | null)?.naturalWidth === 320,
    );
    expect(await stage().locator('video').count()).toBe(0);
    await screenshot(page, 'review-conversion');
  });

  it('says plainly why an upload is refused', async () => {
    await upload().getByLabel('Video or image file').setInputFiles(join(media, 'notes.txt'));
    await upload().getByText('This kind of file cannot be reviewed.').waitFor();
    await expect(upload().getByRole('alert').textContent()).resolves.toContain(
      'reviewables are videos or images',
    );

    // The server's own refusal of a file over its upload limit.
    const files = core.services.get(filesRef) as { uploadLimit: number };
    const limit = files.uploadLimit;
    files.uploadLimit = 1000;
    try {
      await upload().getByLabel('Video or image file').setInputFiles(join(media, 'layout.png'));
      await upload()
        .getByRole('button', { name: /^Upload to / })
        .click();
      await upload().getByText('The file is too large for this server.').waitFor();
      await expect(upload().getByRole('alert').textContent()).resolves.toContain(
        'upload limit of 1000 bytes',
      );
    } finally {
      files.uploadLimit = limit;
    }
    expect((await storedOrder()).length).toBe(3);
  });

  it('opens a version straight from a link, and looks the part', async () => {
    await timed('open a version from a link', async () => {
      await page.goto(`${base}/addon/reviewables/reviewables_screens?project=demo&version=${ids.v1}`);
      await card('Main take, graded').waitFor();
    });
    await expect(page.getByLabel('Version under review').textContent()).resolves.toMatch(
      /sq010 \/ sh010 ›\s*renderMain\s*›\s*v001/,
    );
    await page.getByLabel('Video: Main take, graded').waitFor();
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
    await page
      .getByRole('complementary', { name: 'Activity of v001' })
      .getByText("Uploaded a reviewable 'Grade master'")
      .waitFor();
    await screenshot(page, 'review');

    // A version that does not exist says so and offers the browser.
    await page.goto(`${base}/addon/reviewables/reviewables_screens?version=${'0'.repeat(32)}`);
    await page.getByText(/There is no version 0{32} in demo that you can see/).waitFor();
    await page.getByRole('region', { name: 'Choose a version' }).waitFor();
  });

  it('offers a reviewer without publish rights no changes to others’ uploads, and shows the server’s refusal', async () => {
    const context = await session.browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      await context.route('**/*', (route) =>
        route.request().url().startsWith(`${base}/`)
          ? route.continue()
          : (session.foreignRequests.push(route.request().url()), route.abort()),
      );
      const viewer = await context.newPage();
      viewer.setDefaultTimeout(10_000);
      viewer.on('pageerror', (error) => session.pageErrors.push(error.message));
      await viewer.goto(`${base}/addon/reviewables/reviewables_screens?project=demo&version=${ids.v1}`);
      await viewer.getByLabel('User name').fill(VIEWER.name);
      await viewer.getByLabel('Password').fill(VIEWER.password);
      await viewer.getByRole('button', { name: 'Log in' }).click();
      const cards = viewer.getByRole('list', { name: 'Reviewables' });
      await cards.locator('li[data-label="Main take, graded"]').waitFor();
      expect(await cards.getByRole('button', { name: /^Rename / }).count()).toBe(0);
      expect(await cards.getByRole('button', { name: /^Move / }).count()).toBe(0);
      expect(await cards.locator('li[draggable="true"]').count()).toBe(0);
      await viewer.getByText('Only a manager can reorder reviewables that others uploaded.').waitFor();

      const bar = viewer.getByRole('region', { name: /^Upload to / });
      await bar.getByLabel('Video or image file').setInputFiles(join(media, 'layout.png'));
      await bar.getByRole('button', { name: /^Upload to / }).click();
      await bar.getByText('You may not add reviewables to this version.').waitFor();
      await expect(bar.getByRole('alert').textContent()).resolves.toContain(
        `You may not publish to version ${ids.v1}`,
      );
    } finally {
      await context.close();
    }
    expect((await storedOrder()).length).toBe(3);
  });

  it('had no page errors and asked for nothing outside the server', () => {
    expect(session.pageErrors).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
  });
});
