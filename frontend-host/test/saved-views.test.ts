import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// The overview's look is kept on the server's views API: the working view (filters, grouping, sorting, columns)
// comes back after a reload, the column chooser's hidden, moved, resized and pinned columns are part of it, and a
// named view shared with everyone is seen and restored by a second user (a private one is not).

const ADMIN = { name: 'admin', password: 'a strong password' };
const ARTIST = { name: 'bob', password: 'another strong one' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let artistContext: BrowserContext;
let token: string;

const api = (method: string, url: string, body?: unknown, as = token) =>
  core.request(method, url, { token: as, body });

const gridRow = (on: Page, name: string) => on.locator(`.pwo-entity-row[data-entity="${name}"]`);
const tools = (on: Page) => on.getByRole('toolbar', { name: 'Grid tools' });
/** The grid's column titles, left to right. */
const headers = (on: Page) =>
  on
    .locator('.pwo-header-row [role="columnheader"]')
    .evaluateAll((cells) => cells.map((c) => c.textContent!.replace(/[▲▼]/g, '').trim()));

/** The admin's working overview view of the project, as the server keeps it. */
async function workingView(): Promise<Record<string, any> | null> {
  const res = await api('GET', '/api/views/overview/working?project_name=show');
  return res.status === 200 ? res.body.settings : null;
}

/** Wait until the server's working view satisfies `check` (the screen saves a moment after a change). */
async function workingViewBecomes(check: (settings: Record<string, any>) => boolean) {
  const deadline = Date.now() + 10_000;
  let settings = await workingView();
  while (!(settings && check(settings)) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 200));
    settings = await workingView();
  }
  expect(settings && check(settings)).toBe(true);
}

async function logIn(on: Page, who: { name: string; password: string }) {
  await on.goto(`${base}/`);
  await on.getByLabel('User name').fill(who.name);
  await on.getByLabel('Password').fill(who.password);
  await on.getByRole('button', { name: 'Log in' }).click();
  const switcher = on.getByRole('combobox', { name: 'Project', exact: true });
  await switcher.focus();
  await on.locator('option', { hasText: 'show (sh)' }).waitFor({ state: 'attached' });
  await switcher.selectOption('show');
  await on
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Overview', exact: true })
    .click();
}

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'thumbnails', 'views'],
    screens: ['entities'],
    admin: ADMIN,
  }));
  expect((await api('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  expect(
    (
      await api('PUT', `/api/users/${ARTIST.name}`, {
        password: ARTIST.password,
        data: { accessGroups: { show: ['artist'] } },
      })
    ).status,
  ).toBe(204);
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/show/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const sequence = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  await create('folders', { name: 'sh010', folderType: 'Shot', parentId: sequence, status: 'In progress' });
  await create('folders', { name: 'sh020', folderType: 'Shot', parentId: sequence });
  await create('folders', { name: 'sh030', folderType: 'Shot', parentId: sequence, status: 'In progress' });

  session = await openBrowser(base);
  page = session.page;
  await logIn(page, ADMIN);
  await gridRow(page, 'sq010').waitFor();
}, 120_000);

afterAll(async () => {
  await artistContext?.close();
  await closeAll(session, core);
});

