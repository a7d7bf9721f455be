import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, logIn, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// A coordinator shapes a show in the overview alone: a sequence of five sibling shots and three tasks per shot in
// bulk, new folders next to (never inside) the one just made, rename, move and delete with AYON's rules said
// plainly, and undo of the last change.

const ADMIN = { name: 'admin', password: 'a strong password' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
const ids: Record<string, string> = {};

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });

interface Row {
  id: string;
  name: string;
  parentId?: string | null;
  folderId?: string;
}
async function folders(): Promise<Row[]> {
  return (await api('GET', '/api/projects/show/folders')).body.folders;
}
async function folder(name: string): Promise<Row | undefined> {
  return (await folders()).find((f) => f.name === name);
}
async function tasks(): Promise<Row[]> {
  const res = await api('POST', '/graphql', {
    query: `{ project(name: "show") { tasks { edges { node { id name folderId } } } } }`,
  });
  return res.body.data.project.tasks.edges.map((e: { node: Row }) => e.node);
}

const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const button = (name: string | RegExp) =>
  page.getByRole('toolbar', { name: 'Grid tools' }).getByRole('button', { name });

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'thumbnails'],
    screens: ['entities'],
    admin: ADMIN,
  }));
  expect((await api('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  const episode = await api('POST', '/api/projects/show/folders', { name: 'ep01', folderType: 'Episode' });
  ids.episode = episode.body.id;
  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/`, ADMIN);
  const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
  await switcher.focus();
  await page.locator('option', { hasText: 'show (sh)' }).waitFor({ state: 'attached' });
  await switcher.selectOption('show');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Overview', exact: true })
    .click();
  await gridRow('ep01').waitFor();
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

describe('hierarchy editing in the overview', () => {
  it('creates a sequence with five sibling shots in one atomic request, after a preview of the names', async () => {
    await gridRow('ep01').click();
    await button('Create in bulk').click();
    const dialog = page.getByRole('dialog', { name: 'Create in bulk' });
    await dialog.getByLabel('Container folder (optional)').fill('sq010');
    await dialog.getByLabel('Container type').selectOption('Sequence');
    await dialog.getByLabel('First name').fill('sh010');
    await dialog.getByLabel('Last name').fill('sh050');
    await dialog.getByLabel('Step').fill('10');
    await dialog.getByLabel('Type of the numbered folders').selectOption('Shot');
    await expect(dialog.getByRole('status', { name: 'Preview' }).textContent()).resolves.toBe(
      'sq010 (Sequence) in /ep01, with 5 Shot folders: sh010, sh020, sh030, sh040, sh050',
    );
    const sent: string[] = [];
    page.on('request', (r) => r.url().endsWith('/operations') && sent.push(r.url()));
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await gridRow('sh050').waitFor();
    expect(sent).toHaveLength(1);

    const all = await folders();
    const sequence = all.find((f) => f.name === 'sq010')!;
    expect(sequence.parentId).toBe(ids.episode);
    const shots = all.filter((f) => f.parentId === sequence.id).map((f) => f.name);
    expect(shots.sort()).toEqual(['sh010', 'sh020', 'sh030', 'sh040', 'sh050']);
    ids.sequence = sequence.id;
    // The episode stays chosen: the next folder made goes next to sq010, not inside it.
    await expect(gridRow('ep01').getAttribute('aria-selected')).resolves.toBe('true');
  });

  it('keeps the selection on the parent after New folder, so folders made one after another are siblings', async () => {
    for (const name of ['sq020', 'sq030']) {
      await button('New folder').click();
      const dialog = page.getByRole('dialog', { name: 'New folder' });
      await expect(dialog.getByLabel('Where').locator('option:checked').textContent()).resolves.toBe(
        'Inside /ep01',
      );
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('Folder type').selectOption('Sequence');
      await dialog.getByRole('button', { name: 'Create folder' }).click();
      await gridRow(name).waitFor();
    }
    const all = await folders();
    expect(all.find((f) => f.name === 'sq020')!.parentId).toBe(ids.episode);
    expect(all.find((f) => f.name === 'sq030')!.parentId).toBe(ids.episode);
  });

  it('adds three tasks to each selected shot in one go, named from the anatomy task types', async () => {
    await gridRow('sh010').click();
    await gridRow('sh050').click({ modifiers: ['Shift'] });
    await button('Create in bulk').click();
    const dialog = page.getByRole('dialog', { name: 'Create in bulk' });
    await expect(
      dialog.getByRole('radio', { name: /Tasks on the selected folders/ }).isChecked(),
    ).resolves.toBe(true);
    for (const type of ['Animation', 'Lighting', 'Compositing'])
      await dialog.getByRole('checkbox', { name: type }).check();
    await expect(dialog.getByRole('status', { name: 'Preview' }).textContent()).resolves.toBe(
      '15 tasks on 5 folders: animation, lighting, compositing',
    );
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Created 15 tasks.' }).waitFor();
    const made = await tasks();
    const shotIds = new Set((await folders()).filter((f) => f.parentId === ids.sequence).map((f) => f.id));
    expect(made.filter((t) => shotIds.has(t.folderId!))).toHaveLength(15);
    await screenshot(page, 'hierarchy-bulk');
  });

  it('renames a shot and undoes it', async () => {
    // Out of the five shots' selection first: a click inside a selection keeps it.
    await gridRow('sq020').click();
    await gridRow('sh050').click();
    await button('Rename').click();
    const dialog = page.getByRole('dialog', { name: 'Rename sh050' });
    await dialog.getByLabel('Name').fill('sh055');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await gridRow('sh055').waitFor();
    expect(await folder('sh055')).toBeDefined();

    await button('Undo: rename sh050 to sh055').click();
    await gridRow('sh050').waitFor();
    await expect(gridRow('sh055').count()).resolves.toBe(0);
    expect(await folder('sh055')).toBeUndefined();
    expect((await folder('sh050'))!.parentId).toBe(ids.sequence);
  });

  it('moves a shot to another sequence with the move dialog', async () => {
    await gridRow('sh040').click();
    await button('Move').click();
    const dialog = page.getByRole('dialog', { name: 'Move sh040' });
    await dialog.getByLabel('Find a folder').fill('sq020');
    await dialog.getByLabel('New parent').selectOption({ label: '/ep01/sq020' });
    await dialog.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('status').filter({ hasText: 'Moved sh040 to /ep01/sq020.' }).waitFor();
    expect((await folder('sh040'))!.parentId).toBe((await folder('sq020'))!.id);
    // Not shown twice: it left sq010 and shows once, under the now open sq020.
    await expect(gridRow('sh040').count()).resolves.toBe(1);
  });

  it('deletes a shot, and undo brings it back with its id', async () => {
    const before = (await folder('sh030'))!;
    await gridRow('sh030').click();
    await button(/^Delete$/).click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await dialog.getByText('Delete folder /ep01/sq010/sh030 with everything inside?').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted sh030.' }).waitFor();
    await expect(gridRow('sh030').count()).resolves.toBe(0);
    expect(await folder('sh030')).toBeUndefined();

    await button('Undo: delete sh030').click();
    await gridRow('sh030').waitFor();
    expect((await folder('sh030'))!.id).toBe(before.id);
  });

  it('says plainly why a folder with published versions cannot be renamed, and asks before deleting its products', async () => {
    const shot = (await folder('sh010'))!;
    const product = await api('POST', '/api/projects/show/products', {
      name: 'renderMain',
      productType: 'render',
      folderId: shot.id,
    });
    expect(product.status).toBe(201);
    expect(
      (await api('POST', '/api/projects/show/versions', { version: 1, productId: product.body.id })).status,
    ).toBe(201);

    await gridRow('sh010').click();
    await button('Rename').click();
    const rename = page.getByRole('dialog', { name: 'Rename sh010' });
    await rename.getByLabel('Name').fill('sh011');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename
      .getByRole('alert')
      .filter({ hasText: 'Not renamed: sh010 holds published versions, so it cannot be renamed or moved.' })
      .waitFor();
    await rename.getByRole('button', { name: 'Cancel' }).click();

    await button(/^Delete$/).click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'product(s) below it' }).waitFor();
    expect(await folder('sh010')).toBeDefined();
    await dialog.getByRole('button', { name: 'Delete with its products' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted sh010.' }).waitFor();
    expect(await folder('sh010')).toBeUndefined();
    expect(session.pageErrors).toEqual([]);
  });
});
