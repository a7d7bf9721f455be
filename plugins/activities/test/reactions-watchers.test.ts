import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildWorld, commentOk, eventsOf, referencesOf, type World } from './world.js';

// Reactions on activities, watchers of entities, and what the mention box suggests.
let world: World;
let core: World['core'];
let t: World['tokens'];
let ids: World['ids'];
const P = '/api/projects/demo';
const reactions = async (id: string) =>
  (
    (await core.db
      .withSchema('project_demo')
      .selectFrom('activities')
      .select('data')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()) as any
  ).data.reactions ?? [];
const react = (token: string, id: string, reaction: string) =>
  core.request('POST', `${P}/activities/${id}/reactions`, { token, body: { reaction } });
const unreact = (token: string, id: string, reaction: string) =>
  core.request('DELETE', `${P}/activities/${id}/reactions/${reaction}`, { token });
const getWatchers = (token: string, type: string, id: string) =>
  core.request('GET', `${P}/${type}/${id}/watchers`, { token });
const setWatchers = (token: string, type: string, id: string, watchers: unknown) =>
  core.request('POST', `${P}/${type}/${id}/watchers`, { token, body: { watchers } });

beforeAll(async () => {
  world = await buildWorld();
  ({ core, tokens: t, ids } = world);
});
afterAll(() => core?.close());

describe('reactions', () => {
  let id: string;
  beforeAll(async () => {
    id = await commentOk(world, t.bea, { type: 'task', id: ids.modeling }, 'react to me');
  });

  it('keeps one reaction per user and reaction, with the full name and time', async () => {
    expect((await react(t.artie, id, 'thumb_up')).status).toBe(201);
    expect((await react(t.artie, id, 'thumb_up')).status).toBe(201);
    expect((await react(t.bea, id, 'thumb_up')).status).toBe(201);
    expect((await react(t.artie, id, 'heart')).status).toBe(201);
    const list = await reactions(id);
    expect(list.map((r: any) => `${r.userName}:${r.reaction}`)).toEqual([
      'artie:thumb_up',
      'bea:thumb_up',
      'artie:heart',
    ]);
    expect(list[0]).toMatchObject({ fullName: 'Artie Person' });
    expect(Number.isNaN(Date.parse(list[0].timestamp))).toBe(false);
  });

  it("takes back only the caller's own reaction; taking back twice is fine", async () => {
    expect((await unreact(t.artie, id, 'thumb_up')).status).toBe(204);
    expect((await unreact(t.artie, id, 'thumb_up')).status).toBe(204);
    expect((await unreact(t.artie, id, 'never')).status).toBe(204);
    expect((await reactions(id)).map((r: any) => `${r.userName}:${r.reaction}`)).toEqual([
      'bea:thumb_up',
      'artie:heart',
    ]);
  });

  it('sends activity.updated live without storing it, and is no edit of the activity', async () => {
    const heard: any[] = [];
    const stop = core.events.subscribe('activity.updated', (message) => void heard.push(message));
    const before = (await eventsOf(world, 'activity.updated')).length;
    const row = async () =>
      (await core.db
        .withSchema('project_demo')
        .selectFrom('activities')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow()) as any;
    const edited = (await row()).updated_at.getTime();
    expect((await react(t.root, id, 'rocket')).status).toBe(201);
    stop();
    expect(heard).toEqual([
      expect.objectContaining({
        store: false,
        user: 'root',
        summary: expect.objectContaining({ activity_id: id }),
      }),
    ]);
    expect((await eventsOf(world, 'activity.updated')).length).toBe(before);
    expect((await row()).updated_at.getTime()).toBe(edited);
  });

  it('takes any reaction text, as AYON does; only the path that takes one back holds its name rule', async () => {
    const long = 'party '.repeat(20);
    for (const reaction of ['no spaces', '', '🎉', long])
      expect((await react(t.artie, id, reaction)).status).toBe(201);
    expect(
      (await reactions(id)).filter((r: any) => r.userName === 'artie').map((r: any) => r.reaction),
    ).toEqual(['heart', 'no spaces', '', '🎉', long]);
    expect((await unreact(t.artie, id, 'bad%20one')).status).toBe(422);
  });

  it('answers 404, 403 and 401', async () => {
    expect((await react(t.artie, '0'.repeat(32), 'heart')).status).toBe(404);
    expect((await react(t.olga, id, 'heart')).status).toBe(403);
    expect((await react('', id, 'heart')).status).toBe(401);
    const hidden = await commentOk(world, t.bea, { type: 'task', id: ids.animation }, 'shots');
    expect((await react(t.fred, hidden, 'heart')).status).toBe(404);
    expect((await unreact(t.fred, hidden, 'heart')).status).toBe(404);
  });
});