describe('saved views of the overview', () => {
  it('keeps filters, grouping and sorting as the working view, restored after a reload', async () => {
    await tools(page).getByLabel('Status filter').selectOption('In progress');
    await tools(page).getByLabel('Group by').selectOption('type');
    await page.getByRole('columnheader', { name: 'Name' }).getByRole('button').click();
    await gridRow(page, 'sh030').waitFor();
    await workingViewBecomes(
      (s) =>
        s.groupBy === 'type' &&
        s.sortBy === 'name' &&
        s.sortDesc === true &&
        s.filter?.conditions?.some(
          (c: { key: string; value: string }) => c.key === 'status' && c.value === 'In progress',
        ),
    );

    await page.reload();
    await gridRow(page, 'sh030').waitFor();
    await expect(tools(page).getByLabel('Status filter').inputValue()).resolves.toBe('In progress');
    await expect(tools(page).getByLabel('Group by').inputValue()).resolves.toBe('type');
    await expect(page.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).resolves.toBe(
      'descending',
    );
    // Only what the filter lets through, newest name first.
    await expect(gridRow(page, 'sh020').count()).resolves.toBe(0);
    const names = await page
      .locator('.pwo-entity-row')
      .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.entity));
    expect(names).toEqual(['sh030', 'sh010']);
  });

  it('hides, moves, resizes and pins columns with the chooser, and they stay after a reload', async () => {
    await tools(page).getByRole('button', { name: 'Columns', exact: true }).click();
    const chooser = page.getByRole('dialog', { name: 'Columns' });
    await chooser.getByLabel('Show Assignees').uncheck();
    await chooser.getByRole('button', { name: 'Move Status up' }).click();
    const width = chooser.getByLabel('Width of Type');
    await width.fill('210');
    await width.press('Enter');
    await chooser.getByLabel('Pin Status').check();
    await screenshot(page, 'overview-column-chooser');
    await tools(page).getByRole('button', { name: 'Columns', exact: true }).click();

    const arranged = async () => {
      const titles = await headers(page);
      expect(titles.slice(0, 3)).toEqual(['Name', 'Status', 'Type']);
      expect(titles).not.toContain('Assignees');
      await expect(
        page.getByRole('columnheader', { name: 'Type' }).evaluate((c) => (c as HTMLElement).style.width),
      ).resolves.toBe('210px');
      // Pinned: stays in view next to the name while the other columns scroll sideways.
      await expect(page.getByRole('columnheader', { name: 'Status' }).getAttribute('class')).resolves.toMatch(
        /pwo-cell-sticky/,
      );
    };
    await arranged();
    await workingViewBecomes((s) =>
      s.columns?.some((c: { name: string; visible: boolean }) => c.name === 'assignees' && !c.visible),
    );
    const stored = (await workingView())!.columns as {
      name: string;
      pinned: boolean;
      width: number | null;
    }[];
    expect(stored.slice(0, 3).map((c) => c.name)).toEqual(['name', 'status', 'type']);
    expect(stored.find((c) => c.name === 'type')!.width).toBe(210);
    expect(stored.find((c) => c.name === 'status')!.pinned).toBe(true);

    await page.reload();
    await gridRow(page, 'sh030').waitFor();
    await arranged();
    await screenshot(page, 'overview-columns');
  });

  it('saves a named view shared with everyone, which a second user sees and restores', async () => {
    await tools(page).getByRole('button', { name: 'Views', exact: true }).click();
    let menu = page.getByRole('dialog', { name: 'Saved views' });
    await menu.getByText('No saved views yet').waitFor();
    await menu.getByLabel('View name').fill('In progress by type');
    await menu.getByLabel('Share with everyone').check();
    await menu.getByRole('button', { name: 'Save view' }).click();
    await menu.getByRole('button', { name: 'Restore In progress by type' }).waitFor();
    // A private one besides, which nobody else sees.
    await menu.getByLabel('View name').fill('Just mine');
    await menu.getByRole('button', { name: 'Save view' }).click();
    await menu.getByRole('button', { name: 'Restore Just mine' }).waitFor();
    const saved = (await api('GET', '/api/views/overview?project_name=show')).body.views;
    expect(
      Object.fromEntries(saved.map((v: { label: string; visibility: string }) => [v.label, v.visibility])),
    ).toMatchObject({ 'In progress by type': 'public', 'Just mine': 'private' });
    await tools(page).getByRole('button', { name: 'Views', exact: true }).click();

    // The artist, in their own session, starts from the plain hierarchy.
    artistContext = await session.browser.newContext({ viewport: { width: 1400, height: 900 } });
    const artist = await artistContext.newPage();
    artist.setDefaultTimeout(10_000);
    await logIn(artist, ARTIST);
    await gridRow(artist, 'sq010').waitFor();
    await expect(tools(artist).getByLabel('Status filter').inputValue()).resolves.toBe('');
    await expect(headers(artist)).resolves.toContain('Assignees');

    await tools(artist).getByRole('button', { name: 'Views', exact: true }).click();
    menu = artist.getByRole('dialog', { name: 'Saved views' });
    const shared = menu.locator('li[data-view="In progress by type"]');
    await shared.waitFor();
    await expect(shared.textContent()).resolves.toContain(`by ${ADMIN.name}`);
    // Someone else's view may be restored, not deleted.
    await expect(shared.getByRole('button', { name: /^Delete/ }).count()).resolves.toBe(0);
    await expect(menu.locator('li[data-view="Just mine"]').count()).resolves.toBe(0);
    await screenshot(artist, 'overview-saved-views');
    await menu.getByRole('button', { name: 'Restore In progress by type' }).click();

    await gridRow(artist, 'sh030').waitFor();
    await expect(tools(artist).getByLabel('Status filter').inputValue()).resolves.toBe('In progress');
    await expect(tools(artist).getByLabel('Group by').inputValue()).resolves.toBe('type');
    const titles = await headers(artist);
    expect(titles.slice(0, 3)).toEqual(['Name', 'Status', 'Type']);
    expect(titles).not.toContain('Assignees');
    await expect(gridRow(artist, 'sh020').count()).resolves.toBe(0);

    // The owner shares the private one afterwards: the artist sees it when their menu next opens.
    await tools(page).getByRole('button', { name: 'Views', exact: true }).click();
    menu = page.getByRole('dialog', { name: 'Saved views' });
    await menu.getByRole('button', { name: 'Share Just mine' }).click();
    await menu.getByRole('button', { name: 'Make private Just mine' }).waitFor();
    await tools(artist).getByRole('button', { name: 'Views', exact: true }).click();
    await artist.getByRole('dialog', { name: 'Saved views' }).locator('li[data-view="Just mine"]').waitFor();

    // The owner deletes the first: gone for everyone.
    await menu.getByRole('button', { name: 'Delete In progress by type' }).click();
    await menu.getByRole('button', { name: 'Restore In progress by type' }).waitFor({ state: 'detached' });
    const left = await api('GET', '/api/views/overview?project_name=show');
    expect(left.body.views.map((v: { label: string }) => v.label)).not.toContain('In progress by type');
    expect(session.pageErrors).toEqual([]);
  });
});
