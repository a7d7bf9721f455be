import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, logIn, openBrowser, startWebApp, type BrowserSession } from './browser';

// The grid goes to a CSV file and comes back: export what is shown, edit it as a spreadsheet user would (a status,
// a frame, a new shot with a task), import it with a preview of what will be created, updated, left unchanged or
// refused, and apply it in one request.

const ADMIN = { name: 'admin', password: 'a strong password' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
const ids: Record<string, string> = {};
let exported = '';

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });
const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const tool = (name: string) =>
  page.getByRole('toolbar', { name: 'Grid tools' }).getByRole('button', { name });

interface Sheet {
  header: string[];
  rows: string[][];
}
/** The exported file holds no quotes or commas inside values here, so a plain split reads it. */
const parse = (text: string): Sheet => {
  const [header, ...rows] = text
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
  return { header: header!, rows };
};
const unparse = ({ header, rows }: Sheet) => [header, ...rows].map((r) => r.join(',')).join('\r\n') + '\r\n';
const set = (sheet: Sheet, path: string, column: string, value: string) => {
  sheet.rows.find((r) => r[0] === path)![sheet.header.indexOf(column)] = value;
};
const line = (sheet: Sheet, values: Record<string, string>) =>
  sheet.header.map((column) => values[column] ?? '');

