// The request path under concurrency (issue 25): real HTTP from BENCH_CONNECTIONS clients (default 50) against one
// server process started as `npm start` starts it, each figure next to a bare Fastify process (bare-server.ts):
//   authenticated GET /api/info            vs a bare route answering the same JSON body;
//   GET /api/projects/{p}/folders/{id}     vs a bare route doing one SELECT of that row over a pool of the same size;
//   GET /api/settings of a bundle of the six real AYON addons (ayon-core, ayon-applications, ...), with a project,
//                                          as every launcher and pipeline start reads it: the addons' own pydantic
//                                          models compute it in the ayon-host sidecar; vs a bare route answering the
//                                          same JSON body.
// Both processes are warmed up first (BENCH_WARMUP seconds per URL, default 10: a server that has just started runs
// its request path several times slower until V8 has optimised it, and a studio's server runs for days). Then
// BENCH_ROUNDS rounds (default 5) load the server and the baseline in turn for BENCH_DURATION seconds each (default
// 6), only one of them at a time, so a machine whose speed drifts moves both figures of a round alike; the ratio
// printed is the median of the rounds' ratios, with each round's ratio beside it. Short rounds keep the two figures
// of a round close in time, and five of them give a median that one stray round cannot move.
// Storages: PGlite always, and PostgreSQL when DATABASE_URL is set (a fresh database is created on that server;
// REDIS_URL, when set, is given to the server as a multi-process deployment has it). The load generator is this
// process. Run: [DATABASE_URL=postgres://... REDIS_URL=redis://...] npm run bench:concurrency -w @pipewright/bench
// BENCH_CPU_PROF=<dir> writes a --cpu-prof profile of the server process there.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createTestDatabase, freePort } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
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

/** Load a URL with CONNECTIONS clients for this many seconds. */
async function load(url: string, headers: Record<string, string>, duration = DURATION): Promise<Figure> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration });
  if (result.non2xx || result.errors || result.timeouts)
    throw new Error(
      `${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  return { requests: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** A URL loaded on the server and its baseline's URL, compared over the rounds. */
interface Pair {
  label: string;
  baseline: string;
  url: string;
  bareUrl: string;
  /** The ratio the request path is held to (issue 25); absent for a figure followed for its own sake. */
  target?: number;
}

/** Load the server and the baseline in turn, ROUNDS times; the figures of each round and their ratio. */
async function compare(pair: Pair, headers: Record<string, string>) {
  const rounds: { figure: Figure; bare: Figure; ratio: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const figure = await load(pair.url, headers);
    const bare = await load(pair.bareUrl, {});
    rounds.push({ figure, bare, ratio: figure.requests / bare.requests });
  }
  // The round of the median ratio stands for the run; every round's ratio is printed beside it.
  const middle = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
  return { ...middle, ratios: rounds.map((r) => r.ratio) };
}

/**
 * Install the six real AYON addons (built by scripts/build-ayon-addons.sh) and make them the production bundle;
 * answers the URL of their settings in a project.
 */
async function installAyonBundle(base: string, headers: Record<string, string>): Promise<string> {
  const built = execFileSync(join(root, 'scripts/build-ayon-addons.sh'), { encoding: 'utf8' }).trim();
  const addons: Record<string, string> = {};
  for (const file of await readdir(join(built, 'zips'))) {
    const [, name, version] = /^(.+)-(\d+\.\d+\.\d+)\.zip$/.exec(file)!;
    const answer = await fetch(`${base}/api/addons/install`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/zip' },
      body: new Uint8Array(await readFile(join(built, 'zips', file))),
    });
    const { eventId } = (await answer.json()) as { eventId: string };
    for (;;) {
      const event = (await (await fetch(`${base}/api/events/${eventId}`, { headers })).json()) as any;
      if (event.status === 'finished') break;
      if (event.status === 'failed') throw new Error(`${file}: ${event.description}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    addons[name!] = version!;
  }
  const bundle = await fetch(`${base}/api/bundles`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-ayon', addons, isProduction: true }),
  });
  if (!bundle.ok) throw new Error(`POST /api/bundles answered ${bundle.status}: ${await bundle.text()}`);
  return `${base}/api/settings?bundle_name=bench-ayon&project_name=bench`;
}

