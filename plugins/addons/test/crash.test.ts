import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { onboardAdmin, serverProcessSite, type ServerProcessSite } from '@pipewright/core/testing';
import { addonZip, bulkyZip } from './packages.js';

// A server process killed (SIGKILL: no shutdown code runs) while it unpacks an addon package, then started again on
// the same data folder and database: the half-unpacked package must not be loaded, its staging folder must be
// gone and its install event must say it failed. Runs `npm start`'s entry point as its own process.

const FILES = 400;
const FILE_SIZE = 1024 * 1024;

let server: ChildProcess | undefined;
let site: ServerProcessSite;
let dataDir: string;
let base: string;
let token: string;

const auth = () => ({ authorization: `Bearer ${token}` });
const getJson = async (path: string) => (await fetch(`${base}${path}`, { headers: auth() })).json();

async function login() {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'admin', password: 'a strong password' }),
  });
  token = (await res.json()).token;
}

async function upload(zip: Buffer): Promise<string> {
  const res = await fetch(`${base}/api/addons/install`, {
    method: 'POST',
    headers: { ...auth(), 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  });
  expect(res.status).toBe(200);
  return (await res.json()).eventId;
}

beforeAll(async () => {
  site = await serverProcessSite('addons-crash');
  ({ dataDir, base } = site);
  server = await site.start();
  token = await onboardAdmin(base);
}, 90_000);
afterAll(() => site.remove());

describe('a server killed while it unpacks an addon', () => {
  it('does not load the half package at the next start, removes its staging and fails its event', async () => {
    const staging = join(dataDir, 'addons', '.staging');
    const eventId = await upload(bulkyZip('bulky', '1.0.0', FILES, FILE_SIZE));

    // Kill as soon as some of the package is on disk, but not all of it.
    const unpacking = join(staging, eventId, 'addon', 'public');
    const started = Date.now();
    let seen = 0;
    while (Date.now() - started < 30_000) {
      seen = existsSync(unpacking) ? readdirSync(unpacking).length : 0;
      if (seen > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const exited = new Promise((done) => server!.once('exit', done));
    server!.kill('SIGKILL');
    await exited;
    server = undefined;
    const left = existsSync(unpacking) ? readdirSync(unpacking).length : 0;
    expect(seen).toBeGreaterThan(0);
    // Killed midway: the half package is in staging, not under the addons folder.
    expect(left).toBeLessThan(FILES);
    expect(existsSync(join(dataDir, 'addons', 'bulky'))).toBe(false);

    server = await site.start();
    await login();
    expect(await getJson(`/api/events/${eventId}`)).toMatchObject({
      topic: 'addon.install',
      status: 'failed',
      description:
        'Install failed: the server stopped before the install finished; install the package again',
    });
    expect(readdirSync(staging)).toEqual([]);
    const listed = (await getJson('/api/addons')).addons.map((a: { name: string }) => a.name);
    expect(listed).not.toContain('bulky');
    expect((await fetch(`${base}/addons/bulky/1.0.0/public/part-0000.bin`, { headers: auth() })).status).toBe(
      404,
    );
    expect(existsSync(join(dataDir, 'addons', 'bulky'))).toBe(false);
  }, 120_000);

  it('installs whole packages afterwards, and nothing of them stays in staging', async () => {
    const eventId = await upload(bulkyZip('bulky', '1.0.0', 20, 64 * 1024));
    let event: { status: string } = { status: 'in_progress' };
    for (let i = 0; i < 400 && event.status === 'in_progress'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      event = await getJson(`/api/events/${eventId}`);
    }
    expect(event.status).toBe('finished');
    const files = readdirSync(join(dataDir, 'addons', 'bulky', '1.0.0', 'public'));
    expect(files).toHaveLength(20);
    expect(statSync(join(dataDir, 'addons', 'bulky', '1.0.0', 'public', files[19]!)).size).toBe(64 * 1024);
    expect(readdirSync(join(dataDir, 'addons', '.staging'))).toEqual([]);
    const small = await upload(
      addonZip('tiny', '1.0.0', "export default { name: 'tiny', version: '1.0.0' };"),
    );
    expect(small).toMatch(/^[0-9a-f]{32}$/);
  });
});
