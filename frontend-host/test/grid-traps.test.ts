import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, startWebApp } from './browser';

// The small traps of the grid and around it: Home in a studio without projects says how to make the first one; a
// project just created is the one chosen; sorting by name keeps each sequence's shots together in natural order;
// filters that cannot both hold say so with a one-click way out; shift-click extends the selection, not the page's
// text selection.

const ADMIN = { name: 'admin', password: 'a strong password' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;

const api = async (method: string, url: string, body?: unknown) => {
  const answer = await core.request(method, url, { token, body });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
  return answer.body;
};
const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const gridPaths = () =>
  page
    .locator('.pwo-entity-row .pwo-name-text')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('title')));
const nav = (label: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'websocket', 'views', 'thumbnails'],
    screens: ['entities', 'projects'],
    admin: ADMIN,
  }));
  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/`, ADMIN);
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

describe('the traps of the grid', () => {
  it('says on Home how to create the first project when there is none', async () => {
    await page.getByText('There is no project yet.').waitFor();
    expect(await page.getByText('Choose a project in the top bar').count()).toBe(0);
    await page.getByRole('link', { name: 'Create the first project' }).waitFor();
  });

  it('chooses a project in the project menu as soon as it is created', async () => {
    await nav('Projects').click();
    await page.getByRole('form', { name: 'New project' }).getByLabel('Name').fill('fresh');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByText('Project fresh is ready.').waitFor();
    const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
    await page.locator('option', { hasText: 'fresh' }).waitFor({ state: 'attached' });
    await switcher.locator('option:checked', { hasText: 'fresh' }).waitFor({ state: 'attached' });
    expect(await switcher.inputValue()).toBe('fresh');
  });

  it('sorts by path, naturally, with each sequence holding its own shots', async () => {
    const folder = async (name: string, parentId?: string) =>
      (
        await api('POST', '/api/projects/fresh/folders', {
          name,
          folderType: parentId ? 'Shot' : 'Sequence',
          ...(parentId ? { parentId } : {}),
        })
      ).id as string;
    for (const sequence of ['sq020', 'sq010']) {
      const id = await folder(sequence);
      for (const shot of sequence === 'sq010' ? ['sh10', 'sh2'] : ['sh3', 'sh1']) {
        const shotId = await folder(shot, id);
        await api('POST', '/api/projects/fresh/tasks', {
          name: 'comp',
          taskType: 'Compositing',
          folderId: shotId,
        });
      }
    }
    // Chosen here too, so this case stands on its own.
    await page.getByRole('combobox', { name: 'Project', exact: true }).selectOption('fresh');
    await nav('Overview').click();
    await gridRow('sq010').waitFor();
    await page.getByRole('searchbox', { name: 'Filter by name or path' }).fill('sh');
    await gridRow('sh10').waitFor();
    expect((await gridPaths()).filter((p) => !p!.endsWith('/comp'))).toEqual([
      '/sq010/sh2',
      '/sq010/sh10',
      '/sq020/sh1',
      '/sq020/sh3',
    ]);
    // Descending turns the order of siblings round; each shot still comes before its task.
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await page
      .getByRole('columnheader', { name: 'Name' })
      .and(page.locator('[aria-sort="descending"]'))
      .waitFor();
    await expect(gridPaths()).resolves.toEqual([
      '/sq020/sh3',
      '/sq020/sh3/comp',
      '/sq020/sh1',
      '/sq020/sh1/comp',
      '/sq010/sh10',
      '/sq010/sh10/comp',
      '/sq010/sh2',
      '/sq010/sh2/comp',
    ]);
  });

  it('extends a selection with shift-click without selecting the text of the page', async () => {
    await gridRow('sh2').locator('[data-column="name"]').click();
    await gridRow('sh3')
      .locator('[data-column="name"]')
      .click({ modifiers: ['Shift'] });
    await expect(page.locator('.pwo-entity-row[aria-selected="true"]').count()).resolves.toBeGreaterThan(4);
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
  });

  it('says when filters cannot both hold, and clears the one in the way in one click', async () => {
    await page.getByRole('searchbox', { name: 'Filter by name or path' }).fill('');
    await page.getByRole('combobox', { name: 'Type filter' }).selectOption('Shot');
    await gridRow('sh10').waitFor();
    await page.getByRole('combobox', { name: 'Show', exact: true }).selectOption({ label: 'Tasks only' });
    const hint = page.getByRole('status').filter({ hasText: 'Shot is a folder type' });
    await hint.waitFor();
    await hint.getByRole('button', { name: 'Clear the type filter' }).click();
    await gridRow('comp').first().waitFor();
    expect(await page.getByRole('combobox', { name: 'Type filter' }).inputValue()).toBe('');
    expect(await page.locator('.pwo-entity-row').count()).toBe(4);
    expect(session.pageErrors).toEqual([]);
  });
});
