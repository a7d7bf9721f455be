import { expect } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { defineAddon } from '@pipewright/sdk';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { activitiesRef } from '../src/api.js';
import { usersRef } from '@pipewright/plugin-users/api';

// A small studio for the activity tests. Project "demo" holds:
//   assets/tree (tasks modeling [artie], lookdev), product modelMain with v001 (modeling, by artie)
//   shots/sh010 (task animation [bea])
// Users: root (admin), boss (manager), artie and bea (artists of demo), fred (artist of demo who reads only under
// "assets", a fixed folder policy standing in for the access addon), olga (artist of another project only), and
// farm, a service user with an API key. Project "other" is one only olga and the managers see.

export const PASSWORD = 'correct horse battery';
export const SERVICE_KEY = 'f0'.repeat(16);

export interface World {
  core: TestCore;
  tokens: Record<'root' | 'boss' | 'artie' | 'bea' | 'fred' | 'olga', string>;
  ids: Record<string, string>;
  /** Wait until entity events heard so far have made their activities. */
  settle(): Promise<void>;
}

const assetsOnly = defineAddon({
  name: 'fred-reads-assets',
  version: '1.0.0',
  title: 'Fred reads assets only (test policy)',
  deps: { entities: entitiesRef },
  setup(ctx, deps) {
    deps.entities.setAccessPolicy({
      folderScope: async (caller, _project, kind) =>
        caller.name === 'fred' && kind === 'read'
          ? { subtree: ['assets'], below: [], assigned: false }
          : null,
      attributeAccess: async () => null,
    });
  },
});

/** Boot a core with the activities addon (and extra addons) and build the studio described above. */
export async function buildWorld(addons: string[] = []): Promise<World> {
  const core = await bootTestCore({
    addons: ['activities', 'fred-reads-assets', ...addons],
    extraAddons: [assetsOnly],
  });
  const users = core.services.get(usersRef);
  const people: [string, Record<string, unknown>][] = [
    ['root', { isAdmin: true }],
    ['boss', { isManager: true }],
    ['artie', { accessGroups: { demo: ['artist'] } }],
    ['bea', { accessGroups: { demo: ['artist'] } }],
    ['fred', { accessGroups: { demo: ['artist'] } }],
    ['olga', { accessGroups: { other: ['artist'] } }],
  ];
  await core.db.transaction().execute(async () => {
    for (const [name, data] of people)
      await users.create({
        name,
        password: PASSWORD,
        data,
        attrib: { fullName: `${name[0].toUpperCase()}${name.slice(1)} Person`, email: `${name}@studio.test` },
      });
  });
  const tokens = {} as World['tokens'];
  for (const [name] of people) {
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    if (res.status !== 200) throw new Error(`login ${name}: ${res.status} ${res.text}`);
    (tokens as any)[name] = res.body.token;
  }
  const farm = await core.request('PUT', '/api/users/farm', {
    token: tokens.root,
    body: { password: PASSWORD, apiKey: SERVICE_KEY, data: { isService: true } },
  });
  if (farm.status !== 204) throw new Error(`service user: ${farm.status} ${farm.text}`);
  for (const name of ['demo', 'other']) {
    const res = await core.request('POST', '/api/projects', {
      token: tokens.boss,
      body: { name, code: name },
    });
    if (res.status !== 201) throw new Error(`project ${name}: ${res.status} ${res.text}`);
  }
  const ids: Record<string, string> = {};
  const create = async (plural: string, body: Record<string, unknown>, project = 'demo') => {
    const res = await core.request('POST', `/api/projects/${project}/${plural}`, {
      token: tokens.root,
      body,
    });
    if (res.status !== 201) throw new Error(`create ${plural}: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  ids.assets = await create('folders', { name: 'assets', folderType: 'Folder' });
  ids.tree = await create('folders', { name: 'tree', folderType: 'Asset', parentId: ids.assets });
  ids.shots = await create('folders', { name: 'shots', folderType: 'Folder' });
  ids.sh010 = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.shots });
  ids.modeling = await create('tasks', {
    name: 'modeling',
    taskType: 'Modeling',
    folderId: ids.tree,
    assignees: ['artie'],
  });
  ids.lookdev = await create('tasks', { name: 'lookdev', taskType: 'Lookdev', folderId: ids.tree });
  ids.animation = await create('tasks', {
    name: 'animation',
    taskType: 'Animation',
    folderId: ids.sh010,
    assignees: ['bea'],
  });
  ids.product = await create('products', { name: 'modelMain', folderId: ids.tree, productType: 'model' });
  ids.v1 = await create('versions', {
    version: 1,
    productId: ids.product,
    taskId: ids.modeling,
    author: 'artie',
  });
  ids.elsewhere = await create('folders', { name: 'elsewhere', folderType: 'Folder' }, 'other');
  const activities = core.services.get(activitiesRef) as { settled(): Promise<void> };
  const world: World = { core, tokens, ids, settle: () => activities.settled() };
  await world.settle();
  return world;
}

/** POST a comment and answer the response. */
export function comment(
  world: World,
  token: string,
  entity: { type: string; id: string },
  body: Record<string, unknown> | string,
  project = 'demo',
) {
  return world.core.request('POST', `/api/projects/${project}/${entity.type}s/${entity.id}/activities`, {
    token,
    body: typeof body === 'string' ? { activityType: 'comment', body } : body,
  });
}

/** POST a comment that must succeed; answers its id. */
export async function commentOk(
  world: World,
  token: string,
  entity: { type: string; id: string },
  body: Record<string, unknown> | string,
  project = 'demo',
): Promise<string> {
  const res = await comment(world, token, entity, body, project);
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Run a GraphQL query that must succeed. */
export async function graph(
  world: World,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const res = await world.core.request('POST', '/graphql', { token, body: { query, variables } });
  if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** The stored references of an activity, as (type, entity or user) pairs, sorted. */
export async function referencesOf(world: World, activityId: string, project = 'demo'): Promise<string[]> {
  const rows = await world.core.db
    .withSchema(`project_${project}`)
    .selectFrom('activity_references')
    .selectAll()
    .where('activity_id', '=', activityId)
    .execute();
  return rows.map((row: any) => `${row.reference_type}:${row.entity_name ?? row.entity_id}`).sort();
}

/** Stored events of a topic, oldest first. */
export async function eventsOf(world: World, topic: string) {
  return world.core.db
    .selectFrom('events')
    .selectAll()
    .where('topic', '=', topic)
    .orderBy('creation_order')
    .execute();
}

/** Upload a small file to a project; answers its id. */
export async function upload(world: World, token: string, name: string, content = 'hello', project = 'demo') {
  const res = await world.core.request('POST', `/api/projects/${project}/files`, {
    token,
    body: Buffer.from(content),
    headers: { 'content-type': 'text/plain', 'x-file-name': name },
  });
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** What the files addon knows of a file: its activity, or 404. */
export async function fileInfo(world: World, id: string, project = 'demo') {
  return world.core.request('GET', `/api/projects/${project}/files/${id}/info`, { token: world.tokens.root });
}
