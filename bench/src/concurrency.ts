// The request path under concurrency (issue 25): real HTTP from BENCH_CONNECTIONS clients (default 50) for
// BENCH_DURATION seconds per figure (default 10) against one server process started as `npm start` starts it, each
// figure next to a bare Fastify process measured in the same run (bare-server.ts):
//   authenticated GET /api/info            vs a bare route answering the same JSON body;
//   GET /api/projects/{p}/folders/{id}     vs a bare route doing one SELECT of that row over a pool of the same size.
// Storages: PGlite always, and PostgreSQL when DATABASE_URL is set (a fresh database is created on that server;
// REDIS_URL, when set, is given to the server as a multi-process deployment has it). The server and the baseline
// never run at the same time; the load generator is this process.
// Run: [DATABASE_URL=postgres://... REDIS_URL=redis://...] npm run bench:concurrency -w @pipewright/bench
// BENCH_CPU_PROF=<dir> writes a --cpu-prof profile of the server process there.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createTestDatabase, freePort } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? 20);
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

interface Figure {
  requests: number;
  p50: number;
  p99: number;
}

/** Start a process and wait until GET url answers (any status). Its output is drained and dropped. */
async function startProcess(args: string[], env: NodeJS.ProcessEnv, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => void (output.length < 20_000 && (output += chunk));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null)
      throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${output}`);
    if (tries > 1200) throw new Error(`${args.join(' ')} did not answer within 120 s: ${output}`);
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/** Load a URL with CONNECTIONS clients: a short warm-up, then the measured run. */
async function load(url: string, headers: Record<string, string> = {}): Promise<Figure> {
  const check = await fetch(url, { headers });
  if (check.status !== 200) throw new Error(`${url} answered ${check.status}: ${await check.text()}`);
  await autocannon({ url, headers, connections: CONNECTIONS, duration: Math.max(1, DURATION / 5) });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(
      `${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  return { requests: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function benchStorage(storage: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-concurrency-'));
  const database = storage === 'postgres' ? await createTestDatabase(process.env.DATABASE_URL!) : null;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`]
    : [];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    REDIS_URL: storage === 'postgres' ? (process.env.REDIS_URL ?? '') : '',
    REDIS_CHANNEL: `pipewright.bench.${newId()}`,
  };
  try {
    // The command `npm start` runs (package.json), with the settings as an operator leaves them.
    const server = await startProcess(
      ['--max-semi-space-size=64', ...profile, '--import', 'tsx', 'core/src/main.ts'],
      env,
      `${base}/api/info`,
    );
    let info: Figure, folder: Figure, infoBody: string, folderId: string;
    try {
      const post = async (path: string, body: unknown, token?: string) => {
        const response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        });
        if (!response.ok)
          throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
        return (await response.json()) as any;
      };
      const { token } = await post('/api/onboarding/initialize', {
        adminName: 'bench',
        adminPassword: 'bench password',
      });
      await post('/api/projects', { name: 'bench', code: 'bench' }, token);
      ({ id: folderId } = await post(
        '/api/projects/bench/folders',
        { name: 'sh010', folderType: 'Shot' },
        token,
      ));
      const headers = { authorization: `Bearer ${token}` };
      infoBody = await (await fetch(`${base}/api/info`, { headers })).text();
      info = await load(`${base}/api/info`, headers);
      folder = await load(`${base}/api/projects/bench/folders/${folderId}`, headers);
    } finally {
      await stopProcess(server);
    }

    const barePort = await freePort();
    const bare = await startProcess(
      ['--import', 'tsx', join(here, 'bare-server.ts')],
      {
        ...env,
        PORT: String(barePort),
        BARE_INFO_BODY: infoBody,
        BARE_PGLITE_DIR: join(dataDir, 'pglite'),
      },
      `http://127.0.0.1:${barePort}/info`,
    );
    let bareInfo: Figure, bareFolder: Figure;
    try {
      bareInfo = await load(`http://127.0.0.1:${barePort}/info`);
      bareFolder = await load(`http://127.0.0.1:${barePort}/folders/${folderId}`);
    } finally {
      await stopProcess(bare);
    }

    const title =
      storage === 'pglite'
        ? 'PGlite (embedded, one connection)'
        : `PostgreSQL server, pool of ${POOL_SIZE}${env.REDIS_URL ? ', Redis pub/sub' : ''}`;
    console.log(`\n${title}: ${CONNECTIONS} connections, ${DURATION} s per figure`);
    const row = (label: string, f: Figure) =>
      console.log(
        `  ${label.padEnd(44)} ${f.requests.toFixed(0).padStart(7)} req/s   p50 ${f.p50} ms   p99 ${f.p99} ms`,
      );
    row('GET /api/info, authenticated', info);
    row('bare Fastify JSON route (baseline)', bareInfo);
    console.log(
      `  ${'ratio (target >= 0.5x)'.padEnd(44)} ${(info.requests / bareInfo.requests).toFixed(2)}x`,
    );
    row('GET /api/projects/bench/folders/{id}', folder);
    row('bare Fastify route, one SELECT (baseline)', bareFolder);
    console.log(
      `  ${'ratio (target >= 0.5x)'.padEnd(44)} ${(folder.requests / bareFolder.requests).toFixed(2)}x`,
    );
  } finally {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await benchStorage('pglite');
if (process.env.DATABASE_URL) await benchStorage('postgres');
else console.log('\nPostgreSQL: skipped (set DATABASE_URL)');