async function importFile(text: string) {
  await page.getByLabel('CSV file to import').setInputFiles({
    name: 'edited.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(text),
  });
  const dialog = page.getByRole('dialog', { name: 'Import CSV' });
  await dialog.getByRole('status', { name: 'Import preview' }).waitFor();
  return dialog;
}

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'thumbnails'],
    screens: ['entities'],
    admin: ADMIN,
  }));
  expect((await api('POST', '/api/projects', { name: 'sheet', code: 'sht' })).status).toBe(201);
  const create = async (plural: string, body: Record<string, unknown>) =>
    (await api('POST', `/api/projects/sheet/${plural}`, body)).body.id as string;
  ids.sq010 = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  ids.sh010 = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.sq010 });
  ids.sh020 = await create('folders', { name: 'sh020', folderType: 'Shot', parentId: ids.sq010 });
  ids.comp = await create('tasks', { name: 'comp', taskType: 'Compositing', folderId: ids.sh010 });

  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/`, ADMIN);
  const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
  await switcher.focus();
  await page.locator('option', { hasText: 'sheet (sht)' }).waitFor({ state: 'attached' });
  await switcher.selectOption('sheet');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Overview', exact: true })
    .click();
  await gridRow('sq010').getByRole('button', { name: 'Open sq010' }).click();
  await gridRow('sh010').getByRole('button', { name: 'Open sh010' }).click();
  await gridRow('comp').waitFor();
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

describe('CSV export and import of the grid', () => {
  it('exports the rows and columns shown, each row named by its path', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), tool('Export CSV').click()]);
    expect(download.suggestedFilename()).toBe('sheet.csv');
    exported = await readFile((await download.path())!, 'utf8');
    const sheet = parse(exported);
    expect(sheet.header.slice(0, 5)).toEqual(['Path', 'Kind', 'Type', 'Status', 'Assignees']);
    expect(sheet.header).toContain('Start frame');
    expect(sheet.rows.map((r) => [r[0], r[1], r[2], r[3]])).toEqual([
      ['/sq010', 'folder', 'Sequence', 'Not ready'],
      ['/sq010/sh010', 'folder', 'Shot', 'Not ready'],
      ['/sq010/sh010/comp', 'task', 'Compositing', 'Not ready'],
      ['/sq010/sh020', 'folder', 'Shot', 'Not ready'],
    ]);
    // Inherited values are exported as shown: the project's default frame range.
    expect(sheet.rows[1]![sheet.header.indexOf('Start frame')]).toBe('1001');
  });

  it('previews an edited file, refusing to apply while a line is wrong', async () => {
    const sheet = parse(exported);
    set(sheet, '/sq010/sh010', 'Status', 'Approved');
    set(sheet, '/sq010/sh020', 'Start frame', '1010');
    sheet.rows.push(
      line(sheet, { Path: '/sq010/sh030', Kind: 'folder', Type: 'Shot', Status: 'In progress' }),
    );
    sheet.rows.push(line(sheet, { Path: '/sq010/sh030/anim', Kind: 'task', Type: 'Animation' }));
    sheet.rows.push(line(sheet, { Path: '/sq010/sh040', Kind: 'folder', Type: 'Planet' }));
    sheet.rows.push(line(sheet, { Path: '/sq010/sh020', 'Start frame': 'soon' }));
    const dialog = await importFile(unparse(sheet));
    await expect(dialog.getByRole('status', { name: 'Import preview' }).textContent()).resolves.toBe(
      '2 to create, 2 to update, 2 unchanged, 2 in error',
    );
    const errors = dialog.getByRole('region', { name: 'Errors' });
    await expect(errors.textContent()).resolves.toContain(
      'Line 8, /sq010/sh040: "Planet" is not a folder type of this project',
    );
    await expect(errors.textContent()).resolves.toContain(
      'Line 9, /sq010/sh020: the path is on an earlier line too',
    );
    await expect(dialog.getByRole('region', { name: 'To update' }).textContent()).resolves.toContain(
      '/sq010/sh010: Status Not ready → Approved',
    );
    expect(await dialog.getByRole('button', { name: /^Apply/ }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api('GET', '/api/projects/sheet/folders')).body.folders).toHaveLength(3);
  });

  it('applies a corrected file in one request: updates by path, new shot and task created', async () => {
    const sheet = parse(exported);
    set(sheet, '/sq010/sh010', 'Status', 'Approved');
    set(sheet, '/sq010/sh020', 'Start frame', '1010');
    // A new task listed before its new folder: the import orders them.
    sheet.rows.push(line(sheet, { Path: '/sq010/sh030/anim', Kind: 'task', Type: 'Animation' }));
    sheet.rows.push(
      line(sheet, { Path: '/sq010/sh030', Kind: 'folder', Type: 'Shot', Status: 'In progress' }),
    );
    const dialog = await importFile(unparse(sheet));
    await expect(dialog.getByRole('status', { name: 'Import preview' }).textContent()).resolves.toBe(
      '2 to create, 2 to update, 2 unchanged, 0 in error',
    );
    await expect(dialog.getByRole('region', { name: 'To create' }).textContent()).resolves.toContain(
      'task /sq010/sh030/anim (Animation)',
    );
    const sent: string[] = [];
    const count = (r: { url(): string }) => r.url().endsWith('/operations') && sent.push(r.url());
    page.on('request', count);
    await dialog.getByRole('button', { name: 'Apply 4 changes' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Imported edited.csv: 2 created, 2 updated.' })
      .waitFor();
    page.off('request', count);
    expect(sent).toHaveLength(1);

    const folders = (await api('GET', '/api/projects/sheet/folders')).body.folders as {
      id: string;
      name: string;
      status: string;
      parentId: string;
    }[];
    const byName = (name: string) => folders.find((f) => f.name === name)!;
    expect(byName('sh010').status).toBe('Approved');
    expect(byName('sh030')).toMatchObject({ status: 'In progress', parentId: ids.sq010 });
    const sh020 = (await api('GET', `/api/projects/sheet/folders/${ids.sh020}`)).body;
    expect(sh020.attrib.frameStart).toBe(1010);
    const tasks = await api('POST', '/graphql', {
      query: `{ project(name: "sheet") { tasks { edges { node { name taskType folderId } } } } }`,
    });
    expect(tasks.body.data.project.tasks.edges.map((e: { node: unknown }) => e.node)).toContainEqual({
      name: 'anim',
      taskType: 'Animation',
      folderId: byName('sh030').id,
    });
    // The grid shows the new shot without Refresh.
    await gridRow('sh030').waitFor();
    await gridRow('sh010').locator('[data-column="status"]').filter({ hasText: 'Approved' }).waitFor();
  });
});
