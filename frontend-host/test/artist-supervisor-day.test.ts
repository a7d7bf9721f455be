import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, screenshot, startWebApp } from './browser';

// Issue 38, "Done when": the artist's and the supervisor's days, played in the web app alone as the coordinator's
// day is. REST (as the administrator) only stages the show: project, shots, tasks, users and a version with an
// uploaded clip. Every step of the two days is done in the UI; REST then only reads the server's state to check it.

const ADMIN = { name: 'admin', password: 'a strong password' };
const ARTIST = { name: 'artie', password: 'another strong one', fullName: 'Artie Sanders' };
const SUPERVISOR = { name: 'sue', password: 'a third strong one', fullName: 'Sue Pervis' };
const P = 'show01';
const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

let core: TestCore;
let base: string;
let session: BrowserSession;
/** The artist's page (the session's own, which may reach nothing but the server). */
let artist: Page;
/** The supervisor's page, in a browser context of their own. */
let supervisor: Page;
let supervisorContext: BrowserContext | undefined;
let token = '';
let media = '';
const ids: Record<string, string> = {};
const timings: Record<string, number> = {};

// ---- the server's state, read through REST and GraphQL ----

const api = async (method: string, url: string, body?: unknown) => {
  const answer = await core.request(method, url, { token, body });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
  return answer.body;
};
const create = async (plural: string, body: Record<string, unknown>) =>
  (await api('POST', `/api/projects/${P}/${plural}`, body)).id as string;
interface Comment {
  activityType: string;
  body: string;
  author: { name: string } | null;
}
async function commentsOn(task: string): Promise<Comment[]> {
  const answer = await api('POST', '/graphql', {
    query: `{ project(name: "${P}") { task(id: "${task}") { activities { edges { node {
      activityType body author { name } } } } } } }`,
  });
  return answer.data.project.task.activities.edges
    .map((e: { node: Comment }) => e.node)
    .filter((n: Comment) => n.activityType === 'comment');
}
/** Wait until the server holds what the UI asked for (a screen shows a change before the server confirms it). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > end)
      throw new Error(`the server never reached the expected state: ${JSON.stringify(value).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

// ---- the pages ----

const nav = (on: Page, label: string | RegExp) =>
  on
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: label, exact: typeof label === 'string' });
const gridRow = (on: Page, name: string) => on.locator(`.pwo-entity-row[data-entity="${name}"]`);
const feedOf = (on: Page, name: string) =>
  on.getByRole('complementary', { name: `Details of ${name}` }).getByRole('region', { name: 'Activity' });
const myTask = (name: string) =>
  artist.getByRole('table', { name: 'My tasks' }).getByRole('row', { name: new RegExp(`^${name} `) });
const readout = () => supervisor.getByLabel('Frame number');
const isPaused = () => supervisor.locator('video').evaluate((v) => (v as HTMLVideoElement).paused);

async function logInAs(on: Page, who: { name: string; password: string; fullName: string }) {
  await logIn(on, `${base}/`, who);
  await on.getByRole('heading', { name: `Welcome, ${who.fullName}` }).waitFor();
}

/** The readout names this frame and the picture is settled on it. */
async function showsFrame(frame: number) {
  await supervisor.waitForFunction(
    (text) => document.querySelector('[aria-label="Frame number"]')?.textContent?.includes(text),
    `frame ${frame}`,
  );
  await expect(readout().textContent()).resolves.toMatch(new RegExp(`frame ${frame}\\b`));
  await supervisor.waitForFunction(() => {
    const v = document.querySelector('video');
    return !!v && !v.seeking && v.readyState >= 2;
  });
}

