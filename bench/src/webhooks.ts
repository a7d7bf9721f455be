// Outbound webhooks (issue 36), over real HTTP against server processes started as `npm start` starts them. Writes
// (folder creations) arrive at BENCH_RATE a second (default 200) in an open loop: each is sent on schedule whatever the
// earlier ones are doing, as a studio's writes do. A receiver in this process answers 204 and notes when each
// message arrives. Each of BENCH_ROUNDS rounds (default 3) runs BENCH_SECONDS (default 10) of writes in each phase, in turn:
//   baseline  no webhook: the writes' latency;
//   webhook   one webhook for entity.folder.created: the writes' latency (the cost of enqueueing, as a ratio to the
//             baseline) and how long each message's first attempt came after its write was sent;
//   crash     as webhook, and one server process is SIGKILLed halfway, then started again: every committed write's
//             message must arrive (once per webhook-id), and the same lag is printed over all of them.
// Storages: PGlite (one process), and PostgreSQL when DATABASE_URL is set: two processes on a fresh database sharing
// REDIS_URL (or a redis-server of this run), the writes alternating between them; the crash kills the second.
// Run: [DATABASE_URL=postgres://... REDIS_URL=redis://...] npm run bench:webhooks -w @pipewright/bench
import { createServer, type Server } from 'node:http';
import { onboardAdmin, serverProcessGroup } from '@pipewright/core/testing';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TIMEOUT_MS = 2000;

/** A message's arrival: when, and its webhook-id. */
const arrivals = new Map<string, { at: number; ids: Set<string> }>();

function receiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const folder: string = JSON.parse(body).data?.summary?.entityId ?? '';
      const seen = arrivals.get(folder) ?? { at: Date.now(), ids: new Set<string>() };
      seen.ids.add(String(request.headers['webhook-id']));
      arrivals.set(folder, seen);
      response.writeHead(204).end();
    });
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks` }),
    ),
  );
}

interface Deployment {
  bases: string[];
  token: string;
  /** Kill the last process and start it again once `whileDown` has run. */
  crash(whileDown: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

async function deploy(storage: 'pglite' | 'postgres'): Promise<Deployment> {
  const group = await serverProcessGroup(
    storage === 'postgres' ? 2 : 1,
    { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    storage === 'postgres' ? process.env.DATABASE_URL! : null,
  );
  const token = await onboardAdmin(group.bases[0]!);
  return {
    bases: group.bases,
    token,
    async crash(whileDown) {
      const last = group.processes.length - 1;
      const exited = new Promise((done) => group.processes[last]!.once('exit', done));
      group.processes[last]!.kill('SIGKILL');
      await exited;
      await whileDown();
      await group.restart(last);
    },
    close: () => group.close(),
  };
}

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

interface Write {
  id: string;
  sentAt: number;
  latency: number;
}

/**
 * SECONDS of folder creations at RATE a second, spread over the processes; `halfway` runs at the middle, beside the
 * writes. The committed writes: those that answered with an id.
 */
async function writes(site: Deployment, round: string, halfway?: () => Promise<void>): Promise<Write[]> {
  const total = RATE * SECONDS;
  const started = performance.now();
  const pending: Promise<Write | null>[] = [];
  let side: Promise<void> = Promise.resolve();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (halfway && i === Math.floor(total / 2)) side = halfway();
    const sentAt = Date.now();
    const base = site.bases[i % site.bases.length]!;
    pending.push(
      call(base, site.token, 'POST', '/api/projects/bench/folders', {
        name: `${round}_${i}`,
        folderType: 'Shot',
      })
        .then((answer) => ({ id: answer.id as string, sentAt, latency: Date.now() - sentAt }))
        .catch(() => null),
    );
  }
  const done = (await Promise.all(pending)).filter((write): write is Write => write !== null);
  await side;
  return done;
}

async function delivered(committed: Write[], ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (committed.some(({ id }) => !arrivals.has(id))) {
    if (Date.now() > end) {
      const missing = committed.filter(({ id }) => !arrivals.has(id)).length;
      throw new Error(
        `${missing} of ${committed.length} committed writes' messages did not arrive within ${ms} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(sorted(values), 0.5);

