import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestDatabase } from '../src/testing.js';

// The real thing: `npm start`'s entry point as its own process, talked to over HTTP.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

function start(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((done, fail) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Pipewright listening')) done(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => fail(new Error(`server exited with ${code}: ${output}`)));
  });
}

const stopped = (child: ChildProcess) =>
  new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

describe('the server process', () => {
  let dataDir: string;
  let dropDatabase = async () => {};
  let env: NodeJS.ProcessEnv;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pipewright-process-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...process.env,
      NODE_OPTIONS: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    };
    if (process.env.DATABASE_URL) {
      const database = await createTestDatabase(process.env.DATABASE_URL);
      env.DATABASE_URL = database.url;
      dropDatabase = database.drop;
    }
  });
  afterAll(async () => {
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts, onboards the first administrator, stops on SIGTERM and keeps the session across a restart', async () => {
    let server = await start(env);
    const info = await (await fetch(`${base}/api/info`)).json();
    expect(info).toMatchObject({ version: '1.11.3', noAdminUser: true });

    const init = await fetch(`${base}/api/onboarding/initialize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ adminName: 'admin', adminPassword: 'a strong password' }),
    });
    expect(init.status).toBe(200);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'admin', password: 'a strong password' }),
    });
    const { token } = await login.json();
    expect(
      (await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);

    const exit = stopped(server);
    server.kill('SIGTERM');
    expect(await exit).toBe(0);

    server = await start(env);
    try {
      const me = await fetch(`${base}/api/users/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect((await me.json()).name).toBe('admin');
      expect((await (await fetch(`${base}/api/info`)).json()).noAdminUser).toBe(false);
    } finally {
      const exited = stopped(server);
      server.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
