import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, logIn, openBrowser, startWebApp, type BrowserSession } from './browser';

// The grid works like a spreadsheet: the arrows, Tab, Enter and Escape move and edit a cell cursor, shift-click
// and shift-arrows stretch a rectangle, Ctrl+C copies it as tab-separated text and Ctrl+V pastes a block from the
// cursor (statuses and frame ranges change on the server in one request; a bad cell refuses the whole paste with
// its reason). A double-click edits the cell it was aimed at even when its first click opened the detail panel.

const ADMIN = { name: 'admin', password: 'a strong password' };
const SHOTS = ['sh010', 'sh020', 'sh030', 'sh040'];

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
const ids: Record<string, string> = {};

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });
const folder = async (name: string) =>
  (await api('GET', `/api/projects/grid/folders/${ids[name]}`)).body as {
    status: string;
    attrib: Record<string, unknown>;
  };
const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const cell = (name: string, column: string) => gridRow(name).locator(`[data-column="${column}"]`);
const cursorCell = () => page.locator('.pwo-cell[data-cursor]');
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
const toClipboard = (text: string) => page.evaluate((t) => navigator.clipboard.writeText(t), text);

/** Wait until a check of the server's state holds (the grid shows a change before the server confirms it). */
async function until(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the server never reached the expected state');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'thumbnails'],
    screens: ['entities'],
    admin: ADMIN,
  }));
  expect((await api('POST', '/api/projects', { name: 'grid', code: 'gr' })).status).toBe(201);
  ids.sq010 = (
    await api('POST', '/api/projects/grid/folders', { name: 'sq010', folderType: 'Sequence' })
  ).body.id;
  for (const name of SHOTS)
    ids[name] = (
      await api('POST', '/api/projects/grid/folders', { name, folderType: 'Shot', parentId: ids.sq010 })
    ).body.id;
  expect(
    (
      await api('PATCH', `/api/projects/grid/folders/${ids.sh010}`, {
        status: 'In progress',
        attrib: { frameStart: 1001, frameEnd: 1100 },
      })
    ).status,
  ).toBe(204);

  session = await openBrowser(base);
  page = session.page;
  await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await logIn(page, `${base}/`, ADMIN);
  const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
  await switcher.focus();
  await page.locator('option', { hasText: 'grid (gr)' }).waitFor({ state: 'attached' });
  await switcher.selectOption('grid');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Overview', exact: true })
    .click();
  await gridRow('sq010').getByRole('button', { name: 'Open sq010' }).click();
  await gridRow('sh040').waitFor();
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

