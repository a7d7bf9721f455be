import { connect as connectTcp, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { connect, type TestClient } from './client.js';
import { usersRef } from '@pipewright/plugin-users/api';

// Read by the addon's setup: short enough that a test sees a heartbeat without waiting five seconds.
process.env.PIPEWRIGHT_WS_HEARTBEAT_MS = '300';

const PASSWORD = 'a long enough password 42';
const WIRE_FIELDS = [
  'topic',
  'id',
  'project',
  'user',
  'sender',
  'senderType',
  'dependsOn',
  'description',
  'summary',
  'status',
  'progress',
  'createdAt',
  'updatedAt',
].sort();

describe('the /ws websocket', () => {
  let core: TestCore;
  let url: string;
  const tokens: Record<string, string> = {};
  const clients: TestClient[] = [];

  async function open(query = ''): Promise<TestClient> {
    const client = await connect(`${url}${query}`);
    clients.push(client);
    return client;
  }

  /** A client that has authorised and got its greeting. */
  async function authorised(token: string, subscribe: string[], project?: string): Promise<TestClient> {
    const client = await open();
    client.send({ topic: 'auth', token, subscribe, ...(project ? { project } : {}) });
    await client.next((m) => m.topic === 'server.started');
    return client;
  }

  /** Emit events, then a marker every client follows; once the marker arrived, everything before it has too. */
  async function emitThenSettle(
    receivers: TestClient[],
    ...events: Parameters<TestCore['events']['emit']>[0][]
  ) {
    for (const event of events) await core.events.emit(event);
    const { id } = await core.events.emit({ topic: 'test.marker' });
    for (const client of receivers) await client.next((m) => m.id === id);
  }

  beforeAll(async () => {
    core = await bootTestCore({ addons: ['websocket', 'users'] });
    const users = core.services.get(usersRef);
    await core.db.transaction().execute(async () => {
      await users.create({ name: 'root', password: PASSWORD, data: { isAdmin: true } });
      await users.create({
        name: 'artist',
        password: PASSWORD,
        data: { accessGroups: { demo: ['artist'] } },
      });
    });
    for (const name of ['root', 'artist']) {
      const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
      if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
      tokens[name] = res.body.token;
    }
    const address = await core.app.listen({ port: 0, host: '127.0.0.1' });
    url = `${address.replace(/^http/, 'ws')}/ws`;
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await core?.close();
  });

  it('closes a socket that does not authorise within 3 seconds', async () => {
    const client = await open();
    const started = Date.now();
    const { code, reason } = await client.closed;
    expect(code).toBe(1008);
    expect(reason).toMatch(/authorised within 3/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  }, 10_000);

  it('closes the sockets of a session that ends, whichever way they were opened, and keeps the others', async () => {
    const login = async () =>
      (await core.request('POST', '/api/auth/login', { body: { name: 'artist', password: PASSWORD } })).body
        .token as string;
    const ending = await login();
    const byMessage = await authorised(ending, ['*']);
    const byQuery = await open(`?token=${ending}`);
    byQuery.send({ topic: 'auth', subscribe: ['*'] });
    await byQuery.next((m) => m.topic === 'server.started');
    const other = await authorised(tokens.artist, ['*']);
    expect((await core.request('POST', '/api/auth/logout', { token: ending })).status).toBe(200);
    expect(await byMessage.closed).toEqual({ code: 1008, reason: 'Session ended' });
    expect(await byQuery.closed).toEqual({ code: 1008, reason: 'Session ended' });
    // The artist's other session still hears what happens.
    await emitThenSettle([other], { topic: 'entity.folder.created', project: 'demo' });
  });

  it('closes a socket that authorises with an unknown token', async () => {
    const client = await open();
    client.send({ topic: 'auth', token: 'f'.repeat(64), subscribe: ['*'] });
    expect(await client.closed).toEqual({ code: 1008, reason: 'Invalid or expired token' });
  });

  it('closes a socket whose first message is not an auth message', async () => {
    const client = await open();
    client.send({ topic: 'hello' });
    expect((await client.closed).code).toBe(1008);
  });

  it('greets once with server.started and forwards only subscribed topic prefixes', async () => {
    const client = await authorised(tokens.root, ['entity.folder', 'test.*']);
    await emitThenSettle(
      [client],
      { topic: 'entity.folder.created' },
      { topic: 'entity.task.created' },
      { topic: 'render.done' },
    );
    expect(client.events().map((m) => m.topic)).toEqual(['entity.folder.created', 'test.marker']);
    expect(client.messages.filter((m) => m.topic === 'server.started')).toHaveLength(1);
  });

  it('changes subscriptions when the client authorises again, without a second greeting', async () => {
    const client = await authorised(tokens.root, ['entity.']);
    client.send({ topic: 'auth', token: tokens.root, subscribe: ['render', 'test.'] });
    // The re-subscription is handled asynchronously (token lookup); wait until it took effect.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await emitThenSettle([client], { topic: 'entity.folder.created' }, { topic: 'render.done' });
    expect(client.events().map((m) => m.topic)).toEqual(['render.done', 'test.marker']);
    expect(client.messages.filter((m) => m.topic === 'server.started')).toHaveLength(1);
  });

  it('sends a normal user only events of projects an access group opens, and managers everything', async () => {
    const artist = await authorised(tokens.artist, ['*']);
    const root = await authorised(tokens.root, ['*']);
    await emitThenSettle(
      [artist, root],
      { topic: 'entity.folder.created', project: 'other' },
      { topic: 'entity.folder.created', project: 'Demo' },
    );
    expect(artist.events().map((m) => [m.topic, m.project])).toEqual([
      ['entity.folder.created', 'Demo'],
      ['test.marker', null],
    ]);
    expect(root.events().map((m) => m.project)).toEqual(['other', 'Demo', null]);
  });

  it('narrows to the project the client named, except inbox messages', async () => {
    const client = await authorised(tokens.root, ['*'], 'demo');
    await emitThenSettle(
      [client],
      { topic: 'entity.folder.created', project: 'other' },
      { topic: 'entity.folder.created', project: 'demo' },
      { topic: 'inbox.message', project: 'other', recipients: ['root'] },
    );
    expect(client.events().map((m) => [m.topic, m.project])).toEqual([
      ['entity.folder.created', 'demo'],
      ['inbox.message', 'other'],
      ['test.marker', null],
    ]);
  });

  it('delivers events with recipients only to those users', async () => {
    const artist = await authorised(tokens.artist, ['*']);
    const root = await authorised(tokens.root, ['*']);
    await emitThenSettle([artist, root], { topic: 'inbox.message', recipients: ['Artist'], store: false });
    expect(artist.events().map((m) => m.topic)).toEqual(['inbox.message', 'test.marker']);
    expect(root.events().map((m) => m.topic)).toEqual(['test.marker']);
  });

  it('never sends the payload, only the broadcast fields', async () => {
    const client = await authorised(tokens.root, ['render']);
    const { id } = await core.events.emit({
      topic: 'render.finished',
      project: 'demo',
      summary: { frames: 240 },
      payload: { secret: 'x' },
    });
    const message = await client.next((m) => m.id === id);
    expect(Object.keys(message).sort()).toEqual(WIRE_FIELDS);
    expect(message).toMatchObject({
      topic: 'render.finished',
      project: 'demo',
      summary: { frames: 240 },
      status: 'finished',
    });
    expect(JSON.stringify(client.messages)).not.toContain('secret');
  });

  it('sends heartbeats to idle authorised sockets, whatever they subscribed to', async () => {
    const client = await authorised(tokens.artist, []);
    const heartbeat = await client.next((m) => m.topic === 'heartbeat', 2000);
    expect(heartbeat).toMatchObject({ topic: 'heartbeat', project: null });
    expect(heartbeat).not.toHaveProperty('payload');
  });

  it('accepts the token on the upgrade request (?token=) and an auth message without one', async () => {
    const client = await open(`?token=${tokens.artist}`);
    client.send({ topic: 'auth', subscribe: ['test.'] });
    await client.next((m) => m.topic === 'server.started');
    const { id } = await core.events.emit({ topic: 'test.marker', project: 'demo' });
    expect(await client.next((m) => m.id === id)).toMatchObject({ project: 'demo' });
  });

  it('closes the socket of an upgrade request to another path once it is answered', async () => {
    const { port } = core.app.server.address() as AddressInfo;
    const socket = connectTcp(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      'GET /api/users/me HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    const timeout = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 3000));
    expect(await Promise.race([closed.then(() => 'closed'), timeout])).toBe('closed');
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('answers a plain HTTP GET /ws with 400 and keeps it out of the OpenAPI document', async () => {
    const res = await core.request('GET', '/ws', { token: tokens.root });
    expect(res.status).toBe(400);
    expect(res.body).not.toHaveProperty('user');
    const openapi = await core.request('GET', '/openapi.json');
    expect(Object.keys(openapi.body.paths)).not.toContain('/ws');
  });
});
