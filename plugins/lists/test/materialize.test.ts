import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@pipewright/sdk';
import { buildWorld, P, type World } from './world.js';

// The access addon runs here, so fred (freelancer) reads only the folders holding his tasks: shots/sh_010.
let w: World;
let otherComp: string;
beforeAll(async () => {
  w = await buildWorld(['access']);
  // A task of the same name in shX010: a subtree of sh_010 must not reach it ("_" is no wildcard here).
  otherComp = await w.create('tasks', { name: 'comp', taskType: 'Compositing', folderId: w.id.shX010 });
});
afterAll(() => w.core.close());

const materialize = (user: string, id: string, headers?: Record<string, string>) =>
  w.as(user)('POST', `${P}/lists/${id}/materialize`, undefined, headers);
const itemsOf = async (user: string, id: string) =>
  (await w.as(user)('GET', `${P}/lists/${id}`)).body.items as any[];

describe('materializing a list from its template', () => {
  it('lists the entities of the list type inside the template folders, in path order', async () => {
    const id = await w.createList('artie', {
      entityType: 'task',
      label: 'Shot tasks',
      template: { folderIds: [w.id.shots] },
    });
    const res = await materialize('artie', id, { 'x-sender': 'mat' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      entityListType: 'generic',
      entityListFolderId: null,
      entityType: 'task',
      label: 'Shot tasks',
      count: 2,
    });
    expect((await itemsOf('artie', id)).map((item) => [item.entityId, item.folderPath])).toEqual([
      [w.id.comp, 'shots/sh_010'],
      [otherComp, 'shots/shX010'],
    ]);
    expect((await w.events('entity_list.changed')).at(-1)).toMatchObject({
      sender: 'mat',
      summary: { id, count: 2 },
    });
  });

  it('takes a folder subtree literally: sh_010 does not reach shX010; folder lists include the root', async () => {
    const tasks = await w.createList('artie', {
      entityType: 'task',
      label: 'sh_010 tasks',
      template: { folderIds: [w.id.sh010] },
    });
    await materialize('artie', tasks);
    expect((await itemsOf('artie', tasks)).map((item) => item.entityId)).toEqual([w.id.comp]);
    const folders = await w.createList('artie', {
      entityType: 'folder',
      label: 'Asset folders',
      template: { folderIds: [w.id.assets] },
    });
    await materialize('artie', folders);
    expect((await itemsOf('artie', folders)).map((item) => item.folderPath)).toEqual([
      'assets',
      'assets/rock',
      'assets/tree',
    ]);
  });

  it('applies the template filter (an AYON QueryFilter), alone or with folders', async () => {
    const id = await w.createList('artie', {
      entityType: 'version',
      label: 'Second takes',
      template: { filter: { conditions: [{ key: 'version', operator: 'gte', value: 2 }] } },
    });
    await materialize('artie', id);
    expect((await itemsOf('artie', id)).map((item) => item.entityId)).toEqual([w.id.v2]);
    const both = await w.createList('artie', {
      entityType: 'folder',
      label: 'Shots only',
      template: { folderIds: [w.id.shots], filter: { conditions: [{ key: 'folderType', value: 'Shot' }] } },
    });
    await materialize('artie', both);
    expect((await itemsOf('artie', both)).map((item) => item.entityId)).toEqual([w.id.sh010, w.id.shX010]);
  });

  it('finds workfiles through the tasks of the template folders', async () => {
    const id = await w.createList('artie', {
      entityType: 'workfile',
      label: 'Work',
      template: { folderIds: [w.id.assets] },
    });
    await materialize('artie', id);
    expect((await itemsOf('artie', id)).map((item) => item.entityId)).toEqual([w.id.workfile]);
  });

  it('keeps the items of entities still selected, with what people wrote on them, and drops the others', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Kept',
      template: { folderIds: [w.id.shots] },
      items: [
        { entityId: w.id.tree, label: 'not in shots' },
        { entityId: w.id.shX010, label: 'noted', attrib: { priority: 1 }, tags: ['hot'] },
      ],
    });
    const noted = (await itemsOf('artie', id))[1];
    await materialize('artie', id);
    const after = await itemsOf('artie', id);
    expect(after.map((item) => item.entityId)).toEqual([w.id.shots, w.id.sh010, w.id.shX010]);
    expect(after[2]).toMatchObject({ id: noted.id, label: 'noted', attrib: { priority: 1 }, tags: ['hot'] });
  });

  it('lists only what the caller may read', async () => {
    const id = await w.createList('boss', {
      entityType: 'folder',
      label: 'Fred materializes',
      access: { fred: 30 },
      template: { folderIds: [w.id.shots] },
    });
    await materialize('fred', id);
    const listed = (await itemsOf('fred', id)).map((item) => item.entityId);
    expect(listed).toContain(w.id.sh010);
    expect(listed).not.toContain(w.id.shX010);
    const hidden = await w.createList('boss', {
      entityType: 'folder',
      label: 'Hidden root',
      access: { fred: 30 },
      template: { folderIds: [w.id.assets] },
    });
    expect((await materialize('fred', hidden)).status).toBe(404);
  });

  it('refuses a template that selects nothing by design (400), unknown folders (404), bad filters (422)', async () => {
    const empty = await w.createList('artie', { entityType: 'task', label: 'No template' });
    const res = await materialize('artie', empty);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('The list template names no folderIds and no filter to materialize from');
    const unknown = await w.createList('artie', {
      entityType: 'task',
      label: 'Unknown root',
      template: { folderIds: [newId()] },
    });
    expect((await materialize('artie', unknown)).status).toBe(404);
    const bad = await w.createList('artie', {
      entityType: 'task',
      label: 'Bad filter',
      template: { filter: { conditions: [{ key: 'colour', value: 'red' }] } },
    });
    const invalid = await materialize('artie', bad);
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].loc).toEqual(['template', 'filter', 'conditions', 0, 'key']);
    const shape = await w.as('artie')('POST', `${P}/lists`, {
      entityType: 'task',
      label: 'x',
      template: { folderIds: ['nope'] },
    });
    expect(shape.status).toBe(422);
    expect(shape.body.errors[0].loc).toEqual(['body', 'template', 'folderIds', 0]);
  });

  it('needs level 30 and the list', async () => {
    const id = await w.createList('artie', {
      entityType: 'task',
      label: 'Editors',
      access: { bob: 20 },
      template: { folderIds: [w.id.shots] },
    });
    expect((await materialize('bob', id)).status).toBe(403);
    expect((await materialize('eve', id)).status).toBe(403);
    expect((await materialize('artie', newId())).status).toBe(404);
    expect((await itemsOf('artie', id)).length).toBe(0);
  });
});

