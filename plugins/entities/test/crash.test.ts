import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  createTestDatabase,
  freePort,
  startServerProcess,
  stopServerProcess,
} from '@pipewright/core/testing';

// A server process killed with SIGKILL (no shutdown code runs) right after it acknowledged a batch of 10,000
// folder creates, or while it runs one, then started again on the same data: an acknowledged batch has one
// entity.folder.created event per folder, an interrupted one left neither folders nor events. Runs `npm start`'s
// entry point as its own process.

const FOLDERS = 10_000;

let server: ChildProcess | undefined;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let base: string;
let token: string;
let dropDatabase = async () => {};
/** How long the acknowledged batch took, to kill the next one well before it could commit. */
let batchMs = 1200;

const batch = (prefix: string) =>
  JSON.stringify({
    operations: Array.from({ length: FOLDERS }, (_, i) => ({
      type: 'create',
      entityType: 'folder',
      data: { name: `${prefix}${i}`, folderType: 'Shot' },
    })),
  });

function post(path: string, body: string) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
}

async function start() {
  server = await startServerProcess(env);
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'admin', password: 'a strong password' }),
  });
  token = (await res.json()).token;
}

function kill() {
  const exited = new Promise((done) => server!.once('exit', done));
  server!.kill('SIGKILL');
  return exited;
}

/** Folders named with prefix, their created events, and outbox rows, read straight from the database (stopped). */
async function count(prefix: string): Promise<{ folders: number; events: number; unpublished: number }> {
  const query = `SELECT
      (SELECT count(*)::int FROM project_crash.folders WHERE name LIKE '${prefix}%') AS folders,
      (SELECT count(*)::int FROM public.events e JOIN project_crash.folders f ON f.id = (e.summary->>'entityId')::uuid
        WHERE e.topic = 'entity.folder.created' AND f.name LIKE '${prefix}%') AS events,
      (SELECT count(*)::int FROM public.events WHERE topic = 'entity.folder.created') AS all_events,
      (SELECT count(*)::int FROM public.event_outbox) AS unpublished`;
  let row: any;
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    row = (await client.query(query)).rows[0];
    await client.end();
  } else {
    const db = await PGlite.create({ dataDir: join(dataDir, 'pglite') });
    row = (await db.query(query)).rows[0];
    await db.close();
  }
  return { folders: row.folders, events: prefix ? row.events : row.all_events, unpublished: row.unpublished };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pipewright-entities-crash-'));
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
  await stopServerProcess(server);
  await start();
  expect((await post('/api/projects', JSON.stringify({ name: 'crash', code: 'cr' }))).status).toBe(201);
}, 90_000);
afterAll(async () => {
  await stopServerProcess(server);
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a server killed around a batch of 10,000 folder creates', () => {
  it('keeps one created event per folder of a batch it acknowledged', async () => {
    const started = performance.now();
    const res = await post('/api/projects/crash/operations', batch('acked'));
    const body = await res.json();
    batchMs = performance.now() - started;
    await kill();
    console.log(`10,000-folder batch acknowledged in ${Math.round(batchMs)} ms`);
    expect(res.status).toBe(200);
    expect(body.success).toBe(true);

    await start();
    await stopServerProcess(server);
    // The restart published whatever the kill left unpublished.
    expect(await count('acked')).toEqual({ folders: FOLDERS, events: FOLDERS, unpublished: 0 });
    await start();
  }, 180_000);

  it('leaves neither folders nor events of a batch it was killed during', async () => {
    let answered = false;
    const sent = post('/api/projects/crash/operations', batch('lost')).then(
      () => (answered = true),
      () => undefined,
    );
    // Long enough for the server to have the batch under way, far shorter than the batch takes (its commit comes
    // near the end, before the answer for 10,000 folders is built).
    await new Promise((resolve) => setTimeout(resolve, Math.min(400, batchMs / 3)));
    await kill();
    await sent;
    expect(answered).toBe(false);

    await start();
    await stopServerProcess(server);
    expect(await count('lost')).toEqual({ folders: 0, events: 0, unpublished: 0 });
    // The acknowledged batch of the first test is untouched: only its events exist.
    expect((await count('')).events).toBe(FOLDERS);
    await start();
  }, 180_000);
});
