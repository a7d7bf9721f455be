import type { ChildProcess } from 'node:child_process';
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
import { addonZip } from './packages.js';

// Reinstalling an addon in the same version must run its new code. Node caches ES modules by URL, which Jest's
// module registry does not imitate, so this runs against `npm start`'s entry point as its own process.

let server: ChildProcess | undefined;
let dataDir: string;
let base: string;
let token: string;
let dropDatabase = async () => {};

const echo = (word: string) =>
  addonZip(
    'echo',
    '1.0.0',
    `export default { name: 'echo', version: '1.0.0', title: 'Echo',
       setup(ctx) { ctx.app.get('/word', async () => ({ word: '${word}' })); } };`,
  );

async function install(zip: Buffer) {
  const res = await fetch(`${base}/api/addons/install`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  });
  const { eventId } = await res.json();
  for (let i = 0; i < 200; i++) {
    const event = await (
      await fetch(`${base}/api/events/${eventId}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    if (event.status !== 'in_progress') return event.status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the install did not end');
}

const word = async () =>
  (
    await fetch(`${base}/api/addons/echo/1.0.0/word`, { headers: { authorization: `Bearer ${token}` } })
  ).json();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pipewright-reinstall-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
  };
  delete env.REDIS_URL;
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase(process.env.DATABASE_URL);
    env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  server = await startServerProcess(env);
  const credentials = { adminName: 'admin', adminPassword: 'a strong password' };
  await fetch(`${base}/api/onboarding/initialize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: credentials.adminName, password: credentials.adminPassword }),
  });
  token = (await login.json()).token;
}, 60_000);
afterAll(async () => {
  await stopServerProcess(server);
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe('reinstalling an addon in the same version', () => {
  it('runs the new code at once', async () => {
    expect(await install(echo('first'))).toBe('finished');
    expect(await word()).toEqual({ word: 'first' });
    expect(await install(echo('second'))).toBe('finished');
    expect(await word()).toEqual({ word: 'second' });
  });
});
