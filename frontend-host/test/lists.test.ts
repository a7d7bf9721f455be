import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import {
  closeAll,
  holdSockets,
  openBrowser,
  screenshot,
  serverReachable,
  startWebApp,
  type BrowserSession,
} from './browser';

// A coordinator makes a review session in the lists screen, fills it from the overview's selection with the
// latest versions of two tasks, reorders it (arrows and drag and drop), renames it, removes an item, opens it in
// review and deletes it; and makes a list of tasks straight from the overview. Each step is checked on the server.

const ADMIN = { name: 'admin', password: 'a strong password' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
const ids: Record<string, string> = {};

const api = async (method: string, url: string, body?: unknown) => {
  const answer = await core.request(method, url, { token, body });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
  return answer.body;
};
const create = async (type: string, body: Record<string, unknown>) =>
  (await api('POST', `/api/projects/demo/${type}`, body)).id as string;

interface ServerList {
  id: string;
  label: string;
  entityType: string;
  entityListType: string;
}
/** The project's lists as the server holds them. */
async function lists(): Promise<ServerList[]> {
  const answer = await api('POST', '/graphql', {
    query:
      '{ project(name: "demo") { entityLists { edges { node { id label entityType entityListType } } } } }',
  });
  return answer.data.project.entityLists.edges.map((edge: { node: ServerList }) => edge.node);
}
const listNamed = async (label: string) => (await lists()).find((list) => list.label === label);
/** The entity ids a list holds, in its order. */
const itemsOf = async (id: string) =>
  ((await api('GET', `/api/projects/demo/lists/${id}`)).items as { entityId: string; position: number }[])
    .sort((a, b) => a.position - b.position)
    .map((item) => item.entityId);
/** Wait until the server holds what the UI asked for (the screen shows a change before the server confirms it). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > end)
      throw new Error(`the server never reached the expected state: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
/** Open these folders of the grid, those not open already, outermost first. */
async function openFolders(...names: string[]) {
  for (const name of names) {
    await gridRow(name).waitFor();
    const open = gridRow(name).getByRole('button', { name: `Open ${name}` });
    if (await open.count()) await open.click();
  }
}
const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: [
      ...['graphql', 'websocket', 'teams', 'lists', 'files', 'thumbnails', 'activities', 'reviewables'],
      'review-reports',
    ],
    screens: ['lists', 'entities'],
    admin: ADMIN,
  }));
  await api('POST', '/api/projects', { name: 'demo', code: 'dm' });
  ids.sq010 = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  for (const [shot, task, type] of [
    ['sh010', 'comp', 'Compositing'],
    ['sh020', 'lighting', 'Lighting'],
    ['sh030', 'anim', 'Animation'],
  ] as const) {
    ids[shot] = await create('folders', { name: shot, folderType: 'Shot', parentId: ids.sq010 });
    ids[task] = await create('tasks', { name: task, taskType: type, folderId: ids[shot] });
  }
  // sh010's comp published two versions, sh020's lighting one; anim nothing yet.
  const comp = await create('products', { name: 'renderComp', folderId: ids.sh010, productType: 'render' });
  ids.compV1 = await create('versions', { version: 1, productId: comp, taskId: ids.comp });
  ids.compV2 = await create('versions', { version: 2, productId: comp, taskId: ids.comp });
  const light = await create('products', { name: 'renderLight', folderId: ids.sh020, productType: 'render' });
  ids.lightV1 = await create('versions', { version: 1, productId: light, taskId: ids.lighting });

  session = await openBrowser(base);
  page = session.page;
  await holdSockets(page);
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