describe('watchers', () => {
  it('lists nobody at first, then exactly the list posted', async () => {
    expect((await getWatchers(t.artie, 'folders', ids.sh010)).body).toEqual({ watchers: [] });
    expect((await setWatchers(t.artie, 'folders', ids.sh010, ['bea', 'artie'])).status).toBe(204);
    expect((await getWatchers(t.artie, 'folder', ids.sh010)).body).toEqual({ watchers: ['artie', 'bea'] });
    expect((await setWatchers(t.artie, 'folders', ids.sh010, ['root', 'bea'])).status).toBe(204);
    expect((await getWatchers(t.artie, 'folders', ids.sh010)).body).toEqual({ watchers: ['bea', 'root'] });
    expect((await setWatchers(t.artie, 'folders', ids.sh010, [])).status).toBe(204);
    expect((await getWatchers(t.artie, 'folders', ids.sh010)).body).toEqual({ watchers: [] });
  });

  it('makes watchers hear about later activities (as important)', async () => {
    expect((await setWatchers(t.bea, 'products', ids.product, ['root'])).status).toBe(204);
    const id = await commentOk(world, t.bea, { type: 'product', id: ids.product }, 'new model');
    expect(await referencesOf(world, id)).toContain('watching:root');
  });

  it("lets a task's versions follow the task's watchers", async () => {
    expect((await setWatchers(t.bea, 'tasks', ids.modeling, ['bea', 'root'])).status).toBe(204);
    expect((await getWatchers(t.bea, 'versions', ids.v1)).body.watchers).toEqual(['bea', 'root']);
    expect((await setWatchers(t.bea, 'tasks', ids.modeling, ['bea'])).status).toBe(204);
    expect((await getWatchers(t.bea, 'versions', ids.v1)).body.watchers).toEqual(['bea']);
  });

  it('answers 422 for unknown users and bad names, 404, 403 and 401', async () => {
    const unknown = await setWatchers(t.bea, 'tasks', ids.modeling, ['bea', 'nobody']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].loc).toEqual(['body', 'watchers', 1]);
    // A name of any shape is looked up like any other: one no user has is refused the same way.
    const odd = await setWatchers(t.bea, 'tasks', ids.modeling, ['-bad-', '', 'x'.repeat(600)]);
    expect(odd.status).toBe(422);
    expect(odd.body.errors.map((e: any) => e.loc)).toEqual([
      ['body', 'watchers', 0],
      ['body', 'watchers', 1],
      ['body', 'watchers', 2],
    ]);
    expect((await setWatchers(t.bea, 'tasks', ids.modeling, 'bea')).status).toBe(422);
    expect((await getWatchers(t.bea, 'tasks', '0'.repeat(32))).status).toBe(404);
    expect((await setWatchers(t.fred, 'tasks', ids.animation, ['fred'])).status).toBe(404);
    expect((await getWatchers(t.fred, 'tasks', ids.animation)).status).toBe(404);
    expect((await getWatchers(t.olga, 'tasks', ids.modeling)).status).toBe(403);
    expect((await setWatchers(t.olga, 'tasks', ids.modeling, [])).status).toBe(403);
    expect((await getWatchers('', 'tasks', ids.modeling)).status).toBe(401);
  });

  it('reads the entity type segment as AYON does: trailing s stripped, anything else 400', async () => {
    expect((await getWatchers(t.bea, 'taskss', ids.modeling)).status).toBe(200);
    const shots = await getWatchers(t.bea, 'shots', ids.modeling);
    expect(shots.status).toBe(400);
    expect((await setWatchers(t.bea, 'task-ish', ids.modeling, ['bea'])).status).toBe(400);
  });
});

describe('suggestions for a mention box', () => {
  const suggest = (token: string, entityType: string, entityId: string, project = 'demo') =>
    core.request('POST', `/api/projects/${project}/suggest`, { token, body: { entityType, entityId } });

  it("ranks the task's assignees, its folder's tasks and its versions first", async () => {
    const res = await suggest(t.bea, 'task', ids.modeling);
    expect(res.status).toBe(200);
    const { users, tasks, versions, products, folders } = res.body;
    expect(users[0]).toMatchObject({ name: 'artie', fullName: 'Artie Person', relevance: 2 });
    // Only people who may open the project: not olga, not the service user.
    expect(users.map((u: any) => u.name).sort()).toEqual(['artie', 'bea', 'boss', 'fred', 'root']);
    expect(tasks[0]).toMatchObject({
      id: ids.modeling,
      relevance: 2,
      parent: { id: ids.tree, name: 'tree' },
    });
    expect(tasks[1]).toMatchObject({ id: ids.lookdev, relevance: 1 });
    expect(tasks.at(-1)).toMatchObject({ id: ids.animation, relevance: 0 });
    expect(versions[0]).toMatchObject({
      id: ids.v1,
      version: 1,
      name: 'v001',
      relevance: 2,
      parent: { id: ids.product, name: 'modelMain', productType: 'model', parent: { id: ids.tree } },
    });
    expect(products[0]).toMatchObject({ id: ids.product, relevance: 1 });
    expect(folders.slice(0, 2)).toMatchObject([
      { id: ids.tree, relevance: 2 },
      { id: ids.assets, relevance: 1 },
    ]);
    expect(folders.map((f: any) => f.id)).toContain(ids.sh010);
  });

  it('suggests for versions and folders too', async () => {
    const version = await suggest(t.bea, 'version', ids.v1);
    expect(version.status).toBe(200);
    expect(version.body.users[0]).toMatchObject({ relevance: 2 });
    expect(version.body.versions[0]).toMatchObject({ id: ids.v1, relevance: 2 });
    const folder = await suggest(t.bea, 'folder', ids.sh010);
    expect(folder.body.users[0]).toMatchObject({ name: 'bea', relevance: 2 });
    expect(folder.body.tasks[0]).toMatchObject({ id: ids.animation, relevance: 1 });
  });

  it('leaves out what the caller cannot read, and answers 404, 403, 422, 401', async () => {
    const res = await suggest(t.fred, 'task', ids.modeling);
    expect(res.status).toBe(200);
    expect(res.body.tasks.map((task: any) => task.id)).not.toContain(ids.animation);
    expect(res.body.folders.map((f: any) => f.id)).not.toContain(ids.sh010);
    expect((await suggest(t.fred, 'task', ids.animation)).status).toBe(404);
    expect((await suggest(t.bea, 'task', '0'.repeat(32))).status).toBe(404);
    expect((await suggest(t.olga, 'task', ids.modeling)).status).toBe(403);
    expect((await suggest(t.bea, 'workfile', ids.modeling)).status).toBe(422);
    expect((await suggest('', 'task', ids.modeling)).status).toBe(401);
  });
});
