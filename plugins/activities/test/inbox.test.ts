import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type TestClient } from '../../websocket/test/client.js';
import { buildWorld, commentOk, graph, type World } from './world.js';

// The inbox: activities that address a user, across the projects the user can see; marked read, unread or
// inactive with POST /api/inbox, and pushed live over /ws as inbox.message.
let world: World;
let core: World['core'];
let t: World['tokens'];
let ids: World['ids'];
let wsUrl: string;
const clients: TestClient[] = [];

const INBOX = `query($last: Int, $before: String, $active: Boolean, $important: Boolean, $unread: Boolean, $activeProjects: Boolean) {
  inbox(last: $last, before: $before, showActiveMessages: $active, showImportantMessages: $important,
        showUnreadMessages: $unread, showActiveProjects: $activeProjects) {
    pageInfo { hasPreviousPage hasNextPage startCursor endCursor }
    edges { cursor node {
      projectName activityId activityType activityData referenceType referenceId body createdAt updatedAt active read
      author { name attrib { fullName } }
      origin { id name label type }
      parents { type name label }
    } }
  }
}`;
const inbox = async (token: string, variables: Record<string, unknown> = {}) =>
  (await graph(world, token, INBOX, { last: 100, ...variables })).inbox;
const bodies = async (token: string, variables: Record<string, unknown> = {}) =>
  (await inbox(token, variables)).edges.map((e: any) => e.node.body);
const mark = (token: string, body: unknown) => core.request('POST', '/api/inbox', { token, body });

async function listen(token: string, project: string | null = 'demo'): Promise<TestClient> {
  const client = await connect(wsUrl);
  clients.push(client);
  client.send({ topic: 'auth', token, subscribe: ['inbox'], ...(project ? { project } : {}) });
  await client.next((m) => m.topic === 'server.started');
  return client;
}

beforeAll(async () => {
  world = await buildWorld(['websocket']);
  ({ core, tokens: t, ids } = world);
  const address = await core.app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `${address.replace(/^http/, 'ws')}/ws`;
});
afterAll(async () => {
  for (const client of clients) client.close();
  await core?.close();
});