/** One step of a day: its name and what the page said in a failure, its time in the log. */
async function step(on: Page, name: string, run: () => Promise<void>) {
  const started = Date.now();
  try {
    await run();
  } catch (error) {
    const said = await on
      .locator('[role="alert"], [role="status"], .error-box')
      .allTextContents()
      .catch(() => []);
    await screenshot(on, `artist-supervisor-day-failed`).catch(() => {});
    const failure = error as Error;
    const context = `step "${name}" failed; the page said ${JSON.stringify(said)}`;
    failure.message = `${context}\n${failure.message}`;
    failure.stack = `${context}\n${failure.stack}`;
    throw failure;
  }
  timings[name] = Date.now() - started;
}

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'artist-supervisor-day-'));
  // 2 s at 24 fps: 48 frames, numbered 1001 to 1048 in the shot.
  const made = promisify(execFile)('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'testsrc=duration=2:size=320x240:rate=24', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
    join(media, 'sh010_comp.mp4'),
  ]);
  made.catch(() => undefined);
  ({ core, base, token } = await startWebApp({
    addons: ['access', 'graphql', 'websocket', 'events', 'files', 'thumbnails', 'activities', 'reviewables'],
    screens: ['entities', 'projects', 'activities', 'reviewables'],
    admin: ADMIN,
  }));

  // ---- staging the show, as the administrator ----
  await api('POST', '/api/projects', { name: P, code: 's01' });
  for (const [who, group] of [
    [ARTIST, 'artist'],
    [SUPERVISOR, 'supervisor'],
  ] as const)
    await api('PUT', `/api/users/${who.name}`, {
      password: who.password,
      attrib: { fullName: who.fullName },
      data: { accessGroups: { [P]: [group] } },
    });
  const sequence = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  ids.sh010 = await create('folders', {
    name: 'sh010',
    folderType: 'Shot',
    parentId: sequence,
    attrib: { frameStart: 1001, frameEnd: 1048 },
  });
  ids.sh020 = await create('folders', { name: 'sh020', folderType: 'Shot', parentId: sequence });
  // The artist's two tasks: the compositing of sh010 ended two and a half days ago and is still in progress.
  ids.comp = await create('tasks', {
    name: 'compositing',
    taskType: 'Compositing',
    folderId: ids.sh010,
    status: 'In progress',
    attrib: { endDate: inDays(-2.5) },
  });
  ids.anim = await create('tasks', {
    name: 'animation',
    taskType: 'Animation',
    folderId: ids.sh020,
    status: 'Not ready',
    attrib: { endDate: inDays(20) },
  });
  // The coordinator gives the artist both tasks in one go.
  const assigned = await api('POST', `/api/projects/${P}/operations`, {
    operations: [ids.comp, ids.anim].map((id) => ({
      type: 'update',
      entityType: 'task',
      entityId: id,
      data: { assignees: [ARTIST.name] },
    })),
  });
  expect(assigned.success).toBe(true);
  await create('tasks', { name: 'lighting', taskType: 'Lighting', folderId: ids.sh010 });
  // The artist's version of the compositing, with its clip uploaded for review.
  const product = await create('products', {
    name: 'renderComp',
    productType: 'render',
    folderId: ids.sh010,
  });
  ids.version = await create('versions', {
    version: 1,
    productId: product,
    taskId: ids.comp,
    author: ARTIST.name,
  });
  await made;
  const upload = await core.request('POST', `/api/projects/${P}/versions/${ids.version}/reviewables`, {
    token,
    body: await readFile(join(media, 'sh010_comp.mp4')),
    headers: { 'content-type': 'video/mp4', 'x-file-name': 'sh010_comp.mp4' },
  });
  expect(upload.status).toBeLessThan(300);

  session = await openBrowser(base);
  artist = session.page;
  supervisorContext = await session.browser.newContext({ viewport: { width: 1400, height: 900 } });
  supervisor = await supervisorContext.newPage();
  supervisor.setDefaultTimeout(10_000);
  supervisor.on('pageerror', (error) => session.pageErrors.push(`supervisor: ${error.message}`));
}, 120_000);

afterAll(async () => {
  console.info(`artist's and supervisor's days, ms per step: ${JSON.stringify(timings)}`);
  await supervisorContext?.close();
  await closeAll(session, core);
  if (media) await rm(media, { recursive: true, force: true });
});

