import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { type BrowserSession, closeAll, logIn, openBrowser, screenshot, startWebApp } from './browser';

// What the server would refuse is not offered: an artist whose access group lets them read, update and publish
// only in sq010, but not create or delete sees those buttons disabled with the reason on hover, edits cells of sq010 only,
// and publishes versions only as themselves; an administrator has them all. The Users screen sums up what a manager reaches.

const ADMIN = { name: 'admin', password: 'a strong password' };
const ARTIST = { name: 'artie', password: 'artie password', fullName: 'Artie Sanders' };
const MANAGER = { name: 'mia', password: 'mia password', fullName: 'Mia Manager' };

let core: TestCore;
let base: string;
let session: BrowserSession;
let admin: Page;
let artist: Page;
let artistContext: BrowserContext;
let token: string;

const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });
const gridRow = (page: Page, name: string) => page.locator(`.pwo-entity-row[data-entity="${name}"]`);
const button = (page: Page, name: string, state: { disabled?: boolean } = {}) =>
  page.getByRole('toolbar', { name: 'Grid tools' }).getByRole('button', { name, exact: true, ...state });

async function openOverview(page: Page, who: { name: string; password: string }) {
  await logIn(page, `${base}/`, who);
  const switcher = page.getByRole('combobox', { name: 'Project', exact: true });
  await switcher.focus();
  await page.locator('option', { hasText: 'demo (dm)' }).waitFor({ state: 'attached' });
  await switcher.selectOption('demo');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Overview', exact: true })
    .click();
  await gridRow(page, 'sq010').getByRole('button', { name: 'Open sq010' }).click();
  await gridRow(page, 'sh010').waitFor();
}

/** The names the Author list of the New version dialog offers, for the folder sh010. */
async function authorChoices(page: Page): Promise<string[]> {
  await gridRow(page, 'sh010').click();
  await button(page, 'New version').click();
  const dialog = page.getByRole('dialog', { name: 'New version' });
  const author = dialog.getByLabel('Author');
  await author.locator('option').first().waitFor({ state: 'attached' });
  const choices = await author.locator('option').allTextContents();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  return choices;
}

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['access', 'graphql', 'thumbnails'],
    screens: ['entities'],
    admin: ADMIN,
  }));
  // Reading anywhere, updating and publishing in sq010; creating and deleting nowhere.
  const noWhere = { enabled: true, access_list: [] };
  const inSq010 = { enabled: true, access_list: [{ access_type: 'hierarchy', path: 'sq010' }] };
  const group = { create: noWhere, delete: noWhere, update: inSq010, publish: inSq010 };
  expect((await api('PUT', '/api/accessGroups/artist/_', group)).status).toBe(204);
  expect((await api('POST', '/api/projects', { name: 'demo', code: 'dm' })).status).toBe(201);
  for (const [who, data] of [
    [ARTIST, { accessGroups: { demo: ['artist'] } }],
    [MANAGER, { isManager: true }],
  ] as const) {
    const res = await api('PUT', `/api/users/${who.name}`, {
      password: who.password,
      attrib: { fullName: who.fullName },
      data,
    });
    expect(res.status).toBe(204);
  }
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await api('POST', `/api/projects/demo/${plural}`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const sequence = await create('folders', { name: 'sq010', folderType: 'Sequence' });
  await create('folders', { name: 'sq020', folderType: 'Sequence' });
  const shot = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: sequence });
  await create('tasks', { name: 'comp', taskType: 'Compositing', folderId: shot });
  await create('products', { name: 'renderMain', productType: 'render', folderId: shot });

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

describe('permission-aware screens', () => {
  it('shows an artist New folder and Delete disabled, with the reason on hover', async () => {
    await openOverview(artist, ARTIST);
    // What the user may do is read as the overview opens: the button turns disabled then, not later.
    const newFolder = button(artist, 'New folder', { disabled: true });
    await newFolder.hover({ timeout: 5_000 });
    await expect(newFolder.getAttribute('title')).resolves.toBe(
      'Your access groups do not allow creating folders in this project',
    );
    await gridRow(artist, 'sq010').click();
    const remove = button(artist, 'Delete', { disabled: true });
    await remove.hover({ timeout: 5_000 });
    await expect(remove.getAttribute('title')).resolves.toBe(
      'Your access groups do not allow deleting in this project',
    );
    // Updating is allowed, so renaming stays on offer.
    await expect(button(artist, 'Rename').isDisabled()).resolves.toBe(false);
    await screenshot(artist, 'permission-aware-artist');
  });

  it('lets the artist edit cells and publish only where their group allows it', async () => {
    const statusOf = (name: string) => gridRow(artist, name).locator('[data-column="status"]');
    await expect(statusOf('sq020').getAttribute('title')).resolves.toBe(
      'Your access groups do not allow changing entities in /sq020',
    );
    await statusOf('sq020').dblclick();
    await artist.waitForTimeout(300);
    await expect(artist.getByLabel('Status of sq020').count()).resolves.toBe(0);
    await statusOf('sq010').dblclick();
    await artist.getByLabel('Status of sq010').waitFor();
    await artist.keyboard.press('Escape');
    // Publishing follows the same scope.
    await gridRow(artist, 'sq020').click();
    const newVersion = button(artist, 'New version', { disabled: true });
    await newVersion.hover({ timeout: 5_000 });
    await expect(newVersion.getAttribute('title')).resolves.toBe(
      'Your access groups do not allow publishing in /sq020',
    );
  });

  it('offers the artist only themselves as the author of a new version', async () => {
    await expect(authorChoices(artist)).resolves.toEqual(['Me (artie)']);
  });

  it('gives an administrator New folder, Delete and every author', async () => {
    await openOverview(admin, ADMIN);
    await expect(button(admin, 'New folder').isDisabled()).resolves.toBe(false);
    await gridRow(admin, 'sq010').click();
    await expect(button(admin, 'Delete').isDisabled()).resolves.toBe(false);
    const choices = await authorChoices(admin);
    expect(choices).toEqual(expect.arrayContaining(['Me', 'Artie Sanders (artie)', 'Mia Manager (mia)']));
  });

  it("sums up a manager's access on the Users screen", async () => {
    await admin.getByRole('navigation').getByRole('link', { name: 'Users', exact: true }).click();
    await admin.getByRole('heading', { name: 'People and access', level: 1 }).waitFor();
    await admin
      .getByRole('table', { name: 'Users' })
      .getByRole('row')
      .filter({ hasText: 'Mia Manager' })
      .click();
    const summary = admin
      .getByRole('complementary', { name: 'User mia' })
      .getByRole('region', { name: 'Access summary' });
    await expect(summary.textContent()).resolves.toContain('managers see every project');
    await admin
      .getByRole('table', { name: 'Users' })
      .getByRole('row')
      .filter({ hasText: 'Artie Sanders' })
      .click();
    const artistSummary = admin
      .getByRole('complementary', { name: 'User artie' })
      .getByRole('region', { name: 'Access summary' });
    await expect(artistSummary.textContent()).resolves.toContain('demo: artist');
    await screenshot(admin, 'permission-aware-users');
  });
});
