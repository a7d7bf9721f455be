import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// The coordinator assigns an artist to two tasks at once in the grid, unassigns and assigns again from the detail
// panel; the artist's Home lists their tasks and shows them as a board by status, and the navigation counts the
// inbox's unread messages as they arrive.

const ADMIN = { name: 'admin', password: 'a strong password' };
const ARTIST = { name: 'artie', password: 'another strong one', fullName: 'Artie Sanders' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let admin: Page;
let artist: Page;
let artistContext: BrowserContext;
let token: string;
const ids: Record<string, string> = {};

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });
const assigneesOf = async (id: string) =>
  (await api('GET', `/api/projects/demo/tasks/${id}`)).body.assignees as string[];
/** Wait until a check of the server's state holds (the UI shows a change before the server confirms it). */
async function until(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the server never reached the expected state');
    await new Promise((r) => setTimeout(r, 100));
  }
}
const gridRow = (name: string) => admin.locator(`.pwo-entity-row[data-entity="${name}"]`);

async function logIn(page: Page, who: { name: string; password: string }) {
  await page.goto(`${base}/`);
  await page.getByLabel('User name').fill(who.name);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'thumbnails', 'websocket', 'files', 'activities'],
    screens: ['activities'],
    admin: ADMIN,
  }));
  expect(
    (
      await api('PUT', `/api/users/${ARTIST.name}`, {
        password: ARTIST.password,
        attrib: { fullName: ARTIST.fullName },
        data: { accessGroups: { demo: ['artist'] } },
      })
    ).status,
  ).toBe(204);
  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  const create = async (plural: string, body: Record<string, unknown>) =>
    (await api('POST', `/api/projects/demo/${plural}`, body)).body.id as string;
  ids.sequence = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  ids.sh010 = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.sequence });
  ids.sh020 = await create('folders', { name: 'sh020', folderType: 'Shot', parentId: ids.sequence });
  ids.comp = await create('tasks', { name: 'comp', taskType: 'Compositing', folderId: ids.sh010 });
  ids.light = await create('tasks', {
    name: 'light',
    taskType: 'Lighting',
    folderId: ids.sh020,
    status: 'In progress',
  });

  session = await openBrowser(base);
  admin = session.page;
  artistContext = await session.browser.newContext({ viewport: { width: 1400, height: 900 } });
  artist = await artistContext.newPage();
  artist.setDefaultTimeout(10_000);
}, 120_000);

afterAll(async () => {
  await artistContext?.close();
  await closeAll(session, core);
});

describe('assignment and Home', () => {
  it('assigns a person on two selected tasks at once from the Assignees cell', async () => {
    await logIn(admin, ADMIN);
    const switcher = admin.getByRole('combobox', { name: 'Project', exact: true });
    await switcher.focus();
    await admin.locator('option', { hasText: 'demo (dm)' }).waitFor({ state: 'attached' });
    await switcher.selectOption('demo');
    await admin
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Overview', exact: true })
      .click();
    await gridRow('sq010').getByRole('button', { name: 'Open sq010' }).click();
    await gridRow('sh010').getByRole('button', { name: 'Open sh010' }).click();
    await gridRow('sh020').getByRole('button', { name: 'Open sh020' }).click();
    await gridRow('comp').click();
    await gridRow('light').click({ modifiers: ['Control'] });
    await gridRow('comp').locator('[data-column="assignees"]').dblclick();
    const picker = admin.getByRole('dialog', { name: 'Assignees of 2 tasks' });
    await picker.getByRole('checkbox', { name: /Artie Sanders/ }).check();
    await admin.getByRole('status').filter({ hasText: 'Assigned artie on 2 tasks.' }).waitFor();
    await picker.getByRole('button', { name: 'Done' }).click();
    expect(await assigneesOf(ids.comp)).toEqual(['artie']);
    expect(await assigneesOf(ids.light)).toEqual(['artie']);
    await expect(gridRow('light').locator('[data-column="assignees"]').textContent()).resolves.toBe(
      'Artie Sanders',
    );
  });

  it('unassigns and assigns again from the detail panel of one task', async () => {
    await gridRow('sq010').click();
    await gridRow('comp').click();
    const panel = admin.getByRole('complementary', { name: 'Details of comp' });
    const group = panel.getByRole('group', { name: 'Assignees' });
    await group.getByRole('button', { name: 'Unassign Artie Sanders' }).click();
    await group.getByText('Nobody is assigned yet.').waitFor();
    await until(async () => (await assigneesOf(ids.comp)).length === 0);
    expect(await assigneesOf(ids.light)).toEqual(['artie']);
    await group.getByLabel('Assign someone').selectOption({ label: 'Artie Sanders' });
    await group.getByRole('button', { name: 'Unassign Artie Sanders' }).waitFor();
    await until(async () => (await assigneesOf(ids.comp)).join() === 'artie');
  });

  it("lists the artist's tasks on Home and shows them as a board by status", async () => {
    await logIn(artist, ARTIST);
    const list = artist.getByRole('table', { name: 'My tasks' });
    await list.getByRole('link', { name: 'comp' }).waitFor();
    await list.getByRole('link', { name: 'light' }).waitFor();
    await artist.getByRole('button', { name: 'Board' }).click();
    const board = artist.getByLabel('My tasks by status');
    await board.getByRole('region', { name: 'In progress' }).getByRole('link', { name: 'light' }).waitFor();
    const other = board.getByRole('region').filter({ hasNot: artist.getByRole('link', { name: 'light' }) });
    await other.getByRole('link', { name: 'comp' }).waitFor();
    await screenshot(artist, 'home-board');
    // A card opens its task in the overview of its project.
    await board.getByRole('link', { name: 'comp' }).click();
    await artist.getByRole('complementary', { name: 'Details of comp' }).waitFor();
  });

  it('counts the unread inbox messages in the navigation, live', async () => {
    const inboxLink = artist.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Inbox/ });
    await inboxLink.waitFor();
    // Being assigned may already have told the artist; the mention below is one more.
    const badge = inboxLink.locator('.nav-badge');
    const before = (await badge.count()) ? Number(await badge.textContent()) : 0;
    const comment = await api('POST', `/api/projects/demo/task/${ids.comp}/activities`, {
      activityType: 'comment',
      body: `Look at this, [Artie Sanders](user:${ARTIST.name})`,
    });
    expect(comment.status).toBeLessThan(300);
    await inboxLink.getByLabel(`${before + 1} unread`).waitFor();
    // Reading it in the inbox clears the count.
    await inboxLink.click();
    await artist
      .getByRole('button', { name: /Mark .*read/i })
      .first()
      .click();
    await inboxLink.locator('.nav-badge').waitFor({ state: 'detached' });
  });
});
