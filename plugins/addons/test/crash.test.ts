import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTestDatabase,
  freePort,
  startServerProcess,
  stopServerProcess,
} from '@pipewright/core/testing';
import { addonZip, bulkyZip } from './packages.js';

// A server process killed (SIGKILL: no shutdown code runs) while it unpacks an addon package, then started again on
// the same data folder and database: the half-unpacked package must not be loaded, its staging folder must be
// gone and its install event must say it failed. Runs `npm start`'s entry point as its own process.

const FILES = 400;
const FILE_SIZE = 1024 * 1024;

let server: ChildProcess | undefined;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let base: string;
let token: string;
let dropDatabase = async () => {};

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
  dataDir = await mkdtemp(join(tmpdir(), 'pipewright-crash-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = { ...process.env, NODE_OPTIONS: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  delete env.REDIS_URL;
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase(process.env.DATABASE_URL);
    env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  server = await startServerProcess(env);
  await fetch(`${base}/api/onboarding/initialize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ adminName: 'admin', adminPassword: 'a strong password' }),
  });
  await login();
}, 90_000);
afterAll(async () => {
  await stopServerProcess(server);
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

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

    server = await startServerProcess(env);
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