describe('what the caller may read', () => {
  it('an entity outside the caller’s read access cannot be listed (404)', async () => {
    const id = await w.createList('fred', { entityType: 'folder', label: 'Fred adds' });
    expect((await w.as('fred')('POST', `${P}/lists/${id}/items`, { entityId: w.id.sh010 })).status).toBe(201);
    expect((await w.as('fred')('POST', `${P}/lists/${id}/items`, { entityId: w.id.tree })).status).toBe(404);
  });

  it('GET entities answers the listed entities the caller may read, each once, in list order', async () => {
    const id = await w.createList('boss', {
      entityType: 'folder',
      label: 'Entities',
      access: { __everyone__: 10 },
      items: [
        { entityId: w.id.shX010 },
        { entityId: w.id.sh010 },
        { entityId: w.id.shX010 },
        { entityId: w.id.tree },
      ],
    });
    const boss = await w.as('boss')('GET', `${P}/lists/${id}/entities`);
    expect(boss.status).toBe(200);
    expect(boss.body.entityType).toBe('folder');
    expect(boss.body.entityIds).toEqual([w.id.shX010, w.id.sh010, w.id.tree]);
    expect(boss.body.entities.map((entity: any) => entity.name)).toEqual(['shX010', 'sh_010', 'tree']);
    expect(boss.body.entities[1]).toMatchObject({
      id: w.id.sh010,
      folderType: 'Shot',
      path: '/shots/sh_010',
    });
    const fred = await w.as('fred')('GET', `${P}/lists/${id}/entities`);
    expect(fred.body.entityIds).toEqual([w.id.sh010]);
    expect((await w.as('eve')('GET', `${P}/lists/${id}/entities`)).status).toBe(403);
    expect((await w.as('boss')('GET', `${P}/lists/${newId()}/entities`)).status).toBe(404);
  });
});