describe('what lands in an inbox', () => {
  it('holds the activities that address the user, newest last, with what a message shows', async () => {
    await commentOk(
      world,
      t.bea,
      { type: 'task', id: ids.modeling },
      'First for [Artie](user:artie)\nwith a second line',
    );
    await commentOk(world, t.root, { type: 'task', id: ids.modeling }, 'Second, artie is assigned');
    const page = await inbox(t.artie);
    const nodes = page.edges.map((e: any) => e.node);
    // The publish of v001 (artie authored it) came first, when the world was built.
    expect(nodes.map((n: any) => n.activityType)).toEqual(['version.publish', 'comment', 'comment']);
    const [, first, second] = nodes;
    expect(first).toMatchObject({
      projectName: 'demo',
      activityType: 'comment',
      referenceType: 'mention',
      body: 'First for [Artie](user:artie) with a second line',
      active: true,
      read: false,
      author: { name: 'bea', attrib: { fullName: 'Bea Person' } },
      origin: { id: ids.modeling, name: 'modeling', label: null, type: 'task' },
      parents: [{ type: 'folder', name: 'tree', label: null }],
    });
    expect(JSON.parse(first.activityData)).toMatchObject({ author: 'bea' });
    expect(second.referenceType).toBe('relation');
    expect(page.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });
  });

  it("never holds the user's own activities", async () => {
    await commentOk(
      world,
      t.artie,
      { type: 'task', id: ids.modeling },
      'artie writes, [Artie](user:artie) mentioned',
    );
    expect(await bodies(t.artie)).not.toContain('artie writes, [Artie](user:artie) mentioned');
  });

  it('cuts long bodies to one line of 200 characters', async () => {
    await commentOk(world, t.root, { type: 'task', id: ids.animation }, `[Bea](user:bea) ${'y'.repeat(300)}`);
    const [latest] = (await bodies(t.bea)).slice(-1);
    expect(latest).toHaveLength(203);
    expect(latest.endsWith('...')).toBe(true);
  });

  it('spans every project the user can see, and only those', async () => {
    await commentOk(
      world,
      t.root,
      { type: 'folder', id: ids.elsewhere },
      'In other: [Boss](user:boss) [Artie](user:artie)',
      'other',
    );
    await commentOk(
      world,
      t.root,
      { type: 'task', id: ids.lookdev },
      'In demo: [Boss](user:boss) [Olga](user:olga)',
    );
    const boss = (await inbox(t.boss)).edges.map((e: any) => [e.node.projectName, e.node.body]);
    expect(boss.slice(-2)).toEqual([
      ['other', 'In other: [Boss](user:boss) [Artie](user:artie)'],
      ['demo', 'In demo: [Boss](user:boss) [Olga](user:olga)'],
    ]);
    expect(await bodies(t.artie)).not.toContain('In other: [Boss](user:boss) [Artie](user:artie)');
    expect(await bodies(t.olga)).toEqual([]);
  });

  it('leaves out inactive projects when asked', async () => {
    expect(
      (await core.request('PATCH', '/api/projects/other', { token: t.boss, body: { active: false } })).status,
    ).toBe(204);
    const only = (await inbox(t.boss, { activeProjects: true })).edges.map((e: any) => e.node.projectName);
    expect(only).not.toContain('other');
    expect(
      (await inbox(t.boss, { activeProjects: false })).edges.map((e: any) => e.node.projectName),
    ).toEqual(['other']);
    expect(
      (await core.request('PATCH', '/api/projects/other', { token: t.boss, body: { active: true } })).status,
    ).toBe(204);
  });

  it('splits important messages (mentions, watched entities, but no status change) from the rest', async () => {
    const important = await inbox(t.artie, { important: true });
    expect(important.edges.every((e: any) => ['mention', 'watching'].includes(e.node.referenceType))).toBe(
      true,
    );
    const other = await inbox(t.artie, { important: false });
    expect(other.edges.map((e: any) => e.node.referenceType)).toContain('relation');
    expect(important.edges.length + other.edges.length).toBe((await inbox(t.artie)).edges.length);
    // A status change on a watched task is not important.
    expect(
      (
        await core.request('POST', `/api/projects/demo/tasks/${ids.modeling}/watchers`, {
          token: t.artie,
          body: { watchers: ['artie', 'bea'] },
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await core.request('PATCH', `/api/projects/demo/tasks/${ids.modeling}`, {
          token: t.root,
          body: { status: 'In progress' },
        })
      ).status,
    ).toBe(204);
    await world.settle();
    const change = (await inbox(t.bea)).edges.at(-1).node;
    expect(change).toMatchObject({ activityType: 'status.change', referenceType: 'watching' });
    expect((await inbox(t.bea, { important: true })).edges.map((e: any) => e.node.activityId)).not.toContain(
      change.activityId,
    );
  });

  it('pages backwards with last and before', async () => {
    const all = (await inbox(t.artie)).edges.map((e: any) => e.node.activityId);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const newest = await inbox(t.artie, { last: 2 });
    expect(newest.edges.map((e: any) => e.node.activityId)).toEqual(all.slice(-2));
    expect(newest.pageInfo.hasPreviousPage).toBe(true);
    const older = await inbox(t.artie, { last: 2, before: newest.pageInfo.startCursor });
    expect(older.edges.map((e: any) => e.node.activityId)).toEqual(all.slice(-4, -2));
    expect(older.pageInfo.hasNextPage).toBe(true);
  });

  it('is empty for guests', async () => {
    await core.request('PUT', '/api/users/guest1', {
      token: t.root,
      body: {
        password: 'correct horse battery',
        data: { isGuest: true, accessGroups: { demo: ['artist'] } },
      },
    });
    const login = await core.request('POST', '/api/auth/login', {
      body: { name: 'guest1', password: 'correct horse battery' },
    });
    expect(login.status).toBe(200);
    await commentOk(world, t.root, { type: 'task', id: ids.modeling }, '[Guest](user:guest1) look');
    expect((await inbox(login.body.token)).edges).toEqual([]);
  });
});

describe('POST /api/inbox', () => {
  it('marks messages read, unread and inactive', async () => {
    const [message] = (await inbox(t.artie)).edges.slice(-1).map((e: any) => e.node);
    const read = async () =>
      (await inbox(t.artie, { active: null })).edges.find(
        (e: any) => e.node.referenceId === message.referenceId,
      )?.node;
    expect(
      (await mark(t.artie, { projectName: 'demo', ids: [message.referenceId], status: 'read' })).status,
    ).toBe(200);
    expect(await read()).toMatchObject({ read: true, active: true });
    expect((await inbox(t.artie, { unread: true })).edges.map((e: any) => e.node.referenceId)).not.toContain(
      message.referenceId,
    );
    expect(
      (await mark(t.artie, { projectName: 'demo', ids: [message.referenceId], status: 'unread' })).status,
    ).toBe(200);
    expect(await read()).toMatchObject({ read: false, active: true });
    expect(
      (await mark(t.artie, { projectName: 'demo', ids: [message.referenceId], status: 'inactive' })).status,
    ).toBe(200);
    expect(await read()).toMatchObject({ read: true, active: false });
    expect((await inbox(t.artie)).edges.map((e: any) => e.node.referenceId)).not.toContain(
      message.referenceId,
    );
    expect((await inbox(t.artie, { active: false })).edges.map((e: any) => e.node.referenceId)).toEqual([
      message.referenceId,
    ]);
  });

  it("marks all of the caller's messages of a project, and nobody else's", async () => {
    const beaBefore = (await inbox(t.bea)).edges.map((e: any) => e.node.read);
    const artieIds = (await inbox(t.artie)).edges.map((e: any) => e.node.referenceId);
    expect((await mark(t.bea, { projectName: 'demo', ids: artieIds, status: 'read' })).status).toBe(200);
    expect((await inbox(t.artie)).edges.every((e: any) => !e.node.read)).toBe(true);
    expect((await mark(t.artie, { projectName: 'demo', all: true, status: 'read' })).status).toBe(200);
    expect((await inbox(t.artie)).edges.every((e: any) => e.node.read)).toBe(true);
    expect((await inbox(t.bea)).edges.map((e: any) => e.node.read)).toEqual(beaBefore);
  });

  it('answers 422, 403, 404 and 401', async () => {
    const missing = await mark(t.artie, { projectName: 'demo', status: 'read' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].loc).toEqual(['body', 'ids']);
    expect((await mark(t.artie, { projectName: 'demo', all: true, status: 'done' })).status).toBe(422);
    expect((await mark(t.artie, { projectName: 'demo', ids: ['nope'], status: 'read' })).status).toBe(422);
    expect((await mark(t.olga, { projectName: 'demo', all: true, status: 'read' })).status).toBe(403);
    // Any project name is taken, as AYON takes it: one no project has is not found.
    for (const projectName of ['nowhere', '', 'no such-project', 'p'.repeat(300)])
      expect((await mark(t.boss, { projectName, all: true, status: 'read' })).status).toBe(404);
    expect((await mark('', { projectName: 'demo', all: true, status: 'read' })).status).toBe(401);
  });
});

describe('live messages', () => {
  it('pushes inbox.message to the mentioned user only, marked important', async () => {
    const artie = await listen(t.artie);
    const fred = await listen(t.fred);
    await commentOk(world, t.bea, { type: 'task', id: ids.lookdev }, 'Ping [Artie](user:artie)\nmore text');
    const message = await artie.next((m) => m.topic === 'inbox.message');
    expect(message).toMatchObject({
      topic: 'inbox.message',
      project: 'demo',
      user: 'bea',
      description: 'Ping [Artie](user:artie)',
      summary: { isImportant: true },
    });
    // fred is no one this comment addresses; a marker event shows he has had time to hear it.
    const { id } = await core.events.emit({ topic: 'inbox.marker', project: 'demo' });
    await fred.next((m) => m.id === id);
    expect(fred.messages.some((m) => m.topic === 'inbox.message')).toBe(false);
  });

  it('pushes a plain message to assignees of a task whose status changed', async () => {
    const bea = await listen(t.bea);
    expect(
      (
        await core.request('PATCH', `/api/projects/demo/tasks/${ids.animation}`, {
          token: t.root,
          body: { status: 'In progress' },
        })
      ).status,
    ).toBe(204);
    const message = await bea.next(
      (m) => m.topic === 'inbox.message' && m.summary.isImportant === false,
      5000,
    );
    expect(message.description).toContain('status changed from Not ready to In progress');
  });

  it('does not push to users outside the project', async () => {
    const olga = await listen(t.olga, null);
    await commentOk(
      world,
      t.root,
      { type: 'task', id: ids.modeling },
      'For [Olga](user:olga), who cannot see demo',
    );
    const { id } = await core.events.emit({ topic: 'inbox.marker', project: 'other' });
    await olga.next((m) => m.id === id);
    expect(olga.messages.some((m) => m.topic === 'inbox.message')).toBe(false);
  });
});
