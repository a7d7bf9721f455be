import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import WebSocket from 'ws';
import { eventually, serverProcessGroup, type ServerProcessGroup } from '@pipewright/core/testing';

// A review session on two real server processes (`npm start`'s entry point) sharing one PostgreSQL database and one
// Redis: a change made through one is heard by a player connected to the other, both answer the same state, and
// the session outlives a process killed and started again. Only in the PostgreSQL pass (see jest.config.js).
const PASSWORD = 'a strong password';
let group: ServerProcessGroup;
let token: string;
let base: string;
const sockets: WebSocket[] = [];

async function call(on: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${on}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
}

/** A player's live connection to a process: the session changes it hears. */
async function listen(on: string) {
  const socket = new WebSocket(`${on.replace('http', 'ws')}/ws`);
  sockets.push(socket);
  const heard: any[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.topic === 'review_session.changed') heard.push(message.summary);
  });
  await new Promise((open) => socket.once('open', open));
  socket.send(JSON.stringify({ topic: 'auth', token, subscribe: ['review_session.*'], project: 'show' }));
  await new Promise((ready) => setTimeout(ready, 300));
  return heard;
}

beforeAll(async () => {
  group = await serverProcessGroup(2);
  const [a] = group.bases;
  await fetch(`${a}/api/onboarding/initialize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ adminName: 'admin', adminPassword: PASSWORD }),
  });
  const login = await fetch(`${a}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'admin', password: PASSWORD }),
  });
  token = ((await login.json()) as { token: string }).token;
  await call(a!, 'POST', '/api/projects', { name: 'show', code: 'sh' });
  const folder = (await call(a!, 'POST', '/api/projects/show/folders', { name: 'sh010', folderType: 'Shot' }))
    .id;
  const product = (
    await call(a!, 'POST', '/api/projects/show/products', {
      name: 'comp',
      productType: 'render',
      folderId: folder,
    })
  ).id;
  const version = (await call(a!, 'POST', '/api/projects/show/versions', { version: 1, productId: product }))
    .id;
  const list = (
    await call(a!, 'POST', '/api/projects/show/lists', {
      label: 'Dailies',
      entityListType: 'review-session',
      entityType: 'version',
      items: [{ entityId: version }],
    })
  ).id;
  base = `/api/projects/show/lists/${list}/session`;
}, 120_000);
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await group?.close();
}, 30_000);

describe('a review session on two server processes', () => {
  it('is shared through the database and Redis, and outlives a restart', async () => {
    const [a, b] = group.bases as [string, string];
    const onB = await listen(b);
    await call(a, 'POST', base, { command: 'join' });
    const play = await call(a, 'POST', base, { command: 'play', frame: 1001 });
    await eventually(() => onB.some((state) => state.revision === play.revision));
    expect(onB.at(-1)).toMatchObject({
      playing: true,
      frame: 1001,
      startedAt: play.startedAt,
      driver: 'admin',
    });
    expect(await call(b, 'GET', base)).toMatchObject({ revision: play.revision, startedAt: play.startedAt });

    const paused = await call(b, 'POST', base, { command: 'pause', frame: 1017 });
    group.processes[0]!.kill('SIGKILL');
    await group.restart(0);
    expect(await call(a, 'GET', base)).toMatchObject({
      revision: paused.revision,
      frame: 1017,
      playing: false,
    });
    const onA = await listen(a);
    const seek = await call(b, 'POST', base, { command: 'seek', frame: 1003 });
    await eventually(() => onA.some((state) => state.revision === seek.revision));
  }, 60_000);
});
