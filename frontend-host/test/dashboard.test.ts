import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// A coordinator opens the project dashboard from the project's navigation: the figures it shows are the ones a
// seeded project has (counts, tasks by status, overdue tasks, people), and a change made elsewhere shows
// without a reload.

const ADMIN = { name: 'admin', password: 'a strong password' };
const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;
let shot: string;

const api = async (method: string, url: string, body?: unknown) => {
  const answer = await core.request(method, url, { token, body });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
  return answer.body;
};
const create = async (type: string, body: Record<string, unknown>) =>
  (await api('POST', `/api/projects/demo/${type}`, body)).id as string;
/** The number a figure of the dashboard shows, by the figure's name. */
const figure = (name: string): Locator =>
  page.getByRole('group', { name, exact: true }).locator('.pwd-value');
/** Wait until the figure shows exactly this (the screen reads the server after it appears). */
const shows = (name: string, value: string) =>
  page
    .getByRole('group', { name, exact: true })
    .locator('.pwd-value', { hasText: new RegExp(`^${value}$`) })
    .waitFor();

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['dashboard', 'teams', 'files', 'graphql', 'websocket'],
    screens: ['dashboard'],
    admin: ADMIN,
  }));
  for (const [name, groups] of [
    ['ann', ['artist']],
    ['bob', ['supervisor']],
  ] as const)
    await api('PUT', `/api/users/${name}`, {
      password: 'a password long enough',
      data: { accessGroups: { demo: groups } },
    });
  await api('POST', '/api/projects', { name: 'demo', code: 'dm' });

  // Three shots (sh020 ended a day and a half ago), five tasks: two overdue, two approved.
  shot = await create('folders', { name: 'sh010', folderType: 'Shot' });
  const ended = await create('folders', {
    name: 'sh020',
    folderType: 'Shot',
    attrib: { endDate: inDays(-1.5) },
  });
  await create('folders', { name: 'sh030', folderType: 'Shot' });
  const task = (folderId: string, name: string, status: string, endDate?: string) =>
    create('tasks', {
      name,
      folderId,
      taskType: 'Lighting',
      status,
      ...(endDate ? { attrib: { endDate } } : {}),
    });
  const early = await task(shot, 'early', 'Approved', inDays(10));
  await task(shot, 'late', 'In progress', inDays(-3.5));
  await task(ended, 'inherits', 'Not ready');
  await task(shot, 'undated', 'Approved');
  await task(shot, 'upcoming', 'Not ready', inDays(20));
  const product = await create('products', { name: 'renderMain', folderId: shot, productType: 'render' });
  await create('versions', { version: 1, productId: product, taskId: early });
  await create('versions', { version: 2, productId: product });

  session = await openBrowser(base);
  page = session.page;
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
});

describe('the project dashboard', () => {
  it('shows the figures the server holds for the project', async () => {
    await page.goto(`${base}/`);
    await page.getByLabel('User name').fill(ADMIN.name);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
    await switcher.focus();
    await page.locator('option', { hasText: 'demo (dm)' }).waitFor({ state: 'attached' });
    await switcher.selectOption('demo');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    const counts = await api('GET', '/api/projects/demo/dashboard/entities');
    const health = await api('GET', '/api/projects/demo/dashboard/health');
    const people = await api('GET', '/api/projects/demo/dashboard/users');
    // What was seeded, as the server counts it...
    expect(counts).toMatchObject({ folders: 3, tasks: 5, products: 1, versions: 2 });
    expect(health.tasks).toEqual({ total: 5, completed: 2, overdue: 2 });
    // ...and as the screen shows it.
    await shows('Folders', '3');
    expect(await figure('Tasks').textContent()).toBe('5');
    expect(await figure('Products').textContent()).toBe('1');
    expect(await figure('Versions').textContent()).toBe('2');
    expect(await figure('Tasks in all').textContent()).toBe('5');
    expect(await figure('Completed').textContent()).toBe('2');
    expect(await figure('Overdue').textContent()).toBe('2');
    await page.getByText(`${health.completion.percentage}% of the tasks are done`).waitFor();
    const byStatus = page.getByRole('table', { name: 'Tasks by status' });
    for (const [status, count] of [
      ['Not ready', '2'],
      ['In progress', '1'],
      ['Approved', '2'],
    ])
      expect(await byStatus.getByRole('row', { name: status }).getByRole('cell').last().textContent()).toBe(
        count,
      );
    expect(await figure('Users with access').textContent()).toBe(
      `${people.usersWithAccessActive} / ${people.usersWithAccessTotal}`,
    );
    const roles = page.getByRole('table', { name: 'Users by access group' });
    expect(await roles.getByRole('row', { name: 'artist' }).textContent()).toContain(
      String(people.roles.artist),
    );
    expect(people.roles).toMatchObject({ artist: 1, supervisor: 1 });
    // Today's changes (the seeding) make the last day of the chart the busiest.
    await page.getByRole('img', { name: /^Changes on 1 of the last 30 days/ }).waitFor();
    // The content scrolls inside the layout: a taller window shows all of it in the screenshot.
    await page.setViewportSize({ width: 1400, height: 1150 });
    await screenshot(page, 'dashboard-figures');
    expect(session.pageErrors).toEqual([]);
  });

  it('follows changes made elsewhere without Refresh', async () => {
    await create('tasks', { name: 'comp', folderId: shot, taskType: 'Compositing', status: 'Approved' });
    await shows('Tasks', '6');
    expect(await figure('Completed').textContent()).toBe('3');
  });
});
