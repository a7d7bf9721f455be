import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { newId } from '@pipewright/sdk';
import {
  createTestDatabase,
  freePort,
  startServerProcess,
  stopServerProcess,
} from '@pipewright/core/testing';
import {
  createClient,
  type DisconnectInfo,
  type EventSubscription,
  type LiveEvent,
} from '@pipewright/sdk/client';
import { collector, until } from './live-events.js';

// A real server process (what `npm start` runs) is stopped and started again on the same port and storage: the
// events helper must notice the drop, retry with backoff while nothing listens, and re-authorise with the same
// session token once the new process answers. PGlite keeps its files in DATA_DIR; in the PostgreSQL pass both
// processes use one throwaway database.

const PASSWORD = 'a long enough password 42';

let server: ChildProcess | undefined;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let dropDatabase = async () => {};
let subscription: EventSubscription | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pipewright-sdk-reconnect-'));
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase(process.env.DATABASE_URL);
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  env = {
    ...process.env,
    NODE_OPTIONS: '',
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    // A channel of its own, so parallel runs on one Redis do not hear each other.
    REDIS_CHANNEL: `pipewright.test.${newId()}`,
    LOG_LEVEL: 'info',
  };
  if (!databaseUrl) delete env.DATABASE_URL;
  server = await startServerProcess(env);
}, 120_000);

afterAll(async () => {
  await subscription?.close();
  await stopServerProcess(server);
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

it('reconnects with backoff after the server process restarts, and receives events again', async () => {
  const api = createClient({ baseUrl: `http://127.0.0.1:${env.PORT}` });
  await api.POST('/api/onboarding/initialize', { body: { adminName: 'admin', adminPassword: PASSWORD } });
  await api.login('admin', PASSWORD);

  const received = collector<LiveEvent>();
  const drops: DisconnectInfo[] = [];
  const connects: number[] = [];
  subscription = api.subscribe({
    topics: ['sdk.restart'],
    onEvent: received.add,
    onDisconnect: (info) => drops.push(info),
    onConnect: ({ connections }) => connects.push(connections),
    reconnect: { initialDelayMs: 100, maxDelayMs: 400 },
  });
  await subscription.ready;
  const before = await api.POST('/api/events', { body: { topic: 'sdk.restart.before' } });
  await received.next((e) => e.id === before.id);

  await stopServerProcess(server);
  await until(() => drops.length > 0 && !subscription!.connected, 10_000, 'the drop to be noticed');
  // Wait for at least one refused attempt, so the test covers retrying while nothing listens.
  await until(() => drops.length >= 2, 10_000, 'a failed reconnection attempt');
  server = await startServerProcess(env);

  await until(() => connects.length === 2, 20_000, 'the subscription to re-authorise');
  expect(subscription.connections).toBe(2);
  expect(drops.every((d) => d.retryInMs !== null && d.retryInMs <= 400)).toBe(true);
  // Refused connections close abnormally (1006); the restart itself may close with 1001 (going away) or 1006.
  expect(drops.slice(1).every((d) => d.code === 1006)).toBe(true);

  const after = await api.POST('/api/events', {
    body: { topic: 'sdk.restart.after', summary: { restarted: true } },
  });
  expect(await received.next((e) => e.id === after.id)).toMatchObject({
    topic: 'sdk.restart.after',
    user: 'admin',
    summary: { restarted: true },
  });
}, 120_000);
