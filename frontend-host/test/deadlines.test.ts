import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, screenshot, startWebApp } from './browser';

// Deadlines wherever work is listed: a task past its end date and not done is marked overdue, one ending within
// three days due soon, in My tasks and in the grid, each with a filter; every dashboard tile opens the overview
// filtered to what it counts.

const ADMIN = { name: 'admin', password: 'a strong password' };
const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

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
const create = async (type: string, body: Record<string, unknown>) =>
  (await api('POST', `/api/projects/demo/${type}`, body)).id as string;
const gridRow = (name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const gridNames = () =>
  page.locator('.pwo-entity-row').evaluateAll((rows) => rows.map((r) => r.dataset.entity));
/** A row of My tasks by the task's name (a row's name starts with it: "late" is not "later"). */
const myTask = (name: string) =>
  page.getByRole('table', { name: 'My tasks' }).getByRole('row', { name: new RegExp(`^${name} `) });

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['dashboard', 'teams', 'files', 'graphql', 'websocket', 'views', 'thumbnails'],
    screens: ['entities', 'dashboard'],
    admin: ADMIN,
  }));
  await api('POST', '/api/projects', { name: 'demo', code: 'dm' });
  const shot = await create('folders', { name: 'sh010', folderType: 'Shot' });
  // Inherited end date: the shot ended a day and a half ago, so its undated unfinished task is late too.
  const ended = await create('folders', {
    name: 'sh020',
    folderType: 'Shot',
    attrib: { endDate: inDays(-1.5) },
  });
  const task = (folderId: string, name: string, status: string, endDate?: string) =>
    create('tasks', {
      name,
      folderId,
      taskType: 'Lighting',
      status,
      assignees: [ADMIN.name],
      ...(endDate ? { attrib: { endDate } } : {}),
    });
  await task(shot, 'late', 'In progress', inDays(-2.5));
  await task(shot, 'soon', 'Not ready', inDays(1.5));
  await task(shot, 'finished', 'Approved', inDays(-5));
  await task(shot, 'later', 'Not ready', inDays(20));
  await task(ended, 'inherits', 'Not ready');

  session = await openBrowser(base);
  page = session.page;
  await logIn(page, `${base}/`, ADMIN);
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

describe('deadlines', () => {
  it('marks overdue and due-soon tasks in My tasks, in words, and filters them', async () => {
    await myTask('late').waitFor();
    expect(await myTask('late').getByTitle('Overdue by 2 days').textContent()).toBe('Overdue');
    expect(await myTask('inherits').getByTitle('Overdue by 1 day').textContent()).toBe('Overdue');
    expect(await myTask('soon').getByTitle('Due in 1 day').textContent()).toBe('Due soon');
    for (const calm of ['finished', 'later']) expect(await myTask(calm).locator('.pw-due').count()).toBe(0);

    await page.getByRole('combobox', { name: 'Show my tasks' }).selectOption({ label: 'Overdue' });
    await expect(page.getByRole('table', { name: 'My tasks' }).locator('tbody tr').count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'Board' }).click();
    const card = page.locator('.home-card').filter({ hasText: 'late' });
    expect(await card.getByTitle('Overdue by 2 days').textContent()).toBe('Overdue');
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('combobox', { name: 'Show my tasks' }).selectOption({ label: 'All my tasks' });
  });

  it('opens the overview filtered to what a dashboard tile counts', async () => {
    const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
    await switcher.focus();
    await page.locator('option', { hasText: 'demo (dm)' }).waitFor({ state: 'attached' });
    await switcher.selectOption('demo');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();

    await page.getByRole('link', { name: /^2 Overdue/ }).click();
    await gridRow('late').waitFor();
    expect(await page.getByRole('combobox', { name: 'Progress filter' }).inputValue()).toBe('overdue');
    // By path, naturally: sh010's tasks before sh020's.
    expect(await gridNames()).toEqual(['late', 'inherits']);
    expect(
      await gridRow('late')
        .getByTitle(/^Overdue by 2 days/)
        .textContent(),
    ).toBe('Overdue');
    await screenshot(page, 'deadlines-overview-overdue');

    await page.getByRole('combobox', { name: 'Progress filter' }).selectOption({ label: 'Due soon' });
    await gridRow('soon').waitFor();
    expect(await gridNames()).toEqual(['soon']);
    expect(
      await gridRow('soon')
        .getByTitle(/^Due in 1 day/)
        .textContent(),
    ).toBe('Due soon');

    for (const [tile, names] of [
      [/^1 Completed/, ['finished']],
      [/^5 Tasks in all/, ['finished', 'late', 'later', 'soon', 'inherits']],
    ] as const) {
      await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await page.getByRole('link', { name: tile }).click();
      await gridRow(names[0]).waitFor();
      expect(await gridNames()).toEqual(names);
    }
    await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page
      .getByRole('table', { name: 'Tasks by status' })
      .getByRole('link', { name: 'Not ready' })
      .click();
    await gridRow('soon').waitFor();
    expect(await page.getByRole('combobox', { name: 'Status filter' }).inputValue()).toBe('Not ready');
    expect(await gridNames()).toEqual(['later', 'soon', 'inherits']);
    expect(session.pageErrors).toEqual([]);
  });
});
