import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  onboardAdmin,
  queryStoppedServer,
  serverProcessSite,
  stopServerProcess,
  type ServerProcessSite,
} from '@pipewright/core/testing';

// A server process killed with SIGKILL (no shutdown code runs) right after it acknowledged a batch of 10,000
// folder creates, or while it runs one, then started again on the same data: an acknowledged batch has one
// entity.folder.created event per folder, an interrupted one left neither folders nor events. Runs `npm start`'s
// entry point as its own process.

const FOLDERS = 10_000;

let server: ChildProcess | undefined;
let site: ServerProcessSite;
let base: string;
let token: string;
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
  server = await site.start();
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
  const [row] = await queryStoppedServer<Record<string, number>>(site, query);
  return { folders: row.folders, events: prefix ? row.events : row.all_events, unpublished: row.unpublished };
}

beforeAll(async () => {
  site = await serverProcessSite('entities-crash');
  base = site.base;
  server = await site.start();
  token = await onboardAdmin(base);
  expect((await post('/api/projects', JSON.stringify({ name: 'crash', code: 'cr' }))).status).toBe(201);
}, 90_000);
afterAll(() => site.remove());

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
