import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { serveStatic } from '../scripts/static-server.mjs';
import { categories, docIds, EDIT_BASE, groups, pages, SIDEBAR_NAME } from '../content/pages.mjs';
import { launchChromium, OUT_DIR, requireBuiltSite } from './helpers.js';

// End-to-end: the built site (out/) on a plain static server, in Debian's chromium. A real Pipewright core runs
// beside it for the live /api check; the static server forwards /pipewright/* to it, as a reverse proxy would.

let site: { url: string; close(): Promise<void> };
let core: TestCore;
let coreUrl: string;
let browser: Browser;
const contexts: BrowserContext[] = [];
const requested: string[] = [];

async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.on('request', (request) => requested.push(request.url()));
  contexts.push(context);
  return context;
}

let page: Page;

beforeAll(async () => {
  requireBuiltSite();
  core = await bootTestCore({ addons: ['onboarding', 'projects'] });
  await core.app.listen({ port: 0, host: '127.0.0.1' });
  const address = core.app.server.address() as { port: number };
  coreUrl = `http://127.0.0.1:${address.port}`;
  site = await serveStatic(OUT_DIR, { proxy: { '/pipewright': coreUrl } });
  browser = await launchChromium();
  page = await (await newContext()).newPage();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await site?.close();
  await core?.close();
});

async function visit(path: string, target: Page = page) {
  const response = await target.goto(site.url + path, { waitUntil: 'load' });
  await target.locator('h1').first().waitFor();
  // The exported HTML streams the page into a hidden segment (<div hidden id="S:0">) that React's inline $RC script
  // swaps in, sometimes a moment after "load"; until then the page's links and sidebar are in the DOM twice.
  await target.waitForFunction(() => !document.querySelector('div[hidden][id^="S:"]'));
  return response;
}

const heading = (target: Page = page) => target.locator('h1').first().innerText();