describe("the artist's and the supervisor's days", () => {
  it('the artist logs in, finds the overdue task in My tasks and opens it in the overview', async () => {
    await step(artist, 'log in and read My tasks', async () => {
      await logInAs(artist, ARTIST);
      await nav(artist, 'Home').click();
      await myTask('compositing').waitFor();
      await myTask('animation').waitFor();
      expect(await artist.getByRole('table', { name: 'My tasks' }).getByRole('row').count()).toBe(3);
      // The late one says so, in words; the other one is not marked.
      expect(await myTask('compositing').getByTitle('Overdue by 2 days').textContent()).toBe('Overdue');
      expect(await myTask('animation').textContent()).not.toMatch(/Overdue|Due soon/);
      await expect(myTask('compositing').textContent()).resolves.toContain('In progress');
    });

    await step(artist, 'open the task in the overview', async () => {
      await myTask('compositing').getByRole('link', { name: 'compositing' }).click();
      await artist.waitForURL('**/addon/entities/overview_remote**');
      // The task is selected in its place, its details and activity beside the grid.
      const details = artist.getByRole('complementary', { name: 'Details of compositing' });
      await details.getByText('/sq010/sh010/compositing', { exact: true }).waitFor();
      await feedOf(artist, 'compositing').getByRole('combobox', { name: 'Comment' }).waitFor();
      await gridRow(artist, 'compositing').getByText('Overdue', { exact: true }).waitFor();
    });
  }, 60_000);

  it('the supervisor comments on the task with an @mention of the artist', async () => {
    await step(supervisor, 'log in, open the task and comment', async () => {
      await logInAs(supervisor, SUPERVISOR);
      const switcher = supervisor.getByRole('combobox', { name: 'Project', exact: true });
      await switcher.locator('option', { hasText: `${P} (s01)` }).waitFor({ state: 'attached' });
      await switcher.selectOption(P);
      await nav(supervisor, 'Overview').click();
      for (const folder of ['sq010', 'sh010']) {
        await gridRow(supervisor, folder).waitFor();
        const open = gridRow(supervisor, folder).getByRole('button', { name: `Open ${folder}` });
        if (await open.count()) await open.click();
      }
      await gridRow(supervisor, 'compositing').click();
      const feed = feedOf(supervisor, 'compositing');
      const box = feed.getByRole('combobox', { name: 'Comment' });
      await box.click();
      await box.pressSequentially('The edge of the matte flickers, @art');
      await feed.getByRole('option', { name: /Artie Sanders/ }).click();
      await box.pressSequentially('please have a look.');
      await feed.getByRole('button', { name: 'Comment', exact: true }).click();
      await feed.getByRole('article', { name: `Comment by ${SUPERVISOR.fullName}` }).waitFor();
      await expect(box.inputValue()).resolves.toBe('');
    });
    const [comment] = await until(
      () => commentsOn(ids.comp!),
      (all) => all.length === 1,
    );
    expect(comment).toMatchObject({
      body: `The edge of the matte flickers, [${ARTIST.fullName}](user:${ARTIST.name}) please have a look.`,
      author: { name: SUPERVISOR.name },
    });
  }, 60_000);

  it('the artist finds the mention first in the inbox, opens it and replies in the feed', async () => {
    await step(artist, 'find the mention first in the inbox', async () => {
      await nav(artist, /^Inbox/).click();
      const first = artist.locator('li.pwa-message').first();
      await first.waitFor();
      await expect(first.getAttribute('aria-label')).resolves.toBe(
        `Unread: ${SUPERVISOR.fullName} mentioned you`,
      );
      await first.getByText('The edge of the matte flickers').waitFor();
      await first.getByText(`${P} / sq010 / sh010 / compositing`, { exact: true }).waitFor();
      // Mentions come first, then the other kinds: the morning's assignments as one notice, then the rest.
      const headings = await artist.getByRole('heading', { level: 2 }).allTextContents();
      expect(headings.slice(headings.indexOf('Mentions and replies'))).toEqual([
        'Mentions and replies',
        'Assignments',
        'Other news',
      ]);
      await artist
        .getByRole('region', { name: 'Assignments' })
        .getByText('assigned you to 2 tasks')
        .waitFor();
    });

    await step(artist, 'open the mention: it lands on the task', async () => {
      await artist.locator('li.pwa-message').first().getByRole('button', { name: 'Open' }).click();
      await artist.waitForURL('**/addon/entities/overview_remote**');
      await feedOf(artist, 'compositing')
        .getByRole('article', { name: `Comment by ${SUPERVISOR.fullName}` })
        .getByText('please have a look.')
        .waitFor();
    });

    await step(artist, 'reply in the feed', async () => {
      const feed = feedOf(artist, 'compositing');
      const box = feed.getByRole('combobox', { name: 'Comment' });
      await box.click();
      await box.pressSequentially('Fixed the matte edge, a new version is on its way.');
      await feed.getByRole('button', { name: 'Comment', exact: true }).click();
      await feed.getByRole('article', { name: `Comment by ${ARTIST.fullName}` }).waitFor();
    });
    const comments = await until(
      () => commentsOn(ids.comp!),
      (all) => all.length === 2,
    );
    expect(comments).toContainEqual(
      expect.objectContaining({
        body: 'Fixed the matte edge, a new version is on its way.',
        author: { name: ARTIST.name },
      }),
    );
  }, 60_000);

  it('the supervisor reviews the version frame by frame and sets its status', async () => {
    await step(supervisor, 'open the review of the artist’s version', async () => {
      await nav(supervisor, 'Review').click();
      const browser = supervisor.getByRole('region', { name: 'Choose a version' });
      for (const folder of ['sq010', 'sh010'])
        await browser.getByRole('group', { name: 'Folders' }).getByRole('button', { name: folder }).click();
      await browser
        .getByRole('group', { name: 'Products' })
        .getByRole('button', { name: /^renderComp/ })
        .click();
      await browser.getByRole('button', { name: 'Review renderComp v001' }).click();
      await supervisor.getByLabel('Video: sh010_comp.mp4').waitFor();
      await expect(supervisor.getByLabel('Version under review').textContent()).resolves.toContain('v001');
    });

    await step(supervisor, 'open on frame 1001 and step frame by frame', async () => {
      await showsFrame(1001);
      expect(await isPaused()).toBe(true);
      await supervisor.getByRole('region', { name: /^Stage/ }).focus();
      for (let i = 0; i < 3; i++) await supervisor.keyboard.press('ArrowRight');
      await showsFrame(1004);
      await supervisor.keyboard.press('ArrowLeft');
      await showsFrame(1003);
    });

    await step(supervisor, 'play and pause with Space', async () => {
      await supervisor.keyboard.press('Space');
      await supervisor.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3);
      await supervisor.keyboard.press('Space');
      await supervisor.waitForFunction(() => document.querySelector('video')?.paused === true);
      await supervisor.waitForTimeout(300);
      expect(await isPaused()).toBe(true);
      // It played on from 1003 and the readout follows the picture where it stopped.
      const stopped = Number(/frame (\d+)/.exec((await readout().textContent()) ?? '')?.[1]);
      expect(stopped).toBeGreaterThan(1003);
      await showsFrame(stopped);
    });

    await step(supervisor, 'set the version’s status in the review', async () => {
      await supervisor.getByRole('combobox', { name: 'Version status' }).selectOption('Approved');
      await until(
        () => api('GET', `/api/projects/${P}/versions/${ids.version}`),
        (version) => version.status === 'Approved',
      );
      await supervisor.reload();
      await supervisor.getByLabel('Video: sh010_comp.mp4').waitFor();
      await expect(
        supervisor.getByRole('combobox', { name: 'Version status' }).locator('option:checked').textContent(),
      ).resolves.toBe('Approved');
    });
    await screenshot(supervisor, 'supervisor-review-approved');
    expect(session.pageErrors).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
  }, 60_000);
});