describe('the grid as a spreadsheet', () => {
  it('moves a cell cursor with the arrows and Tab, edits with Enter and cancels with Escape', async () => {
    await cell('sh010', 'name').click();
    await expect(cursorCell().getAttribute('data-cell')).resolves.toBe(`${ids.sh010}|name`);
    await page.keyboard.press('ArrowDown');
    // The row selection and the details follow the cursor.
    await page.getByRole('complementary', { name: 'Details of sh020' }).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    await expect(cursorCell().getAttribute('data-cell')).resolves.toBe(`${ids.sh020}|status`);

    await page.keyboard.press('Enter');
    const editor = page.getByLabel('Status of sh020');
    await editor.waitFor();
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    expect((await folder('sh020')).status).toBe('Not ready');
    // The keyboard is back in the grid: the arrows go on moving the cursor.
    await page.keyboard.press('ArrowDown');
    await expect(cursorCell().getAttribute('data-cell')).resolves.toBe(`${ids.sh030}|status`);
    await page.keyboard.press('ArrowUp');

    // Enter on a number cell: type, Enter saves; the cursor stays and the arrows work again.
    for (let i = 0; i < 10 && (await cursorCell().getAttribute('data-column')) !== 'attrib.frameStart'; i++)
      await page.keyboard.press('ArrowRight');
    await expect(cursorCell().getAttribute('data-column')).resolves.toBe('attrib.frameStart');
    await page.keyboard.press('Enter');
    await page.keyboard.type('1201');
    await page.keyboard.press('Enter');
    await until(async () => (await folder('sh020')).attrib.frameStart === 1201);
    await page.keyboard.press('ArrowDown');
    await expect(cursorCell().getAttribute('data-cell')).resolves.toBe(`${ids.sh030}|attrib.frameStart`);
  });

  it('copies a rectangle as tab-separated text and pastes a block of frame ranges in one request', async () => {
    await cell('sh010', 'attrib.frameStart').click();
    await cell('sh010', 'attrib.frameEnd').click({ modifiers: ['Shift'] });
    await page.keyboard.press('Control+c');
    await expect(clipboard()).resolves.toBe('1001\t1100');

    await toClipboard('1001\t1050\n1051\t1120\n1121\t1200\n');
    const sent: string[] = [];
    const count = (r: { url(): string; method(): string }) =>
      r.url().endsWith('/operations') && r.method() === 'POST' && sent.push(r.url());
    page.on('request', count);
    await cell('sh020', 'attrib.frameStart').click();
    await page.keyboard.press('Control+v');
    await page.getByRole('status').filter({ hasText: 'Pasted 6 cells on 3 rows.' }).waitFor();
    page.off('request', count);
    expect(sent).toHaveLength(1);
    for (const [name, start, end] of [
      ['sh020', 1001, 1050],
      ['sh030', 1051, 1120],
      ['sh040', 1121, 1200],
    ] as const) {
      const { attrib } = await folder(name);
      expect([attrib.frameStart, attrib.frameEnd]).toEqual([start, end]);
      await cell(name, 'attrib.frameEnd')
        .filter({ hasText: String(end) })
        .waitFor();
    }
  });

  it('pastes one copied status over a rectangle of status cells, stretched with shift-arrows', async () => {
    await cell('sh010', 'status').click();
    await page.keyboard.press('Control+c');
    await expect(clipboard()).resolves.toBe('In progress');
    await cell('sh020', 'status').click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await expect(page.locator('.pwo-cell[data-in-range]').count()).resolves.toBe(3);
    await page.keyboard.press('Control+v');
    await page.getByRole('status').filter({ hasText: 'Pasted 3 cells on 3 rows.' }).waitFor();
    for (const name of ['sh020', 'sh030', 'sh040']) expect((await folder(name)).status).toBe('In progress');
  });

  it('refuses a block with a bad cell, saying which cell and why, and changes nothing', async () => {
    const sent: string[] = [];
    const count = (r: { url(): string }) => r.url().endsWith('/operations') && sent.push(r.url());
    page.on('request', count);
    await toClipboard('abc\t1100\nApproved\t1200');
    await cell('sh030', 'attrib.frameStart').click();
    await page.keyboard.press('Control+v');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Nothing pasted: sh030, Start frame: "abc" is not a whole number.' })
      .waitFor();
    await toClipboard('Done already');
    await cell('sh030', 'status').click();
    await page.keyboard.press('Control+v');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Nothing pasted: sh030, Status: "Done already" is not a status of this project' })
      .waitFor();
    page.off('request', count);
    expect(sent).toHaveLength(0);
    const { attrib, status } = await folder('sh030');
    expect([attrib.frameStart, status]).toEqual([1051, 'In progress']);
  });

  it('edits the cell a double-click aimed at, even when its first click opened the detail panel over it', async () => {
    await page.getByRole('button', { name: 'Close the details' }).click();
    await page.getByRole('complementary').waitFor({ state: 'detached' });
    // A cell on the right, where the detail panel opens.
    const cells = gridRow('sh040').locator('[role="gridcell"]');
    let target: string | null = null;
    for (let i = 0; i < (await cells.count()); i++) {
      const box = await cells.nth(i).boundingBox();
      const column = await cells.nth(i).getAttribute('data-column');
      if (box && box.x > 1150 && box.x + box.width < 1390 && column?.startsWith('attrib.')) {
        target = column;
        break;
      }
    }
    expect(target).not.toBeNull();
    await cell('sh040', target!).dblclick();
    await page.getByRole('complementary', { name: 'Details of sh040' }).waitFor();
    await cell('sh040', target!).locator('.pwo-editor').waitFor();
  });
});
