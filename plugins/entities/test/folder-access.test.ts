import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { defineAddon, newId, type FolderAccessKind, type FolderScope } from '@pipewright/sdk';
import { entitiesRef } from '../src/api.js';

// The entities addon enforcing folder whitelists, with a fixed policy standing in for the access addon (which has
// its own tests of how groups combine into these scopes):
//   walt may read, create, update and publish under assets/trees and delete nowhere;
//   fred may do everything, but only in folders holding a task assigned to him, and sees only his own tasks;
//   boss is a manager and never restricted.
const SCOPES: Record<string, Partial<Record<FolderAccessKind, FolderScope>>> = {
  walt: {
    read: { subtree: ['assets/trees'], below: [], assigned: false },
    create: { subtree: ['assets/trees'], below: [], assigned: false },
    update: { subtree: ['assets/trees'], below: [], assigned: false },
    publish: { subtree: ['assets/trees'], below: [], assigned: false },
    delete: { subtree: [], below: [], assigned: false },
  },
  fred: Object.fromEntries(
    (['read', 'create', 'update', 'publish', 'delete'] as const).map((kind) => [
      kind,
      { subtree: [], below: [], assigned: true, ownTasksOnly: kind === 'read' },
    ]),
  ),
};

const whitelists = defineAddon({
  name: 'fixed-whitelists',
  version: '1.0.0',
  title: 'Fixed whitelists (test policy)',
  deps: { entities: entitiesRef },
  setup(ctx, deps) {
    deps.entities.setAccessPolicy({
      folderScope: async (caller, _project, kind) => SCOPES[caller.name]?.[kind] ?? null,
      // walt sees three attributes and may change fps, the label and where a folder sits.
      attributeAccess: async (caller) =>
        caller.name === 'walt'
          ? {
              read: ['fps', 'frameStart', 'frameEnd'],
              write: { attributes: ['fps'], fields: ['label', 'parent_id'] },
            }
          : null,
    });
  },
});

let core: TestCore;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const P = '/api/projects/show';
const as = (user: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token: tokens[user], body });
const boss = as('boss');
const walt = as('walt');
const fred = as('fred');

async function create(plural: string, body: Record<string, unknown>) {
  const res = await boss('POST', `${P}/${plural}`, body);
  if (res.status !== 201) throw new Error(`create ${plural}: ${res.status} ${res.text}`);
  return res.body.id as string;
}

