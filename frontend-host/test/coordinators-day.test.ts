import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, openBrowser, startWebApp, type BrowserSession } from './browser';

// Issue 26, "Done when" 1: a production coordinator runs a show's first day in the web app alone. Every change
// is made through the UI; the REST API only reads the server's state to check each step, and stands for the
// artist working elsewhere when the overview must follow a change live.

const ADMIN = { name: 'coord', password: 'a strong password' };
const ARTIST = { name: 'artie', password: 'another strong one', fullName: 'Artie Sanders' };
const P = 'show01';
const TASK_TYPES = ['Animation', 'Lighting', 'Compositing'];
const SQ010 = ['sh010', 'sh020', 'sh030', 'sh040', 'sh050'];
const SQ020 = ['sh060', 'sh070', 'sh080', 'sh090', 'sh100'];

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let artistContext: BrowserContext | undefined;
let token = '';
let media = '';

// ---- the server's state, read through REST and GraphQL ----

const api = async (method: string, url: string, body?: unknown, as = token) => {
  const answer = await core.request(method, url, { token: as, body });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
  return answer.body;
};
interface Folder {
  id: string;
  name: string;
  parentId: string | null;
  folderType: string;
  status: string;
  attrib: Record<string, unknown>;
}
interface Task {
  id: string;
  name: string;
  taskType: string;
  folderId: string;
  status: string;
  assignees: string[];
}
const folders = async (): Promise<Folder[]> => (await api('GET', `/api/projects/${P}/folders`)).folders;
const folderNamed = async (name: string) => (await folders()).find((f) => f.name === name);
const folderById = async (id: string): Promise<Folder> => api('GET', `/api/projects/${P}/folders/${id}`);
async function tasks(): Promise<Task[]> {
  const answer = await api('POST', '/graphql', {
    query: `{ project(name: "${P}") { tasks { edges { node { id name taskType folderId status assignees } } } } }`,
  });
  return answer.data.project.tasks.edges.map((e: { node: Task }) => e.node);
}
/** The coordinator's working view of the overview, as the server keeps it (none yet: plain settings). */
const workingView = async (): Promise<{ settings: Record<string, any> }> => {
  const answer = await core.request('GET', `/api/views/overview/working?project_name=${P}`, { token });
  if (answer.status === 404) return { settings: {} };
  if (answer.status !== 200) throw new Error(`working view: ${answer.status} ${answer.text}`);
  return answer.body;
};
/** Wait until the server holds what the UI asked for (the screen shows a change before the server confirms it). */
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

// ---- the page ----

const nav = (on: Page, label: string) =>
  on.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
/** A row by its entity's id: task names repeat from shot to shot. */
const rowOf = (id: string) =>
  page.locator('.pwo-entity-row', { has: page.locator(`[data-cell="${id}|name"]`) });
const cellOf = (id: string, column: string) => page.locator(`[data-cell="${id}|${column}"]`);
const tool = (name: string | RegExp) =>
  page
    .getByRole('toolbar', { name: 'Grid tools' })
    .getByRole('button', { name, exact: typeof name === 'string' });
const notice = (text: string) => page.getByRole('status').filter({ hasText: text }).first();
const toClipboard = (text: string) => page.evaluate((t) => navigator.clipboard.writeText(t), text);

async function openFolders(...names: string[]) {
  for (const name of names) {
    await gridRow(name).waitFor();
    const open = gridRow(name).getByRole('button', { name: `Open ${name}` });
    if (await open.count()) await open.click();
  }
}
async function openOverview() {
  await nav(page, 'Overview').click();
  await gridRow('ep01').waitFor();
}

/** One step of the day: its name in the failure, its time in the log. */
const timings: Record<string, number> = {};
async function step(name: string, run: () => Promise<void>) {
  const started = Date.now();
  try {
    await run();
  } catch (error) {
    // What the page said, to tell a refusal from a missing screen.
    const said = await page
      .locator('[role="alert"], [role="status"]')
      .allTextContents()
      .catch(() => []);
    if (process.env.DAY_FAILURE_SHOT)
      await page.screenshot({ path: process.env.DAY_FAILURE_SHOT }).catch(() => {});
    // Jest prints the stack, written when the error was made: the step goes on both.
    const failure = error as Error;
    const context = `step "${name}" failed; the page said ${JSON.stringify(said)}`;
    failure.message = `${context}\n${failure.message}`;
    failure.stack = `${context}\n${failure.stack}`;
    throw failure;
  }
  timings[name] = Date.now() - started;
}

