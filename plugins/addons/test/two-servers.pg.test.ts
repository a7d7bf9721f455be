import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@pipewright/sdk';
import { createServer, openPostgres, readConfig, type PipewrightServer } from '@pipewright/core';
import { createTestDatabase, fixedUserSource } from '@pipewright/core/testing';
import { buildShotNotes } from './packages.js';

// Two servers on one PostgreSQL database, one Redis channel and one data folder, as a studio runs several
// processes behind a load balancer: an addon installed through one answers on the other at once, and deleting it
// through one stops it on both. Only in the PostgreSQL pass (see jest.config.js); needs REDIS_URL.

const PASSWORD = 'a long test password';
const users = fixedUserSource('pair-users', { root: { isAdmin: true } }, { password: PASSWORD });

const servers: PipewrightServer[] = [];
let dataDir: string;
let dropDatabase = async () => {};
const tokens: string[] = [];

async function call(server: PipewrightServer, method: string, url: string, token: string, body?: Buffer) {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/zip' } : {}) },
    payload: body,
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
}

async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the other server never caught up');
}

beforeAll(async () => {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
    throw new Error('two-servers.pg.test.ts needs DATABASE_URL and REDIS_URL');
  }
  const database = await createTestDatabase(process.env.DATABASE_URL);
  dropDatabase = database.drop;
  dataDir = await mkdtemp(join(tmpdir(), 'pipewright-pair-'));
  const config = {
    ...readConfig({ ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn' }),
    dataDir,
    databaseUrl: database.url,
    redisChannel: `pipewright.test.${newId()}`,
  };
  // One after the other: the first migrates the fresh database, the second finds it ready.
  for (let i = 0; i < 2; i++) {
    const server = await createServer({
      config,
      database: await openPostgres(database.url, 4),
      only: ['addons', 'settings', 'pair-users'],
      extraAddons: [{ definition: users, directory: dataDir, internal: false }],
    });
    servers.push(server);
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { name: 'root', password: PASSWORD },
    });
    tokens.push(login.json().token);
  }
}, 60_000);
afterAll(async () => {
  for (const server of servers) await server.close();
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe('an addon installed through one of two servers', () => {
  it('answers on the other at once, and deleting it through the other stops it on both', async () => {
    const [a, b] = servers as [PipewrightServer, PipewrightServer];
    const hello = '/api/addons/shot-notes/1.0.0/hello';
    expect((await call(b, 'GET', hello, tokens[1]!)).status).toBe(404);

    const install = await call(a, 'POST', '/api/addons/install', tokens[0]!, await buildShotNotes('1.0.0'));
    expect(install.status).toBe(200);
    await eventually(async () => (await call(b, 'GET', hello, tokens[1]!)).status === 200);
    expect((await call(b, 'GET', hello, tokens[1]!)).body).toEqual({
      message: 'Hello root from shot-notes 1.0.0',
    });

    expect((await call(b, 'DELETE', '/api/addons/shot-notes/1.0.0', tokens[1]!)).status).toBe(204);
    await eventually(async () => (await call(a, 'GET', hello, tokens[0]!)).status === 404);
    expect((await call(b, 'GET', hello, tokens[1]!)).status).toBe(404);
  });
});
