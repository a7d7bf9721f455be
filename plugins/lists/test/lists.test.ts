import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@pipewright/sdk';
import { buildWorld, P, type World } from './world.js';

let w: World;
beforeAll(async () => {
  w = await buildWorld();
});
afterAll(() => w.core.close());

const get = (user: string, id: string, query = '') => w.as(user)('GET', `${P}/lists/${id}${query}`);

describe('creating a list', () => {
  it('answers 201 with the summary; the creator owns and manages it; entity_list.created carries AYON keys', async () => {
    const res = await w.as('artie')(
      'POST',
      `${P}/lists`,
      {
        entityType: 'version',
        label: 'Dailies',
        items: [{ entityId: w.id.v2 }, { entityId: w.id.v1, position: 0 }],
      },
      { 'x-sender': 'tab-1', 'x-sender-type': 'web' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      entityListType: 'generic',
      entityListFolderId: null,
      entityType: 'version',
      label: 'Dailies',
      count: 2,
    });
    const list = (await get('artie', res.body.id)).body;
    expect(list).toMatchObject({
      owner: 'artie',
      createdBy: 'artie',
      active: true,
      accessLevel: 30,
      access: {},
      data: { count: 2 },
    });
    // Positions in a create body are ignored: the order given is the order kept.
    expect(list.items.map((item: any) => [item.position, item.entityId])).toEqual([
      [0, w.id.v2],
      [1, w.id.v1],
    ]);
    const [event] = await w.events('entity_list.created');
    expect(event).toMatchObject({
      project_name: 'show',
      user_name: 'artie',
      sender: 'tab-1',
      sender_type: 'web',
      description: 'Entity list Dailies created',
      summary: {
        id: res.body.id,
        entity_list_type: 'generic',
        entity_list_folder_id: null,
        entity_type: 'version',
        label: 'Dailies',
        count: 2,
      },
    });
  });

  it('takes every field AYON takes, snake_case names included, and a chosen id', async () => {
    const id = newId();
    const res = await w.as('artie')('POST', `${P}/lists`, {
      id,
      entity_list_type: 'review-session',
      entity_type: 'version',
      label: 'Review 1',
      access: { bob: 20, 'team:comp': 10 },
      attrib: { description: 'first look' },
      data: { color: 'red' },
      template: { folderIds: [w.id.assets] },
      tags: ['client'],
      active: false,
      items: [
        { entity_id: w.id.v1, label: 'hero take', attrib: { priority: 1 }, data: { note: 'x' }, tags: ['a'] },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe(id);
    const list = (await get('artie', id)).body;
    expect(list).toMatchObject({
      entityListType: 'review-session',
      access: { bob: 20, 'team:comp': 10 },
      attrib: { description: 'first look' },
      data: { color: 'red', count: 1 },
      template: { folderIds: [w.id.assets] },
      tags: ['client'],
      active: false,
    });
    expect(list.items[0]).toMatchObject({
      label: 'hero take',
      attrib: { priority: 1 },
      data: { note: 'x' },
      tags: ['a'],
    });
  });

  it('refuses bodies that break the schema with 422 and AYON locations', async () => {
    const post = (body: unknown) => w.as('artie')('POST', `${P}/lists`, body);
    const cases: [unknown, (string | number)[]][] = [
      [{ label: 'x' }, ['body', 'entityType']],
      [{ entityType: 'shot', label: 'x' }, ['body', 'entityType']],
      [{ entityType: 'task', label: 'l'.repeat(501) }, ['body', 'label']],
      [{ entityType: 'task', label: 'x', access: { bob: 15 } }, ['body', 'access', 'bob']],
      [{ entityType: 'task', label: 7 }, ['body', 'label']],
      [{ entityType: 'task', label: 'x', items: [{ position: 1 }] }, ['body', 'items', 0, 'entityId']],
      [
        { entityType: 'task', label: 'x', items: [{ entityId: w.id.comp, position: 0.5 }] },
        ['body', 'items', 0, 'position'],
      ],
    ];
    for (const [body, loc] of cases) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: any) => e.loc)).toContainEqual(loc);
    }
  });

  it('takes what AYON takes: any label up to the index limit, any kind and tags, any position', async () => {
    const long = 'l'.repeat(500);
    const res = await w.as('artie')('POST', `${P}/lists`, {
      entityType: 'task',
      label: '',
      entityListType: 'odd kind!',
      tags: ['', 't'.repeat(300), ...Array.from({ length: 1001 }, (_, i) => `tag${i}`)],
      items: [
        { entityId: w.id.comp, position: -3, label: 'i'.repeat(300), tags: [''] },
        { entityId: w.id.modeling, position: 99 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ label: '', entityListType: 'odd kind!', count: 2 });
    const list = (await get('artie', res.body.id)).body;
    expect(list.tags).toHaveLength(1003);
    expect(list.items.map((item: any) => [item.position, item.entityId, item.label])).toEqual([
      [0, w.id.comp, 'i'.repeat(300)],
      [1, w.id.modeling, null],
    ]);
    // The label keys a unique index, so it stops at 500 characters (AYON answers a longer one with 500).
    const longest = await w.as('artie')('POST', `${P}/lists`, { entityType: 'task', label: long });
    expect(longest.status).toBe(201);
    expect((await w.as('artie')('PATCH', `${P}/lists/${res.body.id}`, { label: `${long}!` })).status).toBe(
      422,
    );
  });

  it('takes more than 10,000 items in one request: creating a list, and deleting them all by id', async () => {
    const items = Array.from({ length: 10_001 }, () => ({ entityId: w.id.comp }));
    const res = await w.as('artie')('POST', `${P}/lists`, { entityType: 'task', label: 'Huge', items });
    expect(res.status).toBe(201);
    expect(res.body.count).toBe(10_001);
    const ids = (await get('artie', res.body.id)).body.items.map((item: any) => ({ id: item.id }));
    expect(ids).toHaveLength(10_001);
    const gone = await w.as('artie')('PATCH', `${P}/lists/${res.body.id}/items`, {
      mode: 'delete',
      items: ids,
    });
    expect(gone.status).toBe(200);
    expect((await get('artie', res.body.id, '?metadata_only=true')).body.data.count).toBe(0);
  });

  it('answers 409 for a label or an id already used, and 422 for a repeated item id', async () => {
    const id = await w.createList('artie', { entityType: 'task', label: 'Unique' });
    expect((await w.as('bob')('POST', `${P}/lists`, { entityType: 'folder', label: 'Unique' })).status).toBe(
      409,
    );
    const again = await w.as('bob')('POST', `${P}/lists`, { id, entityType: 'folder', label: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain(id);
    const item = newId();
    const twice = await w.as('bob')('POST', `${P}/lists`, {
      entityType: 'task',
      label: 'Twice',
      items: [
        { id: item, entityId: w.id.comp },
        { id: item, entityId: w.id.modeling },
      ],
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors[0].loc).toEqual(['body', 'items', 1, 'id']);
  });

  it('refuses items of another entity type (422) or of no entity (404), and then writes nothing', async () => {
    const id = newId();
    const wrong = await w.as('artie')('POST', `${P}/lists`, {
      id,
      entityType: 'version',
      label: 'Half',
      items: [{ entityId: w.id.v1 }, { entityId: w.id.comp }],
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([
      {
        loc: ['body', 'items', 1, 'entityId'],
        msg: `${w.id.comp} is a task, but this list holds versions`,
        type: 'entity_type_mismatch',
      },
    ]);
    const missing = await w.as('artie')('POST', `${P}/lists`, {
      id,
      entityType: 'version',
      label: 'Half',
      items: [{ entityId: w.id.v1 }, { entityId: newId() }],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/^Version [0-9a-f]{32} not found in project show$/);
    expect((await get('artie', id)).status).toBe(404);
    expect(
      (await w.as('artie')('POST', `${P}/lists`, { id, entityType: 'version', label: 'Half' })).status,
    ).toBe(201);
  });

  it('lets only managers give a new list to someone else, and only to a user that exists', async () => {
    const forBob = { entityType: 'task', label: 'For bob', owner: 'bob' };
    expect((await w.as('artie')('POST', `${P}/lists`, forBob)).status).toBe(403);
    const res = await w.as('boss')('POST', `${P}/lists`, forBob);
    expect(res.status).toBe(201);
    expect((await get('bob', res.body.id)).body.accessLevel).toBe(30);
    // A name of any shape is looked up like any other: one no user has is refused the same way.
    for (const owner of ['nobody', '', '-odd name-']) {
      const ghost = await w.as('boss')('POST', `${P}/lists`, { entityType: 'task', label: 'Ghost', owner });
      expect(ghost.status).toBe(422);
      expect(ghost.body.errors[0].loc).toEqual(['body', 'owner']);
    }
    expect(
      (await w.as('artie')('POST', `${P}/lists`, { entityType: 'task', label: 'Mine', owner: 'Artie' }))
        .status,
    ).toBe(201);
  });

  it('needs a login and the project', async () => {
    expect((await w.as(undefined)('POST', `${P}/lists`, { entityType: 'task', label: 'anon' })).status).toBe(
      401,
    );
    expect((await w.as('eve')('POST', `${P}/lists`, { entityType: 'task', label: 'eve' })).status).toBe(403);
    expect(
      (await w.as('root')('POST', '/api/projects/nowhere/lists', { entityType: 'task', label: 'x' })).status,
    ).toBe(404);
  });
});

describe('reading a list', () => {
  it('answers 404 for an unknown list, 403 outside the project, 401 without a login', async () => {
    const id = await w.createList('artie', {
      entityType: 'task',
      label: 'Read me',
      access: { __everyone__: 10 },
    });
    const unknown = await get('artie', newId());
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/^Entity list [0-9a-f]{32} not found$/);
    expect((await get('eve', id)).status).toBe(403);
    expect((await w.as(undefined)('GET', `${P}/lists/${id}`)).status).toBe(401);
    expect((await w.as('artie')('GET', `${P}/lists/not-an-id`)).status).toBe(422);
  });

  it('leaves the items out with metadata_only, still counting them', async () => {
    const id = await w.createList('artie', {
      entityType: 'task',
      label: 'Meta',
      items: [{ entityId: w.id.comp }, { entityId: w.id.modeling }],
    });
    const res = await get('artie', id, '?metadata_only=true');
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([]);
    expect(res.body.data.count).toBe(2);
  });

  it("shows each item's folder path as it is now, for every entity type", async () => {
    const cases: [string, string, string][] = [
      ['folder', w.id.tree, 'assets/tree'],
      ['task', w.id.comp, 'shots/sh_010'],
      ['product', w.id.modelMain, 'assets/tree'],
      ['version', w.id.v1, 'assets/tree'],
      ['representation', w.id.abc, 'assets/tree'],
      ['workfile', w.id.workfile, 'assets/tree'],
    ];
    for (const [entityType, entityId, folderPath] of cases) {
      const id = await w.createList('artie', {
        entityType,
        label: `paths of ${entityType}`,
        items: [{ entityId }],
      });
      expect((await get('artie', id)).body.items[0].folderPath).toBe(folderPath);
    }
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'renamed',
      items: [{ entityId: w.id.rock }],
    });
    expect((await w.as('root')('PATCH', `${P}/folders/${w.id.rock}`, { name: 'stone' })).status).toBe(204);
    expect((await get('artie', id)).body.items[0].folderPath).toBe('assets/stone');
  });

  it('is served at the AYON paths with AYON parameter names', async () => {
    const doc = (await w.core.request('GET', '/openapi.json')).body;
    const paths = Object.keys(doc.paths).filter(
      (path) => path.includes('/lists') || path.includes('entityListFolders'),
    );
    expect(paths.sort()).toEqual(
      [
        '/api/projects/{project_name}/entityListFolders',
        '/api/projects/{project_name}/entityListFolders/order',
        '/api/projects/{project_name}/entityListFolders/{folder_id}',
        '/api/projects/{project_name}/lists',
        '/api/projects/{project_name}/lists/{entity_list_id}',
        '/api/projects/{project_name}/lists/{entity_list_id}/attributes',
        '/api/projects/{project_name}/lists/{entity_list_id}/entities',
        '/api/projects/{project_name}/lists/{entity_list_id}/items',
        '/api/projects/{project_name}/lists/{entity_list_id}/items/{entity_list_item_id}',
        '/api/projects/{project_name}/lists/{entity_list_id}/materialize',
        '/api/projects/{project_name}/lists/{entity_list_id}/order',
        '/api/projects/{project_name}/lists/{list_id}/items',
      ].sort(),
    );
  });
});

describe('changing a list', () => {
  it('merges attrib and data, replaces access, tags and template, renames, and tells entity_list.changed', async () => {
    const id = await w.createList('artie', {
      entityType: 'version',
      label: 'Before',
      access: { bob: 10 },
      attrib: { a: 1, b: 2 },
      data: { x: { y: 1 }, z: 1 },
      tags: ['one'],
      template: { folderIds: [w.id.assets] },
    });
    const res = await w.as('artie')(
      'PATCH',
      `${P}/lists/${id}`,
      {
        label: 'After',
        access: { 'team:comp': 20 },
        attrib: { b: null, c: 3 },
        data: { x: { w: 2 } },
        tags: ['two'],
        template: { filter: { conditions: [{ key: 'version', value: 1 }] } },
        active: false,
      },
      { 'x-sender': 'tab-2' },
    );
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const list = (await get('artie', id)).body;
    expect(list).toMatchObject({
      label: 'After',
      access: { 'team:comp': 20 },
      attrib: { a: 1, c: 3 },
      data: { x: { y: 1, w: 2 }, z: 1 },
      tags: ['two'],
      template: { filter: { conditions: [{ key: 'version', value: 1 }] } },
      active: false,
    });
    expect(list.attrib).not.toHaveProperty('b');
    const events = await w.events('entity_list.changed');
    expect(events.at(-1)).toMatchObject({
      user_name: 'artie',
      sender: 'tab-2',
      description: 'Entity list After changed',
      summary: { id, label: 'After', count: 0, entity_type: 'version' },
    });
  });

  it('hands the list over to another owner, who then manages it', async () => {
    const id = await w.createList('artie', { entityType: 'task', label: 'Hand over' });
    expect((await w.as('artie')('PATCH', `${P}/lists/${id}`, { owner: 'bob' })).status).toBe(204);
    expect((await get('bob', id)).body.accessLevel).toBe(30);
    expect((await get('artie', id)).status).toBe(403);
    const ghost = await w.as('bob')('PATCH', `${P}/lists/${id}`, { owner: 'nobody' });
    expect(ghost.status).toBe(422);
  });

  it('answers 409 for a label another list has, 404 for an unknown list, 422 for a bad body', async () => {
    await w.createList('artie', { entityType: 'task', label: 'Taken' });
    const id = await w.createList('artie', { entityType: 'task', label: 'Free' });
    expect((await w.as('artie')('PATCH', `${P}/lists/${id}`, { label: 'Taken' })).status).toBe(409);
    expect((await get('artie', id)).body.label).toBe('Free');
    expect((await w.as('artie')('PATCH', `${P}/lists/${newId()}`, { label: 'x' })).status).toBe(404);
    // A list's entity type is not a field of the patch: it is ignored, as AYON ignores unknown fields.
    expect((await w.as('artie')('PATCH', `${P}/lists/${id}`, { entityType: 'folder' })).status).toBe(204);
    expect((await get('artie', id)).body.entityType).toBe('task');
    const bad = await w.as('artie')('PATCH', `${P}/lists/${id}`, { label: 7 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['body', 'label']);
  });
});

describe('deleting a list', () => {
  it('removes it with its items and tells entity_list.deleted with the count', async () => {
    const id = await w.createList('artie', {
      entityType: 'task',
      label: 'Doomed',
      items: [{ entityId: w.id.comp }, { entityId: w.id.modeling }],
    });
    const res = await w.as('artie')('DELETE', `${P}/lists/${id}`);
    expect(res.status).toBe(204);
    expect((await get('artie', id)).status).toBe(404);
    const left = await w.core.db
      .withSchema('project_show')
      .selectFrom('entity_list_items')
      .select('id')
      .where('entity_list_id', '=', id)
      .execute();
    expect(left).toEqual([]);
    const event = (await w.events('entity_list.deleted')).at(-1);
    expect(event).toMatchObject({
      user_name: 'artie',
      description: 'Deleted entity list Doomed',
      summary: { id, label: 'Doomed', count: 2, entity_type: 'task', entity_list_type: 'generic' },
    });
    expect((await w.as('artie')('DELETE', `${P}/lists/${id}`)).status).toBe(404);
  });
});
