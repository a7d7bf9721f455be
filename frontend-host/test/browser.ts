import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';

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

/** Let the server under test listen on a free local port; its base URL, e.g. http://127.0.0.1:41234. */
export async function serve(core: TestCore): Promise<string> {
  await core.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(core.app.server.address() as AddressInfo).port}`;
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
