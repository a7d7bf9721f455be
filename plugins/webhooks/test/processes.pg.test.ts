import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serverProcessGroup, type ServerProcessGroup } from '@pipewright/core/testing';

// Two real server processes (`npm start`'s entry point) on one PostgreSQL database and one Redis, both sending what
// is due: every message reaches the receiver, none twice. Then one process is killed (SIGKILL) while writes stream
// in, and restarted: every event a committed write made is still delivered, a message sent again keeps its
// webhook-id. How soon messages follow their writes at 200 writes a second, through a crash too, is measured by
// bench/src/webhooks.ts. Only in the PostgreSQL pass (see jest.config.js).

const PASSWORD = 'a strong password';
const WRITES = 240;
const WRITERS = 6;

let group: ServerProcessGroup | undefined;
let bases: string[] = [];
let receiver: Server;
let token = '';
/** webhook-id of each message received, in order. */
const received: { id: string; folder: string }[] = [];

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function until(done: () => boolean, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  if (!process.env.DATABASE_URL) throw new Error('processes.pg.test.ts needs DATABASE_URL');
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const folder = JSON.parse(body).data?.summary?.entityId ?? '';
      received.push({ id: String(request.headers['webhook-id']), folder });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  group = await serverProcessGroup(2, {
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    // A message claimed by a killed process is free again after this and 10 s.
    WEBHOOK_TIMEOUT_MS: '2000',
  });
  bases = group.bases;
  const [a] = bases;
  token = (
    await call(a!, 'POST', '/api/onboarding/initialize', { adminName: 'admin', adminPassword: PASSWORD })
  ).token;
  await call(a!, 'POST', '/api/projects', { name: 'hooked', code: 'hk' });
  await call(a!, 'POST', '/api/webhooks', {
    name: 'all folders',
    url: target,
    topics: ['entity.folder.created'],
  });
}, 120_000);

afterAll(async () => {
  await group?.close();
  receiver?.close();
}, 30_000);

const folder = (base: string, name: string) =>
  call(base, 'POST', '/api/projects/hooked/folders', { name, folderType: 'Shot' }).then(
    (answer) => answer.id,
  );

describe('webhooks on two server processes', () => {
  it('deliver every message once between them', async () => {
    const made = await Promise.all(
      Array.from({ length: 100 }, (_, i) => folder(bases[i % 2]!, `shared${i}`)),
    );
    await until(
      () => received.length >= made.length,
      20_000,
      `${received.length} of ${made.length} received`,
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(received).toHaveLength(made.length);
    expect(new Set(received.map((r) => r.id)).size).toBe(made.length);
    expect(new Set(received.map((r) => r.folder))).toEqual(new Set(made));
  }, 60_000);

  it(`deliver every committed write's message after a SIGKILL under load, under one webhook-id`, async () => {
    received.length = 0;
    const committed: string[] = [];
    // Six writers to process B, until it is killed halfway; A keeps sending.
    let started = 0;
    const writer = async (n: number) => {
      for (let i = 0; i < WRITES / WRITERS; i++) {
        if (++started === WRITES / 2) group!.processes[1]!.kill('SIGKILL');
        const id = await folder(bases[1]!, `crash${n}_${i}`).catch(() => null);
        if (id) committed.push(id);
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n)));
    expect(committed.length).toBeGreaterThan(WRITES / 4);
    await group!.restart(1);
    await until(
      () => committed.every((id) => received.some((r) => r.folder === id)),
      30_000,
      `${committed.filter((id) => !received.some((r) => r.folder === id)).length} committed writes undelivered`,
    );
    // Sent again after the kill, a message keeps its webhook-id: one id per folder.
    const idsPerFolder = new Map<string, Set<string>>();
    for (const r of received) idsPerFolder.set(r.folder, (idsPerFolder.get(r.folder) ?? new Set()).add(r.id));
    expect([...idsPerFolder.values()].every((ids) => ids.size === 1)).toBe(true);
  }, 120_000);
});