describe('entity lists', () => {
  it('creates a review session of versions in the lists screen', async () => {
    await page.goto(`${base}/`);
    await page.getByLabel('User name').fill(ADMIN.name);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
    await switcher.focus();
    await page.locator('option', { hasText: 'demo (dm)' }).waitFor({ state: 'attached' });
    await switcher.selectOption('demo');
    await nav('Lists').click();
    await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor();
    await page.getByText('No lists yet.').waitFor();

    await page.getByRole('button', { name: 'New list' }).click();
    const form = page.getByRole('form', { name: 'New list' });
    await form.getByLabel('Name').fill('Dailies');
    await form.getByLabel('Kind').selectOption({ label: 'Review session' });
    await form.getByLabel('Holds').selectOption({ label: 'Versions' });
    await form.getByRole('button', { name: 'Create list' }).click();
    await page.getByRole('region', { name: 'List Dailies' }).getByText('This list is empty.').waitFor();
    const created = await until(
      () => listNamed('Dailies'),
      (list) => !!list,
    );
    expect(created).toMatchObject({ entityType: 'version', entityListType: 'review-session' });
    ids.dailies = created!.id;
    // The index shows it under Versions, and the address names it so a reload opens it again.
    await page
      .getByRole('region', { name: 'Lists of versions' })
      .getByRole('button', { name: /Dailies/ })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('list')).toBe(ids.dailies);
  });

  it("adds the latest versions of the overview's selected tasks to it", async () => {
    await nav('Overview').click();
    await openFolders('sq010', 'sh010', 'sh020', 'sh030');
    await gridRow('comp').click();
    await gridRow('lighting').click({ modifiers: ['Control'] });
    await gridRow('anim').click({ modifiers: ['Control'] });
    await page
      .getByRole('toolbar', { name: 'Grid tools' })
      .getByRole('button', { name: 'Add to list' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Add to a list' });
    await dialog.getByText('Selected: 3 tasks').waitFor();
    await dialog.getByLabel('List', { exact: true }).selectOption({ label: 'Dailies' });
    await dialog.getByRole('button', { name: 'Add to list' }).click();
    // anim published nothing; comp's latest is v002.
    await dialog.getByRole('status').filter({ hasText: 'Added 2 versions to Dailies.' }).waitFor();
    expect(await itemsOf(ids.dailies)).toEqual([ids.compV2, ids.lightV1]);

    // Adding again adds nothing twice.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page
      .getByRole('toolbar', { name: 'Grid tools' })
      .getByRole('button', { name: 'Add to list' })
      .click();
    await dialog.getByLabel('List', { exact: true }).selectOption({ label: 'Dailies' });
    await dialog.getByRole('button', { name: 'Add to list' }).click();
    await dialog.getByRole('status').filter({ hasText: '2 versions were in it already.' }).waitFor();
    expect(await itemsOf(ids.dailies)).toEqual([ids.compV2, ids.lightV1]);
    await dialog.getByRole('link', { name: 'Open Dailies' }).click();
    await page.getByRole('region', { name: 'List Dailies' }).waitFor();
  });

  it('makes a new list of the selected tasks from the overview', async () => {
    await nav('Overview').click();
    await openFolders('sq010', 'sh010', 'sh030');
    await gridRow('comp').click();
    await gridRow('anim').click({ modifiers: ['Control'] });
    await page
      .getByRole('toolbar', { name: 'Grid tools' })
      .getByRole('button', { name: 'Add to list' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Add to a list' });
    await dialog.getByLabel('Name of the new list').fill('Client delivery');
    await dialog.getByLabel('Holds').selectOption({ label: 'Tasks' });
    await dialog.getByRole('button', { name: 'Add to list' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Created Client delivery with 2 tasks.' }).waitFor();
    const list = await listNamed('Client delivery');
    expect(list).toMatchObject({ entityType: 'task', entityListType: 'generic' });
    expect(new Set(await itemsOf(list!.id))).toEqual(new Set([ids.comp, ids.anim]));
    await dialog.getByRole('button', { name: 'Done' }).click();
    ids.delivery = list!.id;
  });

  it('adds an entity found by name in the lists screen', async () => {
    await nav('Lists').click();
    await page
      .getByRole('region', { name: 'Lists of tasks' })
      .getByRole('button', { name: /Client delivery/ })
      .click();
    const detail = page.getByRole('region', { name: 'List Client delivery' });
    const adding = detail.getByRole('region', { name: 'Add tasks' });
    await adding.getByLabel('Find tasks to add').fill('light');
    await adding.getByRole('button', { name: 'Find' }).click();
    await adding.getByRole('button', { name: 'Add /sq010/sh020/lighting' }).click();
    await until(
      () => itemsOf(ids.delivery),
      (order) => order.length === 3,
    );
    expect((await itemsOf(ids.delivery))[2]).toBe(ids.lighting);
    await detail.getByRole('listitem', { name: '/sq010/sh020/lighting' }).waitFor();
    // What is listed already is said so rather than offered again.
    await adding.getByText('in the list').waitFor();
  });

  it('reorders and renames a list', async () => {
    await nav('Lists').click();
    await page
      .getByRole('region', { name: 'Lists of versions' })
      .getByRole('button', { name: /Dailies/ })
      .click();
    const detail = page.getByRole('region', { name: 'List Dailies' });
    const items = detail.getByRole('list', { name: 'Items' }).getByRole('listitem');
    await items.first().waitFor();
    expect(await items.count()).toBe(2);
    const first = (await items.nth(0).getAttribute('aria-label'))!;
    expect(first).toContain('sh010');

    // The arrows...
    await detail.getByRole('button', { name: `Move ${first} down` }).click();
    await until(
      () => itemsOf(ids.dailies),
      (order) => order[0] === ids.lightV1,
    );
    await until(
      () => items.nth(1).getAttribute('aria-label'),
      (label) => label === first,
    );
    await detail
      .getByRole('status')
      .filter({ hasText: `Moved ${first} to place 2.` })
      .waitFor();
    // ...and drag and drop put it back.
    await items.nth(1).dragTo(items.nth(0));
    await until(
      () => itemsOf(ids.dailies),
      (order) => order[0] === ids.compV2,
    );
    await until(
      () => items.nth(0).getAttribute('aria-label'),
      (label) => label === first,
    );

    await detail.getByRole('button', { name: 'Rename' }).click();
    await detail.getByLabel('New name').fill('Dailies Friday');
    await detail.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('region', { name: 'List Dailies Friday' }).waitFor();
    await until(
      () => listNamed('Dailies Friday'),
      (list) => list?.id === ids.dailies,
    );
    await page.setViewportSize({ width: 1400, height: 700 });
    await screenshot(page, 'list-detail');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('saves the review report of a list of versions as a PDF', async () => {
    const detail = page.getByRole('region', { name: 'List Dailies Friday' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      detail.getByRole('button', { name: 'Report (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Dailies Friday.pdf');
    const { stdout } = await promisify(execFile)('pdftotext', [(await download.path())!, '-']);
    expect(stdout).toContain('Review: Dailies Friday');
    expect(stdout).toMatch(/renderComp v002[\s\S]*renderLight v001/);
  });

  it('opens a list of versions in review and steps through it there', async () => {
    const detail = page.getByRole('region', { name: 'List Dailies Friday' });
    await detail.getByRole('link', { name: 'Open in review' }).click();
    await page.getByRole('heading', { name: 'Review', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('version')).toBe(ids.compV2);
    const underReview = page.getByLabel('Version under review');
    await underReview.filter({ hasText: 'renderComp' }).waitFor();
    const strip = page.getByRole('navigation', { name: 'Review session Dailies Friday' });
    await strip.getByText('1 of 2').waitFor();
    await strip.getByRole('button', { name: 'Next in list' }).click();
    await underReview.filter({ hasText: 'renderLight' }).waitFor();
    await strip.getByText('2 of 2').waitFor();
    expect(new URL(page.url()).searchParams.get('version')).toBe(ids.lightV1);
    expect(await strip.getByRole('button', { name: 'Next in list' }).isDisabled()).toBe(true);
    await page.setViewportSize({ width: 1400, height: 700 });
    await screenshot(page, 'list-in-review');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('follows changes made elsewhere, removes an item and deletes the list', async () => {
    await page.goBack();
    const detail = page.getByRole('region', { name: 'List Dailies Friday' });
    const items = detail.getByRole('list', { name: 'Items' }).getByRole('listitem');
    // Another user adds v001 of comp: the list follows without a reload.
    await api('PATCH', `/api/projects/demo/lists/${ids.dailies}/items`, {
      mode: 'merge',
      items: [{ entityId: ids.compV1 }],
    });
    await detail.getByText('3 items').waitFor();
    await detail.getByRole('listitem', { name: '/sq010/sh010/renderComp/v001' }).waitFor();

    const second = (await items.nth(1).getAttribute('aria-label'))!;
    expect(second).toContain('renderLight');
    await detail.getByRole('button', { name: `Remove ${second}` }).click();
    await until(
      () => itemsOf(ids.dailies),
      (order) => order.length === 2,
    );
    expect(await itemsOf(ids.dailies)).toEqual([ids.compV2, ids.compV1]);
    await detail.getByText('2 items').waitFor();

    // A change made while the connection is down is not heard: the screen reads again once it is back.
    await serverReachable(page, false);
    await api('PATCH', `/api/projects/demo/lists/${ids.dailies}/items`, {
      mode: 'merge',
      items: [{ entityId: ids.lightV1 }],
    });
    await page.waitForTimeout(1000);
    await expect(detail.getByText('2 items').count()).resolves.toBe(1);
    await serverReachable(page, true);
    await detail.getByText('3 items').waitFor({ timeout: 15_000 });

    await detail.getByRole('button', { name: 'Delete list' }).click();
    await detail.getByRole('button', { name: 'Delete Dailies Friday' }).click();
    await page.getByRole('region', { name: 'Lists of versions' }).waitFor({ state: 'detached' });
    expect(await listNamed('Dailies Friday')).toBeUndefined();
    const gone = await core.request('GET', `/api/projects/demo/lists/${ids.dailies}`, { token });
    expect(gone.status).toBe(404);
    expect(session.pageErrors).toEqual([]);
  });

  it('closes a list deleted elsewhere with a word, and says why adding to a list gone failed', async () => {
    await page
      .getByRole('region', { name: 'Lists of tasks' })
      .getByRole('button', { name: /Client delivery/ })
      .click();
    await page.getByRole('region', { name: 'List Client delivery' }).waitFor();

    // The overview's dialog read the lists when it opened; the list goes before Add is pressed.
    await nav('Overview').click();
    await openFolders('sq010', 'sh010');
    await gridRow('comp').click();
    await page
      .getByRole('toolbar', { name: 'Grid tools' })
      .getByRole('button', { name: 'Add to list' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Add to a list' });
    await dialog.getByLabel('List', { exact: true }).selectOption({ label: 'Client delivery' });
    const gone = await core.request('DELETE', `/api/projects/demo/lists/${ids.delivery}`, { token });
    expect(gone.status).toBe(204);
    await dialog.getByRole('button', { name: 'Add to list' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: `Nothing was added: Entity list ${ids.delivery} not found` })
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The lists screen, open on a list another user then deletes, closes it and says so.
    await api('POST', '/api/projects/demo/lists', { label: 'Short-lived', entityType: 'task' });
    await nav('Lists').click();
    await page
      .getByRole('region', { name: 'Lists of tasks' })
      .getByRole('button', { name: /Short-lived/ })
      .click();
    await page.getByRole('region', { name: 'List Short-lived' }).waitFor();
    const doomed = (await listNamed('Short-lived'))!;
    await api('DELETE', `/api/projects/demo/lists/${doomed.id}`);
    await page.getByRole('status').filter({ hasText: 'Short-lived was deleted by admin.' }).waitFor();
    await page.getByRole('region', { name: 'List Short-lived' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('list')).toBeNull();
    expect(session.pageErrors).toEqual([]);
  });
});
