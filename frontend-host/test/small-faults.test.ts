import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, logIn, openBrowser, startWebApp, type BrowserSession } from './browser';

// Small faults a new user meets at once: the tab has an icon, and the project menu learns of a new project without
// a reload.

const ADMIN = { name: 'admin', password: 'a strong password' };
let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;
let token: string;

beforeAll(async () => {
  ({ core, base, token } = await startWebApp({
    addons: ['graphql', 'websocket'],
    screens: [],
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

describe('small faults', () => {
  it('has a favicon the server serves', async () => {
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBeTruthy();
    const icon = await page.request.get(new URL(href!, base).href);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg');
  });

  it('offers a project created elsewhere in the project menu without a reload or a click', async () => {
    const menu = page.getByRole('combobox', { name: 'Project', exact: true });
    await menu.locator('option', { hasText: 'No projects yet' }).waitFor({ state: 'attached' });
    expect(
      (await core.request('POST', '/api/projects', { token, body: { name: 'fresh', code: 'fr' } })).status,
    ).toBe(201);
    await menu.locator('option', { hasText: 'fresh (fr)' }).waitFor({ state: 'attached', timeout: 3000 });
    await menu.locator('option', { hasText: 'Choose a project…' }).waitFor({ state: 'attached' });
    expect(session.pageErrors).toEqual([]);
  });
});
