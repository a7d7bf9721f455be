// Field history (issue 36), over real HTTP, on PGlite or on the PostgreSQL server of DATABASE_URL:
// 1. What recording costs a bulk update: two servers in one run, one without the history addon (the baseline) and
//    one with it, each holding FOLDERS folders (default 5,000); ROUNDS rounds (default 5) send each, in turn, one
//    /operations batch changing a status and an attribute of every folder (2 x FOLDERS history rows). Printed: the
//    median time of each and the median of the rounds' ratios.
// 2. What reading costs at scale: HISTORY_ROWS rows (default 10,000,000; set fewer on PGlite) are written into the
//    project with history, spread over its folders and eight fields, then READS (default 500) requests of one
//    folder's history, newest first, half of them of one field, and READS / 10 of the last change per field of a
//    page of 100 folders, one at a time: p50, p95 and p99.
// Run: [DATABASE_URL=postgres://...] node --import tsx bench/src/history.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createServer, readConfig, type PipewrightServer } from '@pipewright/core';
import { createTestDatabase } from '@pipewright/core/testing';
import { benchAdmin } from './admin.js';

const FOLDERS = Number(process.env.FOLDERS ?? 5_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const HISTORY_ROWS = Number(process.env.HISTORY_ROWS ?? 10_000_000);
const READS = Number(process.env.READS ?? 500);
const FIELDS = [
  'status',
  'label',
  'tags',
  'attrib.frameStart',
  'attrib.frameEnd',
  'attrib.fps',
  'name',
  'active',
];

interface Site {
  server: PipewrightServer;
  url: string;
  headers: Record<string, string>;
  folders: string[];
  close(): Promise<void>;
}

async function site(addons: string[]): Promise<Site> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-bench-'));
  const database = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL) : null;
  const config = { ...readConfig({ ...process.env, LOG_LEVEL: 'warn' }), dataDir, redisUrl: null };
  const server = await createServer({
    config: { ...config, databaseUrl: database?.url ?? null },
    only: addons,
  });
  await server.housekeeping?.stop();
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const headers = { authorization: `Bearer ${await benchAdmin(server)}`, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  await call('POST', '/api/projects', { name: 'bench', code: 'b' });
  const created = await call('POST', '/api/projects/bench/operations', {
    operations: Array.from({ length: FOLDERS }, (_, i) => ({
      type: 'create',
      entityType: 'folder',
      data: { name: `f${i}`, folderType: 'Shot' },
    })),
  });
  const folders = created.operations.map((op: { entityId: string }) => op.entityId);
  let closing: Promise<void> | null = null;
  const close = async () => {
    await server.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { server, url, headers, folders, close: () => (closing ??= close()) };
}

/** One bulk update of every folder of the site: ms from request to answer. */
async function bulkUpdate(target: Site, round: number): Promise<number> {
  const body = JSON.stringify({
    operations: target.folders.map((id) => ({
      type: 'update',
      entityType: 'folder',
      entityId: id,
      data: { status: round % 2 ? 'In progress' : 'Approved', attrib: { frameStart: 1000 + round } },
    })),
  });
  const start = performance.now();
  const res = await fetch(`${target.url}/api/projects/bench/operations`, {
    method: 'POST',
    headers: target.headers,
    body,
  });
  const text = await res.text();
  const ms = performance.now() - start;
  if (!text.endsWith('"success":true}')) throw new Error(text.slice(-300));
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const round1 = (ms: number) => Math.round(ms * 10) / 10;

/** Write rows of history straight into the project's table, spread over its folders and FIELDS. */
async function fillHistory(target: Site, rows: number) {
  const table = sql.table('project_bench.field_history');
  const chunk = 1_000_000;
  for (let from = 0; from < rows; from += chunk) {
    const to = Math.min(rows, from + chunk);
    await sql`
      INSERT INTO ${table} (entity_type, entity_id, field, old_value, new_value, user_name, via, changed_at)
      SELECT 'folder', (${target.folders}::uuid[])[1 + g % ${target.folders.length}],
             (${FIELDS}::text[])[1 + (g / ${target.folders.length}) % ${FIELDS.length}],
             to_jsonb(g - 1), to_jsonb(g), 'bench', 'session', now() - make_interval(secs => ${rows} - g)
      FROM generate_series(${from + 1}::int, ${to}::int) g`.execute(target.server.db);
    process.stdout.write(`  ${to.toLocaleString('en')} rows\r`);
  }
  await sql`ANALYZE ${table}`.execute(target.server.db);
}

async function timed(target: Site, method: string, path: string, body?: unknown): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${target.url}${path}`, {
    method,
    headers: target.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return performance.now() - start;
}

async function main() {
  const off = await site(['entities', 'users']);
  const on = await site(['history', 'entities', 'users']);
  try {
    const kind = on.server.database.kind;
    // A first round each, untimed: V8 optimises the write path in it.
    await bulkUpdate(off, 0);
    await bulkUpdate(on, 0);
    const ratios: number[] = [];
    const offTimes: number[] = [];
    const onTimes: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      // Each round in the other order, so a drift of the machine's speed weighs on both alike.
      const [first, second] = round % 2 ? [off, on] : [on, off];
      const a = await bulkUpdate(first, round);
      const b = await bulkUpdate(second, round);
      const [offMs, onMs] = first === off ? [a, b] : [b, a];
      offTimes.push(offMs);
      onTimes.push(onMs);
      ratios.push(onMs / offMs);
    }
    console.log(
      `${FOLDERS}-folder bulk update on ${kind}: without history median ${Math.round(median(offTimes))} ms, ` +
        `with history ${Math.round(median(onTimes))} ms: ${median(ratios).toFixed(2)}x ` +
        `(rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    await off.close();

    console.log(`writing ${HISTORY_ROWS.toLocaleString('en')} history rows on ${kind}...`);
    const fillStart = performance.now();
    await fillHistory(on, HISTORY_ROWS);
    console.log(`  written in ${Math.round((performance.now() - fillStart) / 1000)} s`);
    const pick = () => on.folders[Math.floor(Math.random() * on.folders.length)]!;
    for (let i = 0; i < 20; i++) await timed(on, 'GET', `/api/projects/bench/folders/${pick()}/history`);
    const entity: number[] = [];
    for (let i = 0; i < READS; i++) {
      const field = i % 2 ? `&field=${FIELDS[i % FIELDS.length]}` : '';
      entity.push(await timed(on, 'GET', `/api/projects/bench/folders/${pick()}/history?limit=50${field}`));
    }
    const latest: number[] = [];
    for (let i = 0; i < Math.max(10, READS / 10); i++) {
      const start = Math.floor(Math.random() * (on.folders.length - 100));
      const entityIds = on.folders.slice(start, start + 100);
      latest.push(
        await timed(on, 'POST', '/api/projects/bench/history/latest', { entityType: 'folder', entityIds }),
      );
    }
    const figures = (values: number[]) =>
      `p50 ${round1(percentile(values, 0.5))} ms, p95 ${round1(percentile(values, 0.95))} ms, ` +
      `p99 ${round1(percentile(values, 0.99))} ms`;
    const perFolder = Math.round(HISTORY_ROWS / on.folders.length);
    console.log(
      `history of one folder (about ${perFolder} rows each), ${HISTORY_ROWS.toLocaleString('en')} rows in the ` +
        `project, on ${kind}: ${figures(entity)}`,
    );
    console.log(`last change per field of 100 folders: ${figures(latest)}`);
  } finally {
    await Promise.all([off.close(), on.close()]);
  }
}

await main();
