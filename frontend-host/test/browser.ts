import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { bootTestCore, freePort, type TestCore } from '@pipewright/core/testing';

// What every end-to-end test of the web app shares: Debian's chromium, a page that may talk to its own server
// only, uncaught page errors collected, and screenshots saved as test artifacts.

const here = dirname(fileURLToPath(import.meta.url));
/** Screenshots of the main screens land here (CI keeps the folder as an artifact). */
export const ARTIFACTS = resolve(here, '..', 'test-artifacts');

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** URLs outside the server that the app asked for (and was refused). */
  foreignRequests: string[];
  /** Messages of uncaught errors thrown in the page. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** Let the server under test listen on a free local port (or this one); its base URL, e.g. http://127.0.0.1:41234. */
export async function serve(core: TestCore, port = 0): Promise<string> {
  await core.app.listen({ port, host: '127.0.0.1' });
  return `http://127.0.0.1:${(core.app.server.address() as AddressInfo).port}`;
}

/** A served core with these addons and its first administrator, logged in through the API. */
export interface WebAppServer {
  core: TestCore;
  /** Its base URL, e.g. http://127.0.0.1:41234. */
  base: string;
  /** The administrator's session token. */
  token: string;
}

/** What the web app needs of any server: itself, the first administrator, users, and projects with their entities. */
const WEB_APP_ADDONS = [
  'webapp',
  'onboarding',
  'addons',
  'users',
  'projects',
  'anatomy',
  'attributes',
  'entities',
];

type BootOptions = Parameters<typeof bootTestCore>[0];
type Admin = { name: string; password: string };
interface WebAppOptions {
  /** The addons under test, beside the web app's own (WEB_APP_ADDONS). */
  addons: string[];
  /** The addons whose built screens the test opens. */
  screens: string[];
  /** Onboarded through the API when given; without it the server starts with no administrator (and no token). */
  admin?: Admin;
  /** Addons the test defines itself, as bootTestCore takes them. */
  extraAddons?: BootOptions['extraAddons'];
  /** Server settings; a function of the base URL has the port chosen before the server starts (e.g. for publicUrl). */
  config?: BootOptions['config'] | ((base: string) => BootOptions['config']);
}

/**
 * What an end-to-end test starts from: the web app and the named addons' screens built (checked first, so a missing
 * build says so rather than a page that never loads), a core with the addons and the web app's own, served, and onboarded by `admin`.
 */
export async function startWebApp(options: WebAppOptions & { admin: Admin }): Promise<WebAppServer>;
export async function startWebApp(options: WebAppOptions): Promise<Omit<WebAppServer, 'token'>>;
export async function startWebApp(
  options: WebAppOptions,
): Promise<Omit<WebAppServer, 'token'> & { token?: string }> {
  const repo = resolve(here, '../..');
  const built = [
    'frontend-host/dist/index.html',
    ...options.screens.map((addon) => `plugins/${addon}/frontend/dist/mf-manifest.json`),
  ];
  const missing = built.filter((path) => !existsSync(resolve(repo, path)));
  if (missing.length) throw new Error(`not built (npm run build:web): ${missing.join(', ')}`);
  const port = typeof options.config === 'function' ? await freePort() : 0;
  const core = await bootTestCore({
    addons: [...new Set([...WEB_APP_ADDONS, ...options.addons])],
    extraAddons: options.extraAddons,
    config:
      typeof options.config === 'function' ? options.config(`http://127.0.0.1:${port}`) : options.config,
  });
  const base = await serve(core, port);
  if (!options.admin) return { core, base };
  const onboarded = await core.request('POST', '/api/onboarding/initialize', {
    body: { adminName: options.admin.name, adminPassword: options.admin.password },
  });
  if (onboarded.status !== 200) throw new Error(`onboarding answered ${onboarded.status}: ${onboarded.text}`);
  return { core, base, token: onboarded.body.token };
}

/** Chromium with one page that may only reach `base` (the server under test). */
export async function openBrowser(base: string): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  // A request settled meanwhile (the page navigated, or a test's own page.route answered it) refuses a second
  // answer with "Route is already handled!": nothing is left to do for it then.
  const settled = () => undefined;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${base}/`)) return route.continue().catch(settled);
    foreignRequests.push(url);
    return route.abort().catch(settled);
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { browser, context, page, foreignRequests, pageErrors, close: () => browser.close() };
}

/** Close what a test file opened, in order (the browser before the server), skipping what never started. */
export async function closeAll(...opened: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  for (const thing of opened) await thing?.close();
}

/** Save a full-page screenshot as test-artifacts/{name}.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Log in through the login page at `url` (the app's start page unless given); waiting for what follows is the caller's. */
export async function logIn(page: Page, url: string, who: { name: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel('User name').fill(who.name);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

type SocketWindow = { WebSocket: unknown; sockets: WebSocket[]; unreachable: boolean };

/**
 * Keep the page's websockets where a test can drop them, with a switch that makes new ones fail at once (a server
 * out of reach: port 1 refuses, so the server never sees the attempts). Call before the page loads.
 */
export async function holdSockets(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as SocketWindow;
    const Native = WebSocket;
    w.sockets = [];
    w.unreachable = false;
    const Patched = function (url: string, protocols?: string | string[]) {
      const socket = new Native(w.unreachable ? 'ws://127.0.0.1:1/ws' : url, protocols);
      w.sockets.push(socket);
      return socket;
    } as unknown as typeof WebSocket;
    Object.assign(Patched, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3, prototype: Native.prototype });
    w.WebSocket = Patched;
  });
}

/** Put the server out of the page's reach (its sockets dropped, new ones refused), or back in reach. */
export async function serverReachable(page: Page, reachable: boolean): Promise<void> {
  await page.evaluate((reachable) => {
    const w = window as unknown as SocketWindow;
    w.unreachable = !reachable;
    if (!reachable) for (const socket of w.sockets) socket.close();
  }, reachable);
}
