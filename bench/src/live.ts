// The live side (issue 5), each figure next to a baseline measured in this same run:
//   GraphQL: the first 1,000 folders with attrib of a BENCH_FOLDERS-folder project (default 100,000), vs the same
//   rows read with one bare SELECT;
//   websocket fan-out: events stored and published by server process A at BENCH_RATE events/s (default 1,000)
//   reach a websocket client of process B through Redis, vs a bare Redis publish/subscribe round trip.
// Run: DATABASE_URL=postgres://... REDIS_URL=redis://... npm run bench:live -w @pipewright/bench
// The GraphQL part also runs on PGlite when DATABASE_URL is not set; the fan-out part needs both servers.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createClient } from 'redis';
import { createServer, readConfig } from '@pipewright/core';
import {
  createTestDatabase,
  freePort,
  startServerProcess,
  stopServerProcess,
} from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';
import { benchAdmin } from './admin.js';

const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 100_000);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const here = dirname(fileURLToPath(import.meta.url));

const line = (label: string, value: string) => console.log(`${label.padEnd(62)} ${value}`);
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function graphqlBench() {
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-bench-'));
  const database = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL) : null;
  const config = {
    ...readConfig({ ...process.env, LOG_LEVEL: 'warn' }),
    dataDir,
    redisUrl: null,
    databaseUrl: database?.url ?? null,
  };
  const server = await createServer({ config, only: ['graphql'] });
  try {
    const token = await benchAdmin(server);
    const headers = { authorization: `Bearer ${token}` };
    await server.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers,
      payload: { name: 'bench', code: 'bench' },
    });
    // The tree goes straight into the tables (the project-scale bench measures writing it through the API);
    // every shot sets one attribute of its own so attrib is more than the inherited defaults.
    const status = (await server.app.inject({ method: 'GET', url: '/api/projects/bench', headers })).json()
      .statuses[0].name;
    const folders = server.db.withSchema('project_bench');
    const sequences = Array.from({ length: 100 }, (_, i) => ({
      id: newId(),
      name: `sq${i}`,
      folder_type: 'Sequence',
      parent_id: null,
      path: `sq${i}`,
      status,
    }));
    await folders.insertInto('folders').values(sequences).execute();
    for (let i = 0; i < FOLDERS - sequences.length; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, FOLDERS - sequences.length - i) }, (_, j) => {
        const parent = sequences[(i + j) % sequences.length];
        return {
          id: newId(),
          name: `sh${i + j}`,
          folder_type: 'Shot',
          parent_id: parent.id,
          path: `${parent.path}/sh${i + j}`,
          status,
          attrib: JSON.stringify({ frameEnd: 1100 + j }),
        };
      });
      await folders.insertInto('folders').values(rows).execute();
    }
    await sql`ANALYZE project_bench.folders`.execute(server.db);

    const query =
      '{ project(name: "bench") { folders(first: 1000) { edges { node { id name path attrib { fps frameStart frameEnd resolutionWidth } } } pageInfo { hasNextPage endCursor } } } }';
    const graphql = async () => {
      const res = await server.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query } });
      const edges = res.json().data?.project.folders.edges;
      if (edges?.length !== 1000) throw new Error(`GraphQL answered ${res.body.slice(0, 300)}`);
    };
    const bare = () =>
      sql`SELECT id, name, path, attrib FROM project_bench.folders ORDER BY creation_order LIMIT 1000`.execute(
        server.db,
      );
    for (let i = 0; i < 3; i++) await Promise.all([graphql(), bare()]); // warm both paths
    const timed = async (fn: () => Promise<unknown>) => {
      const runs: number[] = [];
      for (let i = 0; i < 15; i++) {
        const start = process.hrtime.bigint();
        await fn();
        runs.push(ms(start));
      }
      return median(runs);
    };
    const graphqlMs = await timed(graphql);
    const bareMs = await timed(bare);
    console.log(`GraphQL on a project of ${FOLDERS} folders, storage ${server.database.kind}`);
    line(
      'first 1,000 folders with attrib through /graphql (target <= 100 ms)',
      `${graphqlMs.toFixed(1)} ms (median of 15)`,
    );
    line('the same rows with one bare SELECT (baseline)', `${bareMs.toFixed(1)} ms`);
    line('  ratio GraphQL : bare SELECT', `${(graphqlMs / bareMs).toFixed(1)}x`);
  } finally {
    await server.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function fanoutBench(databaseUrl: string, redisUrl: string) {
  const database = await createTestDatabase(databaseUrl);
  const channel = `pipewright.bench.${newId()}`;
  const dataDirs = [
    await mkdtemp(join(tmpdir(), 'pipewright-bench-')),
    await mkdtemp(join(tmpdir(), 'pipewright-bench-')),
  ];
  // Process A is this one: a core on the shared database and Redis whose event bus stores and publishes each event,
  // as any addon's emit does. Process B is a server started as `npm start` runs it; its websocket client is a third process.
  const config = {
    ...readConfig({ ...process.env, LOG_LEVEL: 'warn' }),
    dataDir: dataDirs[0],
    databaseUrl: database.url,
    redisUrl,
    redisChannel: channel,
  };
  const emitter = await createServer({ config, only: ['events'] });
  const port = await freePort();
  const b = `127.0.0.1:${port}`;
  const server = await startServerProcess({
    ...process.env,
    NODE_OPTIONS: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDirs[1],
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    REDIS_CHANNEL: channel,
    LOG_LEVEL: 'info',
  });
  try {
    const post = (path: string, body: unknown) =>
      fetch(`http://${b}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/api/onboarding/initialize', { adminName: 'admin', adminPassword: 'a strong password' });
    const { token } = (await (
      await post('/api/auth/login', { name: 'admin', password: 'a strong password' })
    ).json()) as { token: string };

    const total = RATE * SECONDS;
    const interval = 1000 / RATE;
    const now = () => performance.timeOrigin + performance.now();
    // The client runs in a process of its own (see ws-listener.ts); A notes when it publishes each event (after
    // the database write) and when it was asked to emit it.
    const listener = spawn(process.execPath, ['--import', 'tsx', join(here, 'ws-listener.ts')], {
      env: {
        ...process.env,
        BENCH_WS_URL: `ws://${b}/ws`,
        BENCH_TOKEN: token,
        BENCH_EXPECT: String(total),
        BENCH_WAIT_MS: String(SECONDS * 1000 + 15_000),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    listener.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    const heard = new Promise<Record<string, number>>((done) =>
      listener.on('exit', () => done(JSON.parse(output.split('\n').find((l) => l.startsWith('{')) ?? '{}'))),
    );
    while (!output.includes('ready')) await new Promise((r) => setTimeout(r, 20));

    const askedAt = new Map<string, number>();
    const publishedAt = new Map<string, number>();
    emitter.events.subscribe('bench.tick', (message) => void publishedAt.set(message.id, now()));
    const paced = async (send: () => Promise<unknown>) => {
      const started = Date.now();
      const pending: Promise<unknown>[] = [];
      for (let i = 0; i < total; i++) {
        const wait = started + i * interval - Date.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        pending.push(send());
      }
      await Promise.all(pending);
      return total / ((Date.now() - started) / 1000);
    };
    const achieved = await paced(async () => {
      const asked = now();
      const { id } = await emitter.events.emit({ topic: 'bench.tick', summary: {} });
      askedAt.set(id, asked);
    });
    const received = await heard;
    const fanout: number[] = [];
    const latencies: number[] = [];
    for (const [id, at] of Object.entries(received)) {
      if (publishedAt.has(id)) fanout.push(at - publishedAt.get(id)!);
      if (askedAt.has(id)) latencies.push(at - askedAt.get(id)!);
    }
    fanout.sort((x, y) => x - y);
    latencies.sort((x, y) => x - y);

    // Baseline: the bare transport, a Redis publish heard by a subscriber, at the same rate.
    const publisher = createClient({ url: redisUrl });
    const subscriber = publisher.duplicate();
    await Promise.all([publisher.connect(), subscriber.connect()]);
    const bare: number[] = [];
    await subscriber.subscribe(`${channel}.bare`, (message) => void bare.push(Date.now() - Number(message)));
    await paced(() => publisher.publish(`${channel}.bare`, String(Date.now())));
    await new Promise((r) => setTimeout(r, 200));
    await Promise.all([publisher.quit(), subscriber.quit()]);
    bare.sort((x, y) => x - y);

    console.log(`Websocket fan-out from one server process to another (PostgreSQL + Redis), ${total} events`);
    const ms = (values: number[], p: number) => percentile(values, p).toFixed(1);
    line(
      `events stored and published on A, offered ${RATE}/s`,
      `achieved ${achieved.toFixed(0)}/s, ${Object.keys(received).length}/${total} heard on B`,
    );
    line(
      'latency publish on A -> websocket client of B (target p99 <= 50 ms)',
      `p50 ${ms(fanout, 50)} ms, p99 ${ms(fanout, 99)} ms, max ${fanout.at(-1)!.toFixed(1)} ms`,
    );
    line(
      'latency emit on A (database write included) -> client of B',
      `p50 ${ms(latencies, 50)} ms, p99 ${ms(latencies, 99)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    line(
      'bare Redis publish -> subscriber (baseline)',
      `p50 ${percentile(bare, 50)} ms, p99 ${percentile(bare, 99)} ms`,
    );
  } finally {
    await stopServerProcess(server);
    await emitter.close();
    await database.drop();
    for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
  }
}

await graphqlBench();
if (process.env.DATABASE_URL && process.env.REDIS_URL)
  await fanoutBench(process.env.DATABASE_URL, process.env.REDIS_URL);
else console.log('Websocket fan-out: skipped (needs DATABASE_URL and REDIS_URL)');