beforeAll(async () => {
  core = await bootTestCore({
    addons: ['entities', 'users', 'fixed-whitelists'],
    extraAddons: [whitelists],
  });
  const people = {
    boss: { isManager: true },
    walt: { accessGroups: { show: ['artist'] } },
    fred: { accessGroups: { show: ['freelancer'] } },
  };
  for (const [name, data] of Object.entries(people)) {
    tokens[name] = await seedUser(core, name, data);
  }
  expect((await boss('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  ids.assets = await create('folders', { name: 'assets', folderType: 'Folder' });
  ids.trees = await create('folders', { name: 'trees', folderType: 'Folder', parentId: ids.assets });
  ids.oak = await create('folders', { name: 'oak', folderType: 'Asset', parentId: ids.trees });
  ids.rocks = await create('folders', { name: 'rocks', folderType: 'Asset', parentId: ids.assets });
  ids.shots = await create('folders', { name: 'shots', folderType: 'Folder' });
  ids.sh010 = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.shots });
  ids.sh020 = await create('folders', { name: 'sh020', folderType: 'Shot', parentId: ids.shots });
  ids.anim = await create('tasks', {
    name: 'animation',
    taskType: 'Animation',
    folderId: ids.sh010,
    assignees: ['fred'],
  });
  ids.comp = await create('tasks', { name: 'compositing', taskType: 'Compositing', folderId: ids.sh020 });
  ids.rockModel = await create('products', { name: 'modelMain', productType: 'model', folderId: ids.rocks });
});
afterAll(() => core?.close());

const paths = (res: { body: any }) => res.body.folders.map((f: any) => f.path);

describe('reading', () => {
  it('lists only the folders in the read scope, with their ancestors so the tree stays whole', async () => {
    expect(paths(await walt('GET', `${P}/folders`))).toEqual([
      '/assets',
      '/assets/trees',
      '/assets/trees/oak',
    ]);
    expect(paths(await fred('GET', `${P}/folders`))).toEqual(['/shots', '/shots/sh010']);
    expect(paths(await boss('GET', `${P}/folders`))).toHaveLength(7);
    const tree = await fred('GET', `${P}/hierarchy`);
    expect(tree.body.hierarchy.map((n: any) => [n.name, n.children.map((c: any) => c.name)])).toEqual([
      ['shots', ['sh010']],
    ]);
  });

  it('resolves URIs only to entities in the read scope', async () => {
    const resolve = async (uri: string) =>
      (await walt('POST', '/api/resolve', { uris: [uri] })).body[0].entities;
    expect(await resolve('ayon+entity://show/assets/rocks?product=modelMain')).toEqual([]);
    expect(await resolve('ayon+entity://show/assets/trees/oak')).toHaveLength(1);
    expect(
      (await boss('POST', '/api/resolve', { uris: ['ayon+entity://show/assets/rocks?product=modelMain'] }))
        .body[0].entities,
    ).toHaveLength(1);
  });

  it('answers an entity outside the scope exactly as one that does not exist', async () => {
    const hidden = await walt('GET', `${P}/folders/${ids.rocks}`);
    const missing = await walt('GET', `${P}/folders/${'0'.repeat(32)}`);
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.body.detail.replace(ids.rocks, 'ID')).toBe(
      missing.body.detail.replace('0'.repeat(32), 'ID'),
    );
    expect((await walt('GET', `${P}/products/${ids.rockModel}`)).status).toBe(404);
    expect((await walt('GET', `${P}/folders/${ids.oak}`)).body.name).toBe('oak');
    expect((await fred('GET', `${P}/tasks/${ids.anim}`)).body.name).toBe('animation');
    expect((await fred('GET', `${P}/tasks/${ids.comp}`)).status).toBe(404);
  });
});