describe('routes', () => {
  const fixed: [string, string][] = [
    ['/', 'Pipewright developer documentation'],
    ['/features/', 'Features'],
    ['/features', 'Features'],
    ['/search', 'Search the documentation'],
    ['/api', 'REST API reference'],
    ['/docs', 'Pipewright developer docs'],
    ['/docs/category/addon-development', 'Addon development'],
    ['/docs/category/apis--resources', 'APIs & resources'],
  ];
  test.each(fixed)('%s renders with its heading', async (path, title) => {
    const response = await visit(path);
    expect(response?.status()).toBe(200);
    expect(await heading()).toBe(title);
  });

  test('every docId has a page with its heading and an edit link to the docs source (main branch, website folder)', async () => {
    expect(docIds).toHaveLength(32);
    for (const docId of docIds) {
      const response = await visit(`/docs/${docId}`);
      expect(response?.status()).toBe(200);
      expect(await heading()).toBe(pages[docId]);
      const edit = page.getByRole('link', { name: 'Edit this page' });
      expect(await edit.getAttribute('href')).toBe(`${EDIT_BASE}/app/docs/${docId}/page.mdx`);
      expect(EDIT_BASE).toMatch(/\/tree\/main\/website$/);
      // Real documentation, not a stub.
      const words = (await page.locator('main article, main').first().innerText()).split(/\s+/).length;
      expect({ docId, enough: words > 150 }).toEqual({ docId, enough: true });
    }
  });

  test('the category pages and the docs root list their pages', async () => {
    for (const category of categories) {
      await visit(`/docs/category/${category.id}`);
      const hrefs = await page
        .locator('.pw-doc-index a')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(Object.keys(category.pages).map((id) => `/docs/${id}`));
    }
    await visit('/docs');
    const all = await page
      .locator('.pw-doc-index a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(all).toEqual(docIds.map((id) => `/docs/${id}`));
  });
});

describe('navigation', () => {
  test('one sidebar named Dev lists all 32 pages in order, dev_introduction first', async () => {
    await visit('/docs/dev_api_rest');
    const sidebar = page.locator('aside.nextra-sidebar');
    const separators = await sidebar.locator('li:not(:has(a))').allInnerTexts();
    expect(separators[0]).toBe(SIDEBAR_NAME);
    expect(separators.slice(1)).toEqual(groups.map((g) => g.title));
    const hrefs = await sidebar
      .locator('a[href^="/docs/"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(docIds.map((id) => `/docs/${id}`));
    expect(hrefs[0]).toBe('/docs/dev_introduction');
    const width = await sidebar.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBe(300);
  });

  test('the navbar has the logo (light and dark), Features, Dev Docs, Dev resources, REST API Docs, Addons and search', async () => {
    await visit('/docs/dev_testing');
    const nav = page.locator('nav').first();
    expect(await nav.locator('a[href="/"]').first().count()).toBe(1);
    expect(await nav.locator('[data-variant="light"]').count()).toBe(1);
    expect(await nav.locator('[data-variant="dark"]').count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'Features' }).getAttribute('href')).toBe('/features');
    expect(await nav.getByRole('link', { name: 'Dev Docs' }).getAttribute('href')).toBe(
      '/docs/dev_introduction',
    );
    expect(await nav.getByRole('link', { name: 'REST API Docs' }).getAttribute('href')).toBe('/api');
    await nav.getByRole('button', { name: 'Dev resources' }).click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const items = await menu
      .getByRole('menuitem')
      .evaluateAll((links) => links.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
    expect(items).toEqual(
      expect.arrayContaining([
        ['REST API docs', '/api'],
        ['GraphQL explorer', '/docs/dev_api_graphql'],
        ['Python API docs', '/docs/dev_api_python'],
        ['C++ API docs', '/docs/dev_api_cpp'],
        ['USD resolver API docs', '/docs/dev_api_usd_resolver'],
        ['React components', '/docs/dev_components_react'],
      ]),
    );
    expect(items.some(([title]) => title?.startsWith('User Docs'))).toBe(true);
    expect(items.some(([title]) => title?.startsWith('Admin Docs'))).toBe(true);
    await page.keyboard.press('Escape');
    await nav.getByRole('button', { name: 'Addons' }).click();
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual([
      expect.stringContaining('Web Publisher'),
      expect.stringContaining('Node Graph'),
    ]);
    await page.keyboard.press('Escape');
    expect(await nav.locator('input[type="search"]').count()).toBe(1);
  });

  test('an unknown path shows the not-found page', async () => {
    const response = await visit('/docs/no_such_page');
    expect(response?.status()).toBe(404);
    expect(await heading()).toBe('Page not found');
    await visit('/some/where/else');
    expect(await heading()).toBe('Page not found');
  });

  test.each([
    ['/docs/dev_introduction.html', '/docs/dev_introduction', 'Introduction'],
    ['/docs/dev_introduction/index.html', '/docs/dev_introduction', 'Introduction'],
    ['/features.html', '/features', 'Features'],
    ['/index.html', '/', 'Pipewright developer documentation'],
    ['/docs/category/apis--resources.html?x=1#top', '/docs/category/apis--resources', 'APIs & resources'],
  ])('%s is normalised to %s', async (from, to, title) => {
    await page.goto(site.url + from);
    await page.waitForURL((url) => url.pathname === to);
    await page.locator('h1').first().waitFor();
    expect(await heading()).toBe(title);
  });
});

describe('/api', () => {
  test('renders the operations of the bundled openapi.json with the #00d6a1 accent', async () => {
    const bundled = JSON.parse(readFileSync(join(OUT_DIR, 'openapi.json'), 'utf8'));
    expect(bundled.paths['/api/auth/login'].post).toBeDefined();
    await visit('/api');
    const login = page.locator('[data-operation="POST /api/auth/login"]');
    await login.waitFor();
    expect(await page.locator('.pw-api-meta').innerText()).toContain('bundled copy');
    const operations = await page.locator('[data-operation]').count();
    const expected = Object.values(bundled.paths).reduce(
      (n: number, item: any) => n + Object.keys(item).length,
      0,
    );
    expect(operations).toBe(expected);
    expect(await page.locator('.pw-api-title').evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(0, 214, 161)',
    );
    await login.locator('summary').click();
    const details = await login.innerText();
    expect(details).toContain('Request body');
    expect(details).toContain('password');
    expect(details).toContain("curl -X POST 'http://localhost:5000/api/auth/login'");
    await page.getByLabel('Filter operations').fill('onboarding');
    expect(await page.locator('[data-operation]').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('[data-operation="GET /api/users"]').count()).toBe(0);
  });

  test("renders a running server's /openapi.json when ?server= names it", async () => {
    const live = JSON.parse((await core.request('GET', '/openapi.json')).text);
    await page.goto(`${site.url}/api?server=/pipewright`);
    await page.locator('[data-operation="POST /api/onboarding/initialize"]').waitFor();
    expect(await page.locator('.pw-api-meta').innerText()).toContain('/pipewright/openapi.json');
    const expected = Object.values(live.paths).reduce(
      (n: number, item: any) => n + Object.keys(item).length,
      0,
    );
    expect(await page.locator('[data-operation]').count()).toBe(expected);
    // This core runs only onboarding and projects (and what they need), so e.g. anatomy's own routes are absent.
    expect(await page.locator('[data-operation="GET /api/projects"]').count()).toBe(1);
  });

  test('falls back to the bundled copy when the server does not answer', async () => {
    await page.goto(`${site.url}/api?server=http://127.0.0.1:9`);
    await page.locator('[data-operation="POST /api/auth/login"]').waitFor();
    expect(await page.locator('.pw-api-warning').innerText()).toContain(
      'Could not load http://127.0.0.1:9/openapi.json',
    );
  });
});

describe('search', () => {
  test('Ctrl+K opens the navbar search, which finds a page offline', async () => {
    await visit('/docs/dev_introduction');
    await page.keyboard.press('Control+k');
    const input = page.locator('nav input[type="search"]:visible').first();
    await expect(input.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await input.fill('migrations');
    // Results are grouped by page: the page title heads the group, the options are its matching sections.
    await page.getByRole('listbox').filter({ hasText: 'Building an addon' }).waitFor({ timeout: 20000 });
    expect(await page.getByRole('option').count()).toBeGreaterThan(0);
    await page.getByRole('option').filter({ hasText: 'Migrations' }).first().click();
    await page.waitForURL((url) => url.pathname === '/docs/dev_addon_creation');
  });

  test('the /search page finds pages, and says so when nothing matches', async () => {
    await visit('/search?q=publishing');
    const results = page.locator('.pw-search-results a');
    await results.first().waitFor({ timeout: 20000 });
    expect(await results.allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('Publishing')]),
    );
    const href = await results.first().getAttribute('href');
    expect(href).toMatch(/^\/docs\//);
    await visit('/search?q=zzqxjvnotaword');
    await page.getByText('No results for').waitFor({ timeout: 20000 });
  });
});

describe('colour mode and remembered choices', () => {
  test('dark is the default, also when the system prefers light, and the switch persists the choice', async () => {
    const context = await newContext({ colorScheme: 'light' });
    const fresh = await context.newPage();
    await visit('/', fresh);
    expect(await fresh.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await visit('/docs/dev_introduction', fresh);
    await fresh.locator('button[title="Change theme"]:visible').first().click();
    await fresh.getByRole('option', { name: 'Light' }).click();
    await fresh.waitForFunction(() => document.documentElement.classList.contains('light'));
    expect(await fresh.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await fresh.reload();
    await fresh.locator('h1').first().waitFor();
    expect(await fresh.evaluate(() => document.documentElement.classList.contains('light'))).toBe(true);
    await visit('/features/', fresh);
    expect(await fresh.evaluate(() => document.documentElement.classList.contains('light'))).toBe(true);
  });

  test('a dismissed announcement bar stays dismissed', async () => {
    const fresh = await (await newContext()).newPage();
    await visit('/', fresh);
    const banner = fresh.locator('.nextra-banner');
    expect(await banner.isVisible()).toBe(true);
    await fresh.getByRole('button', { name: 'Dismiss banner' }).click();
    await fresh.reload();
    await fresh.locator('h1').first().waitFor();
    expect(await banner.isVisible()).toBe(false);
  });
});

test('no request left localhost', () => {
  expect(requested.length).toBeGreaterThan(50);
  const external = requested.filter((url) => {
    if (/^(data|blob|about):/.test(url)) return false;
    const { hostname } = new URL(url);
    return hostname !== '127.0.0.1' && hostname !== 'localhost';
  });
  expect(external).toEqual([]);
});