beforeAll(async () => {
  media = await mkdtemp(join(tmpdir(), 'coordinators-day-'));
  await promisify(execFile)('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'testsrc=duration=2:size=320x240:rate=24', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
    join(media, 'sh020_comp.mp4'),
  ]);
  // No administrator: the coordinator's day starts by onboarding through the page.
  ({ core, base } = await startWebApp({
    addons: [
      ...['access', 'teams', 'graphql', 'websocket', 'events', 'files', 'thumbnails', 'activities'],
      ...['reviewables', 'views', 'lists', 'dashboard', 'history'],
    ],
    screens: ['entities', 'projects', 'users', 'activities', 'reviewables', 'history'],
  }));
  session = await openBrowser(base);
  page = session.page;
  await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
}, 120_000);

afterAll(async () => {
  console.info(`coordinator's day, ms per step: ${JSON.stringify(timings)}`);
  await artistContext?.close();
  await closeAll(session, core);
  if (media) await rm(media, { recursive: true, force: true });
});

describe("the coordinator's day", () => {
  it('sets up and runs a show in the web app alone', async () => {
    const ids: Record<string, string> = {};

    await step('create the administrator on a fresh server', async () => {
      await page.goto(`${base}/`);
      await page.getByLabel('Administrator name').fill(ADMIN.name);
      await page.getByLabel('Password (at least 8 characters)').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Create administrator' }).click();
      await page.getByRole('heading', { name: `Welcome, ${ADMIN.name}` }).waitFor();
      token = (await api('POST', '/api/auth/login', ADMIN)).token;
    });

    await step('create a project', async () => {
      await nav(page, 'Projects').click();
      await page.getByText('No projects yet.').waitFor();
      const form = page.getByRole('form', { name: 'New project' });
      await form.getByLabel('Name').fill(P);
      await form.getByLabel('Code').fill('s01');
      await form.getByRole('button', { name: 'Create project' }).click();
      await page.getByText(`Project ${P} is ready.`).waitFor();
      const created = await api('GET', `/api/projects/${P}`);
      expect(created).toMatchObject({ name: P, code: 's01', active: true });
      // The project menu offers it at once.
      const menu = page.getByRole('combobox', { name: 'Project', exact: true });
      await menu.locator('option', { hasText: `${P} (s01)` }).waitFor({ state: 'attached' });
      await menu.selectOption(P);
      await nav(page, 'Overview').click();
    });

    await step('create an episode', async () => {
      await tool('New folder').click();
      const dialog = page.getByRole('dialog', { name: 'New folder' });
      await dialog.getByLabel('Name').fill('ep01');
      await dialog.getByLabel('Folder type').selectOption('Episode');
      await dialog.getByRole('button', { name: 'Create folder' }).click();
      await gridRow('ep01').waitFor();
      const episode = (await folderNamed('ep01'))!;
      expect(episode).toMatchObject({ folderType: 'Episode', parentId: null });
      ids.ep01 = episode.id;
    });

    await step('two sequences of five sibling shots in bulk', async () => {
      for (const [sequence, shots] of [
        ['sq010', SQ010],
        ['sq020', SQ020],
      ] as const) {
        await gridRow('ep01').click();
        await tool('Create in bulk').click();
        const dialog = page.getByRole('dialog', { name: 'Create in bulk' });
        await dialog.getByLabel('Container folder (optional)').fill(sequence);
        await dialog.getByLabel('Container type').selectOption('Sequence');
        await dialog.getByLabel('First name').fill(shots[0]);
        await dialog.getByLabel('Last name').fill(shots[4]);
        await dialog.getByLabel('Step').fill('10');
        await dialog.getByLabel('Type of the numbered folders').selectOption('Shot');
        await expect(dialog.getByRole('status', { name: 'Preview' }).textContent()).resolves.toBe(
          `${sequence} (Sequence) in /ep01, with 5 Shot folders: ${shots.join(', ')}`,
        );
        await dialog.getByRole('button', { name: 'Create', exact: true }).click();
        await gridRow(shots[4]).waitFor();
      }
      const all = await folders();
      for (const [sequence, shots] of [
        ['sq010', SQ010],
        ['sq020', SQ020],
      ] as const) {
        const made = all.find((f) => f.name === sequence)!;
        expect(made).toMatchObject({ folderType: 'Sequence', parentId: ids.ep01 });
        ids[sequence] = made.id;
        const children = all.filter((f) => f.parentId === made.id);
        expect(children.map((f) => f.name).sort()).toEqual(shots);
        expect(children.every((f) => f.folderType === 'Shot')).toBe(true);
        for (const shot of children) ids[shot.name] = shot.id;
      }
      expect(all).toHaveLength(13);
    });

    await step('three tasks on each of the ten shots in bulk', async () => {
      await openFolders('sq010', 'sq020');
      await gridRow('sh010').click();
      await gridRow('sh100').click({ modifiers: ['Shift'] });
      // The range crosses sq020's own row: leave the sequence out.
      await gridRow('sq020').click({ modifiers: ['Control'] });
      await tool('Create in bulk').click();
      const dialog = page.getByRole('dialog', { name: 'Create in bulk' });
      await expect(
        dialog.getByRole('radio', { name: /Tasks on the selected folders/ }).isChecked(),
      ).resolves.toBe(true);
      for (const type of TASK_TYPES) await dialog.getByRole('checkbox', { name: type }).check();
      await expect(dialog.getByRole('status', { name: 'Preview' }).textContent()).resolves.toBe(
        '30 tasks on 10 folders: animation, lighting, compositing',
      );
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await notice('Created 30 tasks.').waitFor();
      const made = await tasks();
      expect(made).toHaveLength(30);
      for (const shot of [...SQ010, ...SQ020])
        expect(
          made
            .filter((t) => t.folderId === ids[shot])
            .map((t) => t.taskType)
            .sort(),
        ).toEqual([...TASK_TYPES].sort());
      for (const t of made) ids[`${(await folderById(t.folderId)).name}/${t.name}`] = t.id;
    });

    await step('rename, move and delete a shot, and undo the delete', async () => {
      await gridRow('sq020').click();
      await gridRow('sh100').click();
      await tool('Rename').click();
      const rename = page.getByRole('dialog', { name: 'Rename sh100' });
      await rename.getByLabel('Name').fill('sh110');
      await rename.getByRole('button', { name: 'Rename' }).click();
      await gridRow('sh110').waitFor();
      expect(await folderById(ids.sh100!)).toMatchObject({ name: 'sh110', parentId: ids.sq020 });

      await gridRow('sh050').click();
      await tool('Move').click();
      const move = page.getByRole('dialog', { name: 'Move sh050' });
      await move.getByLabel('Find a folder').fill('sq020');
      await move.getByLabel('New parent').selectOption({ label: '/ep01/sq020' });
      await move.getByRole('button', { name: 'Move' }).click();
      await notice('Moved sh050 to /ep01/sq020.').waitFor();
      expect((await folderById(ids.sh050!)).parentId).toBe(ids.sq020);
      await expect(gridRow('sh050').count()).resolves.toBe(1);

      await gridRow('sh030').click();
      await tool(/^Delete$/).click();
      const remove = page.getByRole('dialog', { name: 'Delete' });
      await remove.getByText('Delete folder /ep01/sq010/sh030 with everything inside?').waitFor();
      await remove.getByRole('button', { name: 'Delete' }).click();
      await notice('Deleted sh030.').waitFor();
      expect(await folderNamed('sh030')).toBeUndefined();
      expect((await tasks()).filter((t) => t.folderId === ids.sh030)).toHaveLength(0);

      await tool('Undo: delete sh030').click();
      await gridRow('sh030').waitFor();
      expect(await folderById(ids.sh030!)).toMatchObject({ name: 'sh030', parentId: ids.sq010 });
      // Its three tasks come back with it, with their ids.
      await until(tasks, (all) => all.filter((t) => t.folderId === ids.sh030).length === 3);
      expect(
        (await tasks())
          .filter((t) => t.folderId === ids.sh030)
          .map((t) => t.id)
          .sort(),
      ).toEqual(['sh030/animation', 'sh030/lighting', 'sh030/compositing'].map((k) => ids[k]).sort());
      // The other changes stay, and the next one back is offered for undo.
      await tool('Undo: move sh050 to /ep01/sq020').waitFor();
      expect((await folderById(ids.sh100!)).name).toBe('sh110');
      expect((await folderById(ids.sh050!)).parentId).toBe(ids.sq020);
    });

    await step('create a user with access to the project', async () => {
      await nav(page, 'Users').click();
      await page.getByRole('heading', { name: 'People and access', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New user' }).click();
      const form = page.getByRole('form', { name: 'New user' });
      await form.getByLabel('User name').fill(ARTIST.name);
      await form.getByLabel('Full name').fill(ARTIST.fullName);
      await form.getByLabel('Email').fill('artie@example.com');
      await form.getByLabel('Password').fill(ARTIST.password);
      await form.getByRole('button', { name: 'Create user' }).click();
      const editor = page.getByRole('complementary', { name: `User ${ARTIST.name}` });
      await editor.getByRole('checkbox', { name: `artist in ${P}` }).check();
      await editor.getByRole('button', { name: 'Save access' }).click();
      await editor.getByText('Access saved.').waitFor();
      expect(await api('GET', `/api/users/${ARTIST.name}`)).toMatchObject({
        active: true,
        attrib: { fullName: ARTIST.fullName },
        data: { accessGroups: { [P]: ['artist'] } },
      });
    });

    await step('assign the artist to two tasks at once', async () => {
      await openOverview();
      await openFolders('ep01', 'sq010', 'sh010', 'sh020');
      await rowOf(ids['sh010/animation']!).click();
      await rowOf(ids['sh020/compositing']!).click({ modifiers: ['Control'] });
      await cellOf(ids['sh010/animation']!, 'assignees').dblclick();
      const picker = page.getByRole('dialog', { name: 'Assignees of 2 tasks' });
      await picker.getByRole('checkbox', { name: /Artie Sanders/ }).check();
      await notice(`Assigned ${ARTIST.name} on 2 tasks.`).waitFor();
      await picker.getByRole('button', { name: 'Done' }).click();
      const all = await tasks();
      expect(
        all
          .filter((t) => t.assignees.includes(ARTIST.name))
          .map((t) => t.id)
          .sort(),
      ).toEqual([ids['sh010/animation'], ids['sh020/compositing']].sort());
    });

    await step('change a status and a frame range inline', async () => {
      await cellOf(ids.sh010!, 'status').dblclick();
      await page.getByLabel('Status of sh010').selectOption('In progress');
      await until(
        () => folderById(ids.sh010!),
        (f) => f.status === 'In progress',
      );
      await cellOf(ids.sh010!, 'attrib.frameStart').dblclick();
      const start = page.getByLabel('Start frame of sh010');
      await start.fill('1001');
      await start.press('Enter');
      await cellOf(ids.sh010!, 'attrib.frameEnd').dblclick();
      const end = page.getByLabel('End frame of sh010');
      await end.fill('1096');
      await end.press('Enter');
      await until(
        () => folderById(ids.sh010!),
        (f) => f.attrib.frameStart === 1001 && f.attrib.frameEnd === 1096,
      );
    });

    await step('see who changed the frame range, and when, in the history and in the grid', async () => {
      await rowOf(ids.sh010!).click();
      const details = page.getByRole('complementary', { name: 'Details of sh010' });
      await details.getByRole('tab', { name: 'History' }).click();
      const history = details.getByRole('region', { name: 'History' });
      const frameEnd = history.locator('li', { hasText: 'set frameEnd to 1096' });
      await expect(frameEnd.textContent()).resolves.toContain(ADMIN.name);
      await expect(frameEnd.locator('time').getAttribute('datetime')).resolves.toMatch(/^\d{4}-/);
      // Narrowed to the status: only its change, from the default status.
      await history.getByLabel('Field to show').selectOption('status');
      await history.locator('li').nth(1).waitFor({ state: 'detached' });
      await expect(history.locator('li').textContent()).resolves.toMatch(
        /changed status from .+ to In progress/,
      );
      await details.getByRole('button', { name: 'Close the details' }).click();
      // In the grid, the pointer resting on a cell tells its last change.
      await cellOf(ids.sh010!, 'attrib.frameEnd').hover();
      const hint = page.getByRole('tooltip').filter({ hasText: 'set frameEnd to 1096' });
      await expect(hint.textContent()).resolves.toContain(ADMIN.name);
      await page.mouse.move(0, 0);
      await hint.waitFor({ state: 'detached' });
    });

    await step('paste frame ranges and statuses over several cells', async () => {
      // sh030 and sh040 are closed and next to each other: a 2 x 2 block from sh030's start frame.
      // (A value equal to the inherited one is no change: 1009 is sh030's own.)
      await toClipboard('1009\t1050\n1051\t1120\n');
      await cellOf(ids.sh030!, 'attrib.frameStart').click();
      await page.keyboard.press('Control+v');
      await notice('Pasted 4 cells on 2 rows.').waitFor();
      expect((await folderById(ids.sh030!)).attrib).toMatchObject({ frameStart: 1009, frameEnd: 1050 });
      expect((await folderById(ids.sh040!)).attrib).toMatchObject({ frameStart: 1051, frameEnd: 1120 });
      await cellOf(ids.sh040!, 'attrib.frameEnd').filter({ hasText: '1120' }).waitFor();

      // sh010's status copied over the status cells of its three tasks, the rows under it.
      await cellOf(ids.sh010!, 'status').click();
      await page.keyboard.press('Control+c');
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe('In progress');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('Shift+ArrowDown');
      await expect(page.locator('.pwo-cell[data-in-range]').count()).resolves.toBe(3);
      await page.keyboard.press('Control+v');
      await notice('Pasted 3 cells on 3 rows.').waitFor();
      const all = await tasks();
      expect(all.filter((t) => t.folderId === ids.sh010).map((t) => t.status)).toEqual([
        'In progress',
        'In progress',
        'In progress',
      ]);
      expect(all.filter((t) => t.folderId !== ids.sh010 && t.status === 'In progress')).toEqual([]);
    });

    await step('comment with a mention that the artist finds in their inbox', async () => {
      const task = ids['sh010/animation']!;
      await rowOf(task).click();
      const feed = page.getByRole('complementary', { name: 'Details of animation' }).getByRole('region', {
        name: 'Activity',
      });
      const box = feed.getByRole('combobox', { name: 'Comment' });
      await box.click();
      await box.pressSequentially('Please start the blocking, @art');
      await feed.getByRole('option', { name: /Artie Sanders/ }).click();
      await box.pressSequentially('today.');
      await feed.getByRole('button', { name: 'Comment', exact: true }).click();
      const posted = feed.getByRole('article', { name: `Comment by ${ADMIN.name}` });
      await posted.locator('.pwa-mention-user', { hasText: '@Artie Sanders' }).waitFor();
      await expect(posted.count()).resolves.toBe(1);
      await expect(box.inputValue()).resolves.toBe('');
      const stored = await api('POST', '/graphql', {
        query: `{ project(name: "${P}") { task(id: "${task}") { activities { edges { node {
          activityId activityType body } } } } } }`,
      });
      const comment = stored.data.project.task.activities.edges
        .map((e: { node: { activityId: string; activityType: string; body: string } }) => e.node)
        .find((n: { activityType: string }) => n.activityType === 'comment');
      expect(comment.body).toBe(`Please start the blocking, [Artie Sanders](user:${ARTIST.name}) today.`);
      ids.comment = comment.activityId;

      // The artist, in a browser of their own.
      artistContext = await session.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const artist = await artistContext.newPage();
      artist.setDefaultTimeout(10_000);
      await artist.goto(`${base}/`);
      await artist.getByLabel('User name').fill(ARTIST.name);
      await artist.getByLabel('Password').fill(ARTIST.password);
      await artist.getByRole('button', { name: 'Log in' }).click();
      await artist.getByRole('heading', { name: /^Welcome/ }).waitFor();
      // Their Home lists the two tasks they were given.
      const mine = artist.getByRole('table', { name: 'My tasks' });
      await mine.getByRole('link', { name: 'compositing' }).waitFor();
      await expect(mine.getByRole('link', { name: 'animation' }).count()).resolves.toBe(1);
      // The link carries the unread count: "Inbox" and a badge.
      await artist
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /^Inbox/ })
        .click();
      const message = artist.locator(`li.pwa-message[data-activity-id="${ids.comment}"]`);
      await message.waitFor();
      await expect(message.getAttribute('aria-label')).resolves.toMatch(/^Unread: .* mentioned you$/);
      await message.getByText('@Artie Sanders').waitFor();
      await message.getByText('Please start the blocking').waitFor();
      ids.artistToken = (await api('POST', '/api/auth/login', ARTIST)).token;
      const inbox = await api(
        'POST',
        '/graphql',
        { query: '{ inbox(last: 50) { edges { node { activityId read } } } }' },
        ids.artistToken,
      );
      expect(inbox.data.inbox.edges.map((e: { node: unknown }) => e.node)).toContainEqual({
        activityId: ids.comment,
        read: false,
      });
    });

    await step('create a product and a version, upload a reviewable and play it in review', async () => {
      const task = ids['sh020/compositing']!;
      await rowOf(task).click();
      await tool('New product').click();
      const product = page.getByRole('dialog', { name: 'New product' });
      await product.getByText('In /ep01/sq010/sh020').waitFor();
      await product.getByLabel('Product name').fill('renderComp');
      await product.getByLabel('Product type').fill('render');
      await product.getByRole('button', { name: 'Create product' }).click();
      const version = page.getByRole('dialog', { name: 'New version' });
      await expect(version.getByLabel('Task').locator('option:checked').textContent()).resolves.toBe(
        'compositing (Compositing)',
      );
      await version.getByRole('button', { name: 'Create v001' }).click();
      const done = page.getByRole('dialog', { name: 'renderComp v001' });
      const upload = done.getByRole('region', { name: 'Upload to v001' });
      await upload.getByLabel('Video or image file').setInputFiles(join(media, 'sh020_comp.mp4'));
      await upload.getByRole('button', { name: 'Upload to v001' }).click();
      await done.getByText('One reviewable uploaded.').waitFor();

      const stored = await api('POST', '/graphql', {
        query: `{ project(name: "${P}") { folder(id: "${ids.sh020}") { products { edges { node {
          id name productType versions { edges { node { id version taskId author } } } } } } } } }`,
      });
      const [made] = stored.data.project.folder.products.edges.map((e: { node: any }) => e.node);
      expect(made).toMatchObject({ name: 'renderComp', productType: 'render' });
      const v1 = made.versions.edges[0].node;
      expect(v1).toMatchObject({ version: 1, taskId: task, author: ADMIN.name });
      const reviewables = await api('GET', `/api/projects/${P}/versions/${v1.id}/reviewables`);
      expect(reviewables.reviewables.map((r: { filename: string }) => r.filename)).toEqual([
        'sh020_comp.mp4',
      ]);

      await done.getByRole('button', { name: 'Open in review' }).click();
      await page.waitForURL(`**/addon/reviewables/reviewables_screens?version=${v1.id}`);
      await page.getByLabel('Video: sh020_comp.mp4').waitFor();
      // Open in review starts the video by itself (?play=1).
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.2);
    });

    await step("see the artist's change arrive live, within 2 s", async () => {
      await openOverview();
      await openFolders('ep01', 'sq010', 'sh010');
      const task = ids['sh010/animation']!;
      const status = cellOf(task, 'status');
      await status.filter({ hasText: 'In progress' }).waitFor();
      // The badge says the page follows changes now: from then on, nothing another user does may be missed.
      await page.getByRole('toolbar', { name: 'Grid tools' }).locator('[data-live="live"]').waitFor();
      // The artist sets the status of their task from their own tools.
      const change = (to: string) =>
        api('PATCH', `/api/projects/${P}/tasks/${task}`, { status: to }, ids.artistToken);
      const started = Date.now();
      await change('Approved');
      await status.filter({ hasText: 'Approved' }).waitFor({ timeout: 5000 });
      timings.liveChangeShown = Date.now() - started;
      expect(timings.liveChangeShown).toBeLessThan(2000);
      expect((await tasks()).find((t) => t.id === task)!.status).toBe('Approved');
    });

    await step('save a view, reload, and restore it', async () => {
      const tools = page.getByRole('toolbar', { name: 'Grid tools' });
      await tools.getByLabel('Status filter').selectOption('In progress');
      await tools.getByLabel('Group by').selectOption('type');
      await gridRow('sh010').waitFor();
      await tool('Views').click();
      const menu = page.getByRole('dialog', { name: 'Saved views' });
      await menu.getByLabel('View name').fill('In progress by type');
      await menu.getByRole('button', { name: 'Save view' }).click();
      await menu.getByRole('button', { name: 'Restore In progress by type' }).waitFor();
      await tool('Views').click();
      const saved = await api('GET', `/api/views/overview?project_name=${P}`);
      expect(saved.views.map((v: { label: string }) => v.label)).toContain('In progress by type');

      // Back to everything, grouped by nothing: that is kept as the working view across a reload.
      await tools.getByLabel('Status filter').selectOption('');
      await tools.getByLabel('Group by').selectOption('none');
      await until(
        // No working view at all is the plain look too: a change undone before it was kept leaves none.
        workingView,
        (working) =>
          (working.settings.groupBy ?? 'none') === 'none' &&
          !(working.settings.filter?.conditions ?? []).length,
      );
      await page.reload();
      await gridRow('ep01').waitFor();
      await expect(tools.getByLabel('Status filter').inputValue()).resolves.toBe('');
      await tool('Views').click();
      await menu.getByRole('button', { name: 'Restore In progress by type' }).click();
      await until(
        () => tools.getByLabel('Status filter').inputValue(),
        (value) => value === 'In progress',
        3000,
      );
      await expect(tools.getByLabel('Group by').inputValue()).resolves.toBe('type');
      await gridRow('sh010').waitFor();
      await expect(gridRow('sh020').count()).resolves.toBe(0);
      // Restored, it is the working view again (kept a moment after it is put on screen).
      await until(workingView, (working) => working.settings.groupBy === 'type');
      // Back to the whole hierarchy for the export.
      await tools.getByLabel('Status filter').selectOption('');
      await tools.getByLabel('Group by').selectOption('none');
      await gridRow('ep01').waitFor();
    });

    await step('export the grid to CSV and import an edited copy', async () => {
      await openFolders('ep01', 'sq010', 'sq020');
      const [download] = await Promise.all([page.waitForEvent('download'), tool('Export CSV').click()]);
      expect(download.suggestedFilename()).toBe(`${P}.csv`);
      const sheet = parseCsv(await readFile((await download.path())!, 'utf8'));
      const column = (name: string) => {
        const at = sheet.header.indexOf(name);
        expect(at).toBeGreaterThanOrEqual(0);
        return at;
      };
      const rowAt = (path: string) => {
        const row = sheet.rows.find((r) => r[0] === path);
        expect(row).toBeDefined();
        return row!;
      };
      expect(rowAt('/ep01/sq010/sh040')[column('End frame')]).toBe('1120');
      rowAt('/ep01/sq010/sh040')[column('Status')] = 'Approved';
      const line = (values: Record<string, string>) => sheet.header.map((name) => values[name] ?? '');
      sheet.rows.push(
        line({ Path: '/ep01/sq020/sh120', Kind: 'folder', Type: 'Shot', 'Start frame': '1001' }),
      );
      sheet.rows.push(line({ Path: '/ep01/sq020/sh120/compositing', Kind: 'task', Type: 'Compositing' }));

      await page.getByLabel('CSV file to import').setInputFiles({
        name: 'edited.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(writeCsv(sheet)),
      });
      const dialog = page.getByRole('dialog', { name: 'Import CSV' });
      const preview = dialog.getByRole('status', { name: 'Import preview' });
      await preview.waitFor();
      await expect(preview.textContent()).resolves.toMatch(
        /^2 to create, 1 to update, \d+ unchanged, 0 in error$/,
      );
      await expect(dialog.getByRole('region', { name: 'To update' }).textContent()).resolves.toContain(
        '/ep01/sq010/sh040: Status Not ready → Approved',
      );
      await dialog.getByRole('button', { name: 'Apply 3 changes' }).click();
      await notice('Imported edited.csv: 2 created, 1 updated.').waitFor();

      expect((await folderById(ids.sh040!)).status).toBe('Approved');
      const sh120 = (await folderNamed('sh120'))!;
      expect(sh120).toMatchObject({ folderType: 'Shot', parentId: ids.sq020 });
      expect((await tasks()).filter((t) => t.folderId === sh120.id).map((t) => [t.name, t.taskType])).toEqual(
        [['compositing', 'Compositing']],
      );
      await gridRow('sh120').waitFor();
      expect(await folders()).toHaveLength(14);
      expect(session.pageErrors).toEqual([]);
      // The app asked nothing of any other server all day.
      expect(session.foreignRequests).toEqual([]);
    });
  }, 600_000);
});

interface Sheet {
  header: string[];
  rows: string[][];
}
/** RFC 4180 as a spreadsheet writes it: quoted fields may hold commas, quotes and line breaks. */
function parseCsv(text: string): Sheet {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n') endRow();
    else if (c === '\r') {
      if (text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field || row.length) endRow();
  const [header, ...rest] = rows;
  return { header: header!, rows: rest };
}
const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const writeCsv = ({ header, rows }: Sheet) =>
  [header, ...rows].map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