function lags(committed: Write[]): number[] {
  return sorted(committed.map(({ id, sentAt }) => arrivals.get(id)!.at - sentAt));
}

async function bench(storage: 'pglite' | 'postgres', target: string) {
  const site = await deploy(storage);
  try {
    await call(site.bases[0]!, site.token, 'POST', '/api/projects', { name: 'bench', code: 'bn' });
    // Warm-up, with and without a webhook: a server just started runs slowly until V8 has optimised its code.
    const hook = (name: string) =>
      call(site.bases[0]!, site.token, 'POST', '/api/webhooks', {
        name,
        url: target,
        topics: ['entity.folder.created'],
      });
    const unhook = (id: string) => call(site.bases[0]!, site.token, 'DELETE', `/api/webhooks/${id}`);
    await writes(site, 'warmup');
    const warm = await hook('warm-up');
    await delivered(await writes(site, 'warmhook'), 30_000);
    await unhook(warm.id);
    const baseP95: number[] = [];
    const hookedP95: number[] = [];
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const base = sorted((await writes(site, `base${round}`)).map((w) => w.latency));
      const endpoint = await hook(`round ${round}`);
      const committed = await writes(site, `hook${round}`);
      await delivered(committed, 30_000);
      await unhook(endpoint.id);
      const hooked = sorted(committed.map((w) => w.latency));
      const lag = lags(committed);
      baseP95.push(percentile(base, 0.95));
      hookedP95.push(percentile(hooked, 0.95));
      ratios.push(percentile(hooked, 0.95) / percentile(base, 0.95));
      console.log(
        `  round ${round}: write p50/p95 ${percentile(base, 0.5)}/${percentile(base, 0.95)} ms without, ` +
          `${percentile(hooked, 0.5)}/${percentile(hooked, 0.95)} ms with a webhook; first attempt after the write ` +
          `p50 ${percentile(lag, 0.5)} ms, p95 ${percentile(lag, 0.95)} ms, max ${lag.at(-1)} ms`,
      );
    }
    console.log(
      `  write p95: ${median(baseP95)} ms without a webhook, ${median(hookedP95)} ms with one: ` +
        `ratio ${median(ratios).toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    // A crash at RATE a second: SIGKILL halfway, started again at once.
    const endpoint = await hook('crash');
    let downFor = 0;
    const committed = await writes(site, 'crash', () =>
      site
        .crash(async () => {
          downFor = Date.now();
        })
        .then(() => void (downFor = Date.now() - downFor)),
    );
    await delivered(committed, 60_000);
    await unhook(endpoint.id);
    const lag = lags(committed);
    const twice = committed.filter(({ id }) => arrivals.get(id)!.ids.size > 1).length;
    console.log(
      `  crash: ${committed.length} of ${RATE * SECONDS} writes committed, all delivered (${twice} with more than ` +
        `one webhook-id); restart took ${downFor} ms; first attempt p50 ${percentile(lag, 0.5)} ms, ` +
        `p95 ${percentile(lag, 0.95)} ms, p99 ${percentile(lag, 0.99)} ms, max ${lag.at(-1)} ms`,
    );
    if (twice > 0) throw new Error(`${twice} messages arrived under more than one webhook-id`);
  } finally {
    await site.close();
  }
}

const { server, url } = await receiver();
try {
  console.log(`Webhooks at ${RATE} writes a second, ${SECONDS} s a phase, ${ROUNDS} rounds`);
  console.log('PGlite, one process:');
  await bench('pglite', url);
  if (process.env.DATABASE_URL) {
    console.log('PostgreSQL with Redis, two processes:');
    await bench('postgres', url);
  }
} finally {
  server.close();
}