describe('writing', () => {
  it('creates inside the create scope and refuses elsewhere with 403, naming nothing', async () => {
    expect(
      (await walt('POST', `${P}/folders`, { name: 'birch', folderType: 'Asset', parentId: ids.trees }))
        .status,
    ).toBe(201);
    const outside = await walt('POST', `${P}/folders`, {
      name: 'pebble',
      folderType: 'Asset',
      parentId: ids.rocks,
    });
    expect(outside.status).toBe(403);
    expect(outside.body.detail).not.toContain('rocks');
    expect((await walt('POST', `${P}/folders`, { name: 'props', folderType: 'Folder' })).status).toBe(403);
  });

  it('refuses updates outside the update scope and deletes outside the delete scope', async () => {
    expect((await walt('PATCH', `${P}/folders/${ids.oak}`, { label: 'Oak tree' })).status).toBe(204);
    expect((await walt('PATCH', `${P}/folders/${ids.rocks}`, { label: 'Rocks' })).status).toBe(403);
    expect((await walt('PATCH', `${P}/folders/${ids.oak}`, { parentId: ids.rocks })).status).toBe(403);
    expect((await walt('DELETE', `${P}/folders/${ids.oak}`)).status).toBe(403);
    expect((await boss('GET', `${P}/folders/${ids.oak}`)).body.parentId).toBe(ids.trees);
  });

  it('reports a refused operation in a batch as 403 and rolls the whole batch back', async () => {
    const allowed = newId();
    const res = await walt('POST', `${P}/operations`, {
      operations: [
        {
          type: 'create',
          entityType: 'folder',
          entityId: allowed,
          data: { name: 'pine', folderType: 'Asset', parentId: ids.trees },
        },
        {
          type: 'create',
          entityType: 'product',
          data: { name: 'lookMain', productType: 'look', folderId: ids.rocks },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.operations[1]).toMatchObject({ success: false, status: 403, errorCode: 'forbidden' });
    expect((await boss('GET', `${P}/folders/${allowed}`)).status).toBe(404);
  });

  it('shows a user whose groups hide sibling tasks only their own tasks', async () => {
    const sibling = await create('tasks', { name: 'layout', taskType: 'Layout', folderId: ids.sh010 });
    expect((await fred('GET', `${P}/tasks/${sibling}`)).status).toBe(404);
    expect((await walt('GET', `${P}/tasks/${sibling}`)).status).toBe(404); // outside walt's folders anyway
    expect((await boss('GET', `${P}/tasks/${sibling}`)).status).toBe(200);
    expect((await fred('GET', `${P}/tasks/${ids.anim}`)).status).toBe(200);
    const listed = (await fred('GET', `${P}/folders`)).body.folders.find((f: any) => f.name === 'sh010');
    expect(listed.taskNames).toEqual(['animation']);
    expect(
      (await boss('GET', `${P}/folders`)).body.folders.find((f: any) => f.name === 'sh010').taskNames,
    ).toEqual(['animation', 'layout']);
  });

  it('lets a user limited to assigned tasks publish only under those tasks, until a manager assigns another', async () => {
    const product = await fred('POST', `${P}/products`, {
      name: 'animMain',
      productType: 'animation',
      folderId: ids.sh010,
    });
    expect(product.status).toBe(201);
    const version = await fred('POST', `${P}/versions`, {
      version: 1,
      productId: product.body.id,
      taskId: ids.anim,
    });
    expect(version.status).toBe(201);
    expect(
      (await fred('POST', `${P}/representations`, { name: 'abc', versionId: version.body.id })).status,
    ).toBe(201);
    expect(
      (await fred('POST', `${P}/workfiles`, { path: 'shots/sh010/work/anim_v001.ma', taskId: ids.anim }))
        .status,
    ).toBe(201);
    const elsewhere = { name: 'compMain', productType: 'render', folderId: ids.sh020 };
    expect((await fred('POST', `${P}/products`, elsewhere)).status).toBe(403);
    expect(
      (await boss('POST', `${P}/tasks/${ids.comp}/assign`, { mode: 'add', users: ['fred'] })).status,
    ).toBe(204);
    expect((await fred('POST', `${P}/products`, elsewhere)).status).toBe(201);
    expect(paths(await fred('GET', `${P}/folders`))).toEqual(['/shots', '/shots/sh010', '/shots/sh020']);
  });

  it('hides attributes outside the read list and refuses changes outside the write list', async () => {
    const oak = await walt('GET', `${P}/folders/${ids.oak}`);
    expect(Object.keys(oak.body.attrib).sort()).toEqual(['fps', 'frameEnd', 'frameStart']);
    const listed = (await walt('GET', `${P}/folders?attrib=true`)).body.folders.find(
      (f: any) => f.name === 'oak',
    );
    expect(Object.keys(listed.attrib).sort()).toEqual(['fps', 'frameEnd', 'frameStart']);
    expect((await walt('PATCH', `${P}/folders/${ids.oak}`, { attrib: { fps: 48 } })).status).toBe(204);
    const frames = await walt('PATCH', `${P}/folders/${ids.oak}`, { attrib: { frameEnd: 1200 } });
    expect(frames.status).toBe(403);
    expect(frames.body.detail).toContain('attrib.frameEnd');
    expect((await walt('PATCH', `${P}/folders/${ids.oak}`, { status: 'In progress' })).status).toBe(403);
    expect((await walt('PATCH', `${P}/folders/${ids.oak}`, { thumbnailId: null })).status).toBe(204);
    expect((await boss('GET', `${P}/folders/${ids.oak}`)).body.attrib).toMatchObject({
      fps: 48,
      resolutionWidth: 1920,
    });
  });

  it('never restricts managers', async () => {
    expect((await boss('PATCH', `${P}/folders/${ids.rocks}`, { label: 'Rocks' })).status).toBe(204);
  });
});
