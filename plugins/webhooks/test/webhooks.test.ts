import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { Webhook as Verifier } from 'standardwebhooks';

// Webhooks against a real HTTP receiver on this machine (so private targets are allowed, as a studio allows a
// receiver inside its network), verified with the Standard Webhooks reference library's own verifier.
let core: TestCore;
let admin: string;
let boss: string;
let artie: string;
let receiver: Server;
let target: string;
const P = '/api/projects/show';

interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}
let received: Received[] = [];
/** What the receiver answers next, in turn; 200 once the list is empty. */
let answers: { status: number; headers?: Record<string, string> }[] = [];

const as = (token: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const messages = (type?: string) =>
  received.map((r) => ({ ...r, json: JSON.parse(r.body) })).filter((r) => !type || r.json.type === type);

async function hook(body: Record<string, unknown>, token = admin): Promise<{ id: string; secret: string }> {
  const res = await as(token)('POST', '/api/webhooks', { name: 'tracker', url: target, ...body });
  if (res.status !== 201) throw new Error(`webhook: ${res.status} ${res.text}`);
  return res.body;
}

async function folder(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await as(admin)('POST', `${P}/folders`, { name, folderType: 'Shot', ...extra });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id;
}

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body, at: Date.now() });
      const answer = answers.shift() ?? { status: 200 };
      response.writeHead(answer.status, answer.headers).end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  core = await bootTestCore({ addons: ['webhooks', 'entities', 'users'] });
  admin = await seedUser(core, 'admin', { isAdmin: true });
  boss = await seedUser(core, 'boss', { isManager: true });
  artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  expect((await as(admin)('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
});
afterAll(async () => {
  await core.close();
  receiver.close();
  delete process.env.WEBHOOKS_ALLOW_PRIVATE;
});
beforeEach(async () => {
  // Each test starts with no webhook and an empty receiver.
  for (const { id } of (await as(admin)('GET', '/api/webhooks')).body.webhooks)
    await as(admin)('DELETE', `/api/webhooks/${id}`);
  received = [];
  answers = [];
});

describe('managing webhooks', () => {
  it('is for managers (their projects) and administrators (the studio); the secret is shown once', async () => {
    expect((await as(artie)('GET', '/api/webhooks')).status).toBe(403);
    const studio = await as(boss)('POST', '/api/webhooks', { name: 'all', url: target, topics: ['*'] });
    expect(studio.status).toBe(403);
    const mine = await hook({ projectName: 'show', topics: ['entity.*'] }, boss);
    expect(mine.secret).toMatch(/^whsec_/);
    const shown = await as(boss)('GET', `/api/webhooks/${mine.id}`);
    expect(shown.body).toMatchObject({
      projectName: 'show',
      topics: ['entity.*'],
      active: true,
      health: 'active',
    });
    expect(JSON.stringify(shown.body)).not.toContain(mine.secret);
    await hook({ topics: ['*'] });
    expect((await as(boss)('GET', '/api/webhooks')).body.webhooks).toHaveLength(1);
    expect((await as(admin)('GET', '/api/webhooks')).body.webhooks).toHaveLength(2);
  });

  it('posts only to http(s), and never to private or local addresses unless the server allows them', async () => {
    const bad = await as(admin)('POST', '/api/webhooks', {
      name: 'x',
      url: 'ftp://example.com/',
      topics: ['*'],
    });
    expect(bad.status).toBe(400);
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    try {
      for (const url of [target, 'http://10.1.2.3/', 'http://[::1]:8080/', 'http://169.254.169.254/latest']) {
        const refused = await as(admin)('POST', '/api/webhooks', { name: 'x', url, topics: ['*'] });
        expect([refused.status, refused.body.detail]).toEqual([
          400,
          expect.stringContaining('private or local'),
        ]);
      }
    } finally {
      process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';
    }
  });
});

describe('delivery', () => {
  it('posts a signed message for each matching event within 2 s, in order, verified by the reference library', async () => {
    const { secret } = await hook({ projectName: 'show', topics: ['entity.folder.*'] });
    const created = Date.now();
    const id = await folder('sh010');
    expect((await as(admin)('PATCH', `${P}/folders/${id}`, { status: 'In progress' })).status).toBe(204);
    await as(admin)('POST', `${P}/tasks`, { name: 'comp', taskType: 'Compositing', folderId: id });
    const [first, second] = await until(messages, (list) => list.length >= 2);
    expect(first!.at - created).toBeLessThan(2000);
    const verified = new Verifier(secret).verify(first!.body, first!.headers) as Record<string, any>;
    expect(verified).toMatchObject({
      type: 'entity.folder.created',
      data: { project: 'show', user: 'admin' },
    });
    expect(verified.data.summary.entityId).toBe(id);
    expect(second!.json.type).toBe('entity.folder.status_changed');
    expect(second!.json.sequence).toBeGreaterThan(first!.json.sequence);
    // The task is no folder event.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messages().map((m) => m.json.type)).toEqual([
      'entity.folder.created',
      'entity.folder.status_changed',
    ]);
  });

  it('narrows by entity type and attribute; full payloads carry the old and new values', async () => {
    await hook({
      topics: ['entity.*.attrib_changed'],
      entityTypes: ['folder'],
      attributes: ['fps'],
      payload: 'full',
    });
    const id = await folder('sh020');
    await as(admin)('PATCH', `${P}/folders/${id}`, { attrib: { frameStart: 1001 } });
    await as(admin)('PATCH', `${P}/folders/${id}`, { attrib: { fps: 25 } });
    const [message] = await until(messages, (list) => list.length >= 1);
    expect(message!.json.data.payload).toMatchObject({ newValue: { frameStart: 1001, fps: 25 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messages()).toHaveLength(1);
  });

  it('sends only the events its conditions hold for, and refuses conditions it cannot compare', async () => {
    const { id: webhook } = await hook({
      topics: ['entity.folder.status_changed'],
      conditions: [
        { path: 'payload.newValue', op: 'in', value: ['Approved', 'Final'] },
        { path: 'payload.oldValue', op: 'ne', value: 'Omitted' },
      ],
    });
    const id = await folder('sh025');
    for (const status of ['In progress', 'Approved', 'Omitted', 'Final'])
      await as(admin)('PATCH', `${P}/folders/${id}`, { status });
    // Approved (from In progress) passes; Omitted is not wanted; Final comes from Omitted.
    const [approved] = await until(messages, (list) => list.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messages()).toHaveLength(1);
    expect(approved!.json.data).toMatchObject({ summary: { entityId: id } });
    expect(approved!.json.data.payload).toBeUndefined();
    const shown = (await as(admin)('GET', `/api/webhooks/${webhook}`)).body;
    expect(shown.conditions).toHaveLength(2);
    for (const [condition, msg] of [
      [{ path: 'payload.newValue', op: 'in', value: 'Approved' }, 'a list of values'],
      [{ path: 'payload.newValue', op: 'gt', value: { a: 1 } }, 'a number or a text'],
      [{ path: 'payload..x', op: 'exists' }, 'not a path'],
      [{ path: 'user', op: 'eq' }, 'needs a value'],
    ] as const) {
      const refused = await as(admin)('PATCH', `/api/webhooks/${webhook}`, { conditions: [condition] });
      expect([refused.status, refused.body.detail]).toEqual([422, expect.stringContaining(msg)]);
    }
    const unknown = await as(admin)('PATCH', `/api/webhooks/${webhook}`, {
      conditions: [{ path: 'user', op: 'like', value: 'a' }],
    });
    expect(unknown.status).toBe(422);
  });

  it('batches what is due, up to its batch size, under one webhook-id that retries keep', async () => {
    const { id: webhook, secret } = await hook({ topics: ['entity.folder.created'], batchSize: 3 });
    // Held while paused, the seven messages are due together when it is resumed: three requests.
    await as(admin)('PATCH', `/api/webhooks/${webhook}`, { active: false });
    const made: string[] = [];
    for (const name of ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7']) made.push(await folder(name));
    answers = [{ status: 500 }];
    await as(admin)('PATCH', `/api/webhooks/${webhook}`, { active: true });
    // The request that failed is sent again after about 5 s, with the same messages and webhook-id.
    await until(
      () => as(admin)('GET', `/api/webhooks/${webhook}/deliveries`),
      (res) =>
        res.body.deliveries.length === 7 && res.body.deliveries.every((d: any) => d.status === 'delivered'),
      20_000,
    );
    const sent = messages();
    expect(sent).toHaveLength(4);
    for (const message of sent)
      expect(new Verifier(secret).verify(message.body, message.headers)).toMatchObject({ type: 'batch' });
    const byId = new Map<string, typeof sent>();
    for (const message of sent)
      byId.set(message.headers['webhook-id']!, [
        ...(byId.get(message.headers['webhook-id']!) ?? []),
        message,
      ]);
    expect([...byId.values()].map((requests) => requests.length).sort()).toEqual([1, 1, 2]);
    const [failed, retry] = [...byId.values()].find((requests) => requests.length === 2)!;
    expect(retry!.json.data).toEqual(failed!.json.data);
    const batches = [...byId.values()].map(([first]) => first!.json.data);
    expect(batches.map((data) => data.length).sort()).toEqual([1, 3, 3]);
    const ids = batches.flat().map((message: any) => message.data.summary.entityId);
    expect(ids.sort()).toEqual([...made].sort());
    for (const data of batches) {
      const sequences = data.map((message: any) => message.sequence);
      expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    }
    // One failed request counts once against the endpoint's health; the log names each message's batch.
    const log = (await as(admin)('GET', `/api/webhooks/${webhook}/deliveries`)).body.deliveries;
    expect(new Set(log.map((d: any) => d.batchId)).size).toBe(3);
    expect((await as(admin)('GET', `/api/webhooks/${webhook}`)).body).toMatchObject({
      failures: 0,
      batchSize: 3,
    });
  }, 30_000);

  it('keeps the webhook-id on retries, honours Retry-After, and logs every attempt', async () => {
    const { id: webhook } = await hook({ topics: ['entity.folder.created'] });
    answers = [
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 503, headers: { 'retry-after': '1' } },
    ];
    await folder('sh030');
    // 429 and 503 each ask for a second's wait, sooner than the schedule's; the third attempt succeeds.
    const tries = await until(messages, (list) => list.length >= 3, 15_000);
    expect(new Set(tries.map((t) => t.headers['webhook-id'])).size).toBe(1);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(900);
    const log = await until(
      () => as(admin)('GET', `/api/webhooks/${webhook}/deliveries`),
      (res) => res.body.deliveries[0]?.status === 'delivered',
    );
    expect(log.body.deliveries).toMatchObject([
      { status: 'delivered', attempts: 3, topic: 'entity.folder.created' },
    ]);
    const detail = await as(admin)('GET', `/api/webhooks/${webhook}/deliveries/${log.body.deliveries[0].id}`);
    expect(detail.body.log.map((a: { statusCode: number }) => a.statusCode)).toEqual([429, 503, 200]);
    expect(detail.body.log[2].response).toBe('thanks');
    expect(detail.body.id).toBe(tries[0]!.headers['webhook-id']!.replaceAll('-', ''));
  }, 30_000);

  it('pauses an endpoint that answers 410, holds its messages and sends them when it is resumed', async () => {
    const { id: webhook } = await hook({ topics: ['entity.folder.created'] });
    answers = [{ status: 410 }];
    await folder('sh040');
    await until(
      async () => (await as(admin)('GET', `/api/webhooks/${webhook}`)).body,
      (state) => state.active === false,
    );
    expect((await as(admin)('GET', `/api/webhooks/${webhook}`)).body.health).toBe('failed');
    // Whoever made it is told in their inbox, with the way to its screen.
    const notices = (await as(admin)('GET', '/api/notices?unreadOnly=true')).body.notices;
    expect(notices.filter((n: any) => n.topic === 'webhook.paused')).toEqual([
      expect.objectContaining({
        title: 'Webhook "tracker" paused: the endpoint answered 410 Gone',
        link: `/addon/webhooks/webhooks_screens?webhook=${webhook}`,
      }),
    ]);
    await folder('sh050');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messages()).toHaveLength(1);
    expect((await as(admin)('PATCH', `/api/webhooks/${webhook}`, { active: true })).status).toBe(204);
    const sent = await until(messages, (list) => list.length >= 2);
    expect(sent[1]!.json.data.summary.entityId).toBeDefined();
    expect((await as(admin)('GET', `/api/webhooks/${webhook}`)).body).toMatchObject({
      active: true,
      health: 'active',
    });
  });

  it('sends nothing for a write that rolls back', async () => {
    const { id: webhook } = await hook({ topics: ['entity.*'] });
    const res = await as(admin)('POST', `${P}/operations`, {
      operations: [
        { type: 'create', entityType: 'folder', data: { name: 'ghost', folderType: 'Shot' } },
        { type: 'update', entityType: 'folder', entityId: '0'.repeat(32), data: { label: 'x' } },
      ],
    });
    expect(res.body.success).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(messages()).toEqual([]);
    expect((await as(admin)('GET', `/api/webhooks/${webhook}/deliveries`)).body.deliveries).toEqual([]);
  });

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const { id: webhook, secret: old } = await hook({ topics: ['webhook.ping'] });
    const rotated = await as(admin)('POST', `/api/webhooks/${webhook}/secret`);
    expect(rotated.body.secret).not.toBe(old);
    expect((await as(admin)('POST', `/api/webhooks/${webhook}/ping`)).status).toBe(200);
    const [ping] = await until(messages, (list) => list.length >= 1);
    expect(ping!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [old, rotated.body.secret])
      expect(new Verifier(secret).verify(ping!.body, ping!.headers)).toMatchObject({ type: 'webhook.ping' });
  });

  it('redelivers one message, with the same webhook-id, and replays a time range', async () => {
    const { id: webhook } = await hook({ topics: ['entity.folder.created'] });
    const since = new Date(Date.now() - 1000).toISOString();
    await folder('sh060');
    await folder('sh070');
    await until(messages, (list) => list.length >= 2);
    const [newest] = (await as(admin)('GET', `/api/webhooks/${webhook}/deliveries`)).body.deliveries;
    expect(
      (await as(admin)('POST', `/api/webhooks/${webhook}/deliveries/${newest.id}/redeliver`)).status,
    ).toBe(204);
    const again = await until(messages, (list) => list.length >= 3);
    expect(again[2]!.headers['webhook-id']).toBe(again[1]!.headers['webhook-id']);
    const replay = await as(admin)('POST', `/api/webhooks/${webhook}/replay`, { since });
    expect(replay.body).toEqual({ queued: 2 });
    await until(messages, (list) => list.length >= 5);
    const missing = await as(admin)(
      'POST',
      `/api/webhooks/${webhook}/deliveries/${'0'.repeat(32)}/redeliver`,
    );
    expect(missing.status).toBe(404);
  });
});