async function benchStorage(storage: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-concurrency-'));
  const bareDir = await mkdtemp(join(tmpdir(), 'pipewright-concurrency-bare-'));
  const database = storage === 'postgres' ? await createTestDatabase(process.env.DATABASE_URL!) : null;
  const port = await freePort();
  const barePort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const bareBase = `http://127.0.0.1:${barePort}`;
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
  // The command `npm start` runs (package.json), with the settings as an operator leaves them.
  const startServer = () =>
    startProcess(
      ['--max-semi-space-size=64', ...profile, '--import', 'tsx', 'core/src/main.ts'],
      env,
      `${base}/api/info`,
    );
  const processes: ChildProcess[] = [];
  try {
    let server = await startServer();
    processes.push(server);
    const post = async (path: string, body: unknown, token?: string) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as any;
    };
    const { token } = await post('/api/onboarding/initialize', {
      adminName: 'bench',
      adminPassword: 'bench password',
    });
    await post('/api/projects', { name: 'bench', code: 'bench' }, token);
    const { id: folderId } = await post(
      '/api/projects/bench/folders',
      { name: 'sh010', folderType: 'Shot' },
      token,
    );
    const headers = { authorization: `Bearer ${token}` };
    const settingsUrl = await installAyonBundle(base, headers);
    const infoBody = await (await fetch(`${base}/api/info`, { headers })).text();
    // Too large for an environment variable: the baseline reads the body from a file.
    const settingsFile = join(bareDir, 'settings.json');
    await writeFile(settingsFile, await (await fetch(settingsUrl, { headers })).text());
    if (storage === 'pglite') {
      // PGlite is one process's: the baseline reads a copy of the server's data directory, taken while it is shut.
      await stopProcess(server);
      await cp(join(dataDir, 'pglite'), join(bareDir, 'pglite'), { recursive: true });
      server = await startServer();
      processes.push(server);
    }
    processes.push(
      await startProcess(
        ['--import', 'tsx', join(here, 'bare-server.ts')],
        {
          ...env,
          PORT: String(barePort),
          BARE_INFO_BODY: infoBody,
          BARE_SETTINGS_FILE: settingsFile,
          BARE_PGLITE_DIR: join(bareDir, 'pglite'),
        },
        `${bareBase}/info`,
      ),
    );
    const pairs: Pair[] = [
      {
        label: 'GET /api/info, authenticated',
        baseline: 'bare Fastify JSON route (baseline)',
        url: `${base}/api/info`,
        bareUrl: `${bareBase}/info`,
        target: 0.5,
      },
      {
        label: 'GET /api/projects/bench/folders/{id}',
        baseline: 'bare Fastify route, one SELECT (baseline)',
        url: `${base}/api/projects/bench/folders/${folderId}`,
        bareUrl: `${bareBase}/folders/${folderId}`,
        target: 0.5,
      },
      {
        label: 'GET /api/settings, six AYON addons',
        baseline: 'bare Fastify route, same body (baseline)',
        url: settingsUrl,
        bareUrl: `${bareBase}/settings`,
      },
    ];
    for (const pair of pairs) {
      for (const [url, auth] of [
        [pair.url, headers],
        [pair.bareUrl, {}],
      ] as const) {
        const check = await fetch(url, { headers: auth });
        if (check.status !== 200) throw new Error(`${url} answered ${check.status}: ${await check.text()}`);
        await load(url, auth, WARMUP);
      }
    }

    const title =
      storage === 'pglite'
        ? 'PGlite (embedded, one connection)'
        : `PostgreSQL server, pool of ${POOL_SIZE}${env.REDIS_URL ? ', Redis pub/sub' : ''}`;
    console.log(
      `\n${title}: ${CONNECTIONS} connections, ${WARMUP} s warm-up, ${ROUNDS} rounds of ${DURATION} s per figure`,
    );
    const row = (label: string, f: Figure) =>
      console.log(
        `  ${label.padEnd(44)} ${f.requests.toFixed(0).padStart(7)} req/s   p50 ${f.p50} ms   p99 ${f.p99} ms`,
      );
    for (const pair of pairs) {
      const { figure, bare, ratio, ratios } = await compare(pair, headers);
      row(pair.label, figure);
      row(pair.baseline, bare);
      const each = ratios.map((r) => r.toFixed(2)).join(', ');
      const name = pair.target ? `ratio (target >= ${pair.target}x)` : 'ratio';
      console.log(`  ${name.padEnd(44)} ${ratio.toFixed(2)}x   (rounds: ${each})`);
    }
  } finally {
    for (const child of processes) await stopProcess(child);
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(bareDir, { recursive: true, force: true });
  }
}

await benchStorage('pglite');
if (process.env.DATABASE_URL) await benchStorage('postgres');
else console.log('\nPostgreSQL: skipped (set DATABASE_URL)');
