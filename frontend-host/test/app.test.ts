import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { importAddon } from '@pipewright/core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, openBrowser, startWebApp, type BrowserSession } from './browser';

// The built app in a real browser against a real server on a real port: what a studio's staff would see.
const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, 'fixtures');
const ADMIN = { name: 'admin', password: 'a strong password' };

function buildSampleRemote() {
  const cwd = join(fixtures, 'sample-remote', 'frontend');
  const rsbuild = resolve(here, '../../node_modules/.bin/rsbuild');
  const result = spawnSync(rsbuild, ['build'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'production' },
  });
  if (result.status !== 0)
    throw new Error(`building the sample remote failed:\n${result.stdout}\n${result.stderr}`);
}

let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;

beforeAll(async () => {
  buildSampleRemote();
  // No administrator: the first test onboards through the page.
  ({ core, base } = await startWebApp({
    addons: ['sample', 'broken'],
    screens: [],
    extraAddons: await Promise.all(
      ['sample-remote', 'broken-remote'].map((name) => importAddon(join(fixtures, name), false)),
    ),
  }));
  // Everything the app needs comes from its own server; anything else is recorded and refused. Uncaught errors in
  // the page (a remote built for Node, a shell bug) fail the last test instead of hiding.
  session = await openBrowser(base);
  page = session.page;
}, 120_000);

afterAll(() => closeAll(session, core));

async function apiToken(): Promise<string> {
  const login = await core.request('POST', '/api/auth/login', { body: ADMIN });
  expect(login.status).toBe(200);
  return login.body.token;
}

async function logIn(password = ADMIN.password) {
  await page.getByLabel('User name').fill(ADMIN.name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

const userMenu = () => page.getByRole('button', { name: ADMIN.name, exact: true });

describe('the web app', () => {
  it('is served at / with index.html for its own routes, while unknown API paths keep the JSON 404', async () => {
    const root = await fetch(`${base}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toContain('text/html');
    const deep = await fetch(`${base}/addon/sample/sample_remote`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(await root.text());

    for (const path of [
      '/api/unknown',
      '/addons/nope/1.0.0/frontend/x',
      '/graphql/x',
      '/ws/x',
      '/missing-chunk.js',
    ]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 404 });
    }
    expect((await fetch(`${base}/api/unknown`, { method: 'POST' })).status).toBe(404);
  });

  it('shows the onboarding form on a fresh server; the new administrator lands logged in', async () => {
    await page.goto(`${base}/`);
    await page.getByText('This server has no administrator yet').waitFor();
    await page.getByLabel('Administrator name').fill(ADMIN.name);
    await page.getByLabel('Password (at least 8 characters)').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await page.getByRole('heading', { name: `Welcome, ${ADMIN.name}` }).waitFor();
    await expect(userMenu().isVisible()).resolves.toBe(true);
    expect((await core.request('GET', '/api/info')).body.noAdminUser).toBe(false);
  });

  it('is dark by default and remembers the light theme across a reload', async () => {
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await theme()).toBe('dark');
    const dark = await background();
    await page.getByRole('button', { name: 'Switch theme' }).click();
    expect(await theme()).toBe('light');
    expect(await background()).not.toBe(dark);
    await page.reload();
    await userMenu().waitFor();
    expect(await theme()).toBe('light');
    await page.getByRole('button', { name: 'Switch theme' }).click();
    await page.reload();
    await userMenu().waitFor();
    expect(await theme()).toBe('dark');
  });

  it('lists a project created through the API in the project switcher', async () => {
    const created = await core.request('POST', '/api/projects', {
      token: await apiToken(),
      body: { name: 'demo', code: 'dm' },
    });
    expect(created.status).toBe(201);
    const switcher = page.getByLabel('Project');
    // Opening the switcher refreshes it, so no reload is needed.
    await switcher.focus();
    await page.locator('option', { hasText: 'demo (dm)' }).waitFor({ state: 'attached' });
    await switcher.selectOption('demo');
    await page.getByText('Working in demo.').waitFor();
  });

  it('lists screens without a scope in the main navigation and settings screens under Settings', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    const settings = nav.locator('.nav-group', { has: page.getByRole('heading', { name: 'Settings' }) });
    await settings.getByRole('link', { name: 'Projects' }).waitFor();
    // The sample addon declares no scope: it sits with Home, outside the Settings group.
    await expect(settings.getByRole('link', { name: 'Sample' }).count()).resolves.toBe(0);
    await expect(nav.getByRole('link', { name: 'Sample' }).count()).resolves.toBe(1);
  });

  it("loads an addon's remote at run time and shares React with it", async () => {
    await page.getByRole('link', { name: 'Sample' }).click();
    await page.getByRole('heading', { name: 'Hello from an addon remote' }).waitFor();
    expect(page.url()).toBe(`${base}/addon/sample/sample_remote`);
    await page.getByText('Project: demo').waitFor();
    const counter = page.getByRole('button', { name: /Clicked \d+ times/ });
    await counter.click();
    await counter.click();
    await page.getByRole('button', { name: 'Clicked 2 times' }).waitFor();
    // A deep link works too: the server answers index.html and the shell mounts the remote.
    await page.reload();
    await page.getByRole('heading', { name: 'Hello from an addon remote' }).waitFor();
  });

  it('shows an error box in place of a remote that fails to load, and the rest keeps working', async () => {
    await page.getByRole('link', { name: 'Broken' }).click();
    const box = page.locator('[data-remote-error="Broken"]');
    await box.waitFor();
    expect(await box.textContent()).toContain('could not be loaded');
    await page.getByRole('link', { name: 'Sample' }).click();
    await page.getByRole('button', { name: 'Clicked 0 times' }).click();
    await page.getByRole('button', { name: 'Clicked 1 times' }).waitFor();
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: `Welcome, ${ADMIN.name}` }).waitFor();
  });

  it('logs out, refuses a wrong password with a message, and logs in again', async () => {
    await userMenu().click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByText('You are logged out.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('pipewright.token'))).toBeNull();

    await logIn('not the password');
    await page.getByRole('alert').filter({ hasText: 'Invalid user name or password' }).waitFor();
    await logIn();
    await userMenu().waitFor();
  });

  it('returns to the login page with a message when the session ends on the server', async () => {
    // The switcher loads the projects once it appears; let that finish before the session ends, so the 401 comes
    // from opening it below.
    await page.getByLabel('Project').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('pipewright.token'));
    expect(token).toBeTruthy();
    const logout = await core.request('POST', '/api/auth/logout', { token: token! });
    expect(logout.status).toBe(200);
    // Any API call now answers 401: opening the project switcher makes one.
    await page.getByLabel('Project').focus();
    await page.getByText('Your session has ended. Please log in again.').waitFor();
    await logIn();
    await userMenu().waitFor();
  });

  it('never asked anything of a host other than its own server, and threw no uncaught error', () => {
    expect(session.foreignRequests).toEqual([]);
    expect(session.pageErrors).toEqual([]);
  });
});
