import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@pipewright/sdk';
import { buildWorld, P, type World } from './world.js';

let w: World;
beforeAll(async () => {
  w = await buildWorld();
});
afterAll(() => w.core.close());

describe('custom attributes of a list', () => {
  it('start empty; PUT replaces them (200, null) and GET answers them with the type filled in', async () => {
    const id = await w.createList('artie', {
      entityType: 'version',
      label: 'Attributes',
      access: { bob: 10 },
    });
    const url = `${P}/lists/${id}/attributes`;
    expect((await w.as('artie')('GET', url)).body).toEqual([]);
    const put = await w.as('artie')('PUT', url, [
      { name: 'urgency', data: { type: 'integer', title: 'Urgency', default: 1, ge: 0, le: 5 } },
      { name: 'note', data: { title: 'Note', max_length: 200, description: null } },
    ]);
    expect(put.status).toBe(200);
    expect(put.body).toBeNull();
    const got = await w.as('bob')('GET', url);
    expect(got.status).toBe(200);
    expect(got.body).toEqual([
      { name: 'urgency', data: { type: 'integer', title: 'Urgency', default: 1, ge: 0, le: 5 } },
      { name: 'note', data: { type: 'string', title: 'Note', maxLength: 200 } },
    ]);
    // AYON keeps them in the list's data.
    expect((await w.as('artie')('GET', `${P}/lists/${id}`)).body.data.attributes).toHaveLength(2);
    expect((await w.events('entity_list.changed')).at(-1)).toMatchObject({ summary: { id } });
    // Limits AYON does not bound are kept as sent, negative ones too.
    const odd = {
      name: 'odd',
      data: { type: 'list_of_strings', minLength: -2, maxLength: -1, minItems: -5 },
    };
    expect((await w.as('artie')('PUT', url, [odd])).status).toBe(200);
    expect((await w.as('artie')('GET', url)).body).toEqual([odd]);
    expect((await w.as('artie')('PUT', url, [])).status).toBe(200);
    expect((await w.as('artie')('GET', url)).body).toEqual([]);
  });

  it('refuses names that shadow studio attributes, repeat, or break the pattern, and unusable data (422)', async () => {
    const id = await w.createList('artie', { entityType: 'version', label: 'Bad attributes' });
    const url = `${P}/lists/${id}/attributes`;
    const cases: [unknown, (string | number)[]][] = [
      [[{ name: 'fps', data: { type: 'float' } }], ['body', 0, 'name']],
      [
        [
          { name: 'note', data: {} },
          { name: 'Note', data: {} },
        ],
        ['body', 1, 'name'],
      ],
      [[{ name: 'a', data: {} }], ['body', 0, 'name']],
      [[{ name: 'my_note', data: {} }], ['body', 0, 'name']],
      [[{ name: 'level', data: { type: 'integer', default: 'high' } }], ['body', 0, 'data', 'default']],
      [[{ name: 'code', data: { regex: '([' } }], ['body', 0, 'data', 'regex']],
      [[{ name: 'code', data: { minLength: 5, maxLength: 2 } }], ['body', 0, 'data', 'minLength']],
      [[{ name: 'kind', data: { type: 'colour' } }], ['body', 0, 'data', 'type']],
    ];
    for (const [body, loc] of cases) {
      const res = await w.as('artie')('PUT', url, body);
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: any) => e.loc)).toContainEqual(loc);
    }
    expect((await w.as('artie')('GET', url)).body).toEqual([]);
  });

  it('answer 404 for an unknown list and 403 without access', async () => {
    const id = await w.createList('artie', { entityType: 'version', label: 'Attribute access' });
    expect((await w.as('artie')('GET', `${P}/lists/${newId()}/attributes`)).status).toBe(404);
    expect((await w.as('artie')('PUT', `${P}/lists/${newId()}/attributes`, [])).status).toBe(404);
    expect((await w.as('bob')('GET', `${P}/lists/${id}/attributes`)).status).toBe(403);
    expect((await w.as('bob')('PUT', `${P}/lists/${id}/attributes`, [])).status).toBe(403);
  });
});

describe('list folders (entityListFolders)', () => {
  const folders = async (user = 'artie') => {
    const res = await w.as(user)('GET', `${P}/entityListFolders`);
    expect(res.status).toBe(200);
    return res.body.folders as any[];
  };
  const make = async (user: string, body: Record<string, unknown>) => {
    const res = await w.as(user)('POST', `${P}/entityListFolders`, body);
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  it('are created by anyone on the project (200 with the id, as AYON answers) and listed for everyone', async () => {
    const id = await make('artie', {
      label: 'Dailies',
      access: { bob: 10 },
      data: { color: '#ff0000', icon: 'movie' },
    });
    const child = await make('bob', { label: 'Week 1', parent_id: id });
    const all = await folders('fred');
    expect(all.find((folder) => folder.id === id)).toEqual({
      id,
      label: 'Dailies',
      parentId: null,
      position: 0,
      owner: 'artie',
      access: { bob: 10 },
      data: { color: '#ff0000', icon: 'movie' },
    });
    expect(all.find((folder) => folder.id === child)).toMatchObject({ parentId: id, owner: 'bob' });
    expect((await w.as('eve')('GET', `${P}/entityListFolders`)).status).toBe(403);
    expect((await w.as('eve')('POST', `${P}/entityListFolders`, { label: 'x' })).status).toBe(403);
  });

  it('keep labels unique among siblings (409), need an existing parent (404) and a sane body (422)', async () => {
    const parent = await make('artie', { label: 'Reviews' });
    await make('artie', { label: 'Client', parentId: parent });
    expect(
      (await w.as('bob')('POST', `${P}/entityListFolders`, { label: 'client', parentId: parent })).status,
    ).toBe(409);
    await make('bob', { label: 'Client' });
    const id = newId();
    await make('bob', { id, label: 'With id' });
    expect((await w.as('bob')('POST', `${P}/entityListFolders`, { id, label: 'Again' })).status).toBe(409);
    expect(
      (await w.as('bob')('POST', `${P}/entityListFolders`, { label: 'Orphan', parentId: newId() })).status,
    ).toBe(404);
    const bad = await w.as('bob')('POST', `${P}/entityListFolders`, { label: '', data: { color: 'red' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.loc)).toEqual([
      ['body', 'label'],
      ['body', 'data', 'color'],
    ]);
  });

  it('are changed and deleted by their owner or a manager only', async () => {
    const id = await make('artie', { label: 'Owned', data: { color: '#00ff00' } });
    const url = `${P}/entityListFolders/${id}`;
    expect((await w.as('bob')('PATCH', url, { label: 'Taken over' })).status).toBe(403);
    expect((await w.as('artie')('PATCH', url, { label: 'Renamed', data: { icon: 'star' } })).status).toBe(
      204,
    );
    expect((await folders()).find((folder) => folder.id === id)).toMatchObject({
      label: 'Renamed',
      data: { color: '#00ff00', icon: 'star' },
    });
    expect((await w.as('boss')('PATCH', url, { data: { color: null } })).status).toBe(204);
    expect((await folders()).find((folder) => folder.id === id).data).toEqual({ icon: 'star' });
    expect((await w.as('bob')('DELETE', url)).status).toBe(403);
    expect((await w.as('artie')('PATCH', `${P}/entityListFolders/${newId()}`, { label: 'x' })).status).toBe(
      404,
    );
  });

  it('cannot be moved inside themselves', async () => {
    const top = await make('artie', { label: 'Top' });
    const middle = await make('artie', { label: 'Middle', parentId: top });
    const bottom = await make('artie', { label: 'Bottom', parentId: middle });
    expect((await w.as('artie')('PATCH', `${P}/entityListFolders/${top}`, { parentId: bottom })).status).toBe(
      400,
    );
    expect((await w.as('artie')('PATCH', `${P}/entityListFolders/${top}`, { parentId: top })).status).toBe(
      400,
    );
    expect(
      (await w.as('artie')('PATCH', `${P}/entityListFolders/${top}`, { parentId: newId() })).status,
    ).toBe(404);
    expect(
      (await w.as('artie')('PATCH', `${P}/entityListFolders/${bottom}`, { parentId: null })).status,
    ).toBe(204);
    expect((await folders()).find((folder) => folder.id === bottom).parentId).toBeNull();
  });

  it('are ordered by POST order, which names only existing folders', async () => {
    const a = await make('artie', { label: 'Order A' });
    const b = await make('artie', { label: 'Order B' });
    expect((await w.as('bob')('POST', `${P}/entityListFolders/order`, { order: [b, a] })).status).toBe(204);
    const all = await folders();
    expect(all.find((folder) => folder.id === b).position).toBe(0);
    expect(all.find((folder) => folder.id === a).position).toBe(1);
    const unknown = await w.as('bob')('POST', `${P}/entityListFolders/order`, { order: [a, newId()] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].loc).toEqual(['body', 'order', 1]);
    expect((await w.as('bob')('POST', `${P}/entityListFolders/order`, { order: [] })).status).toBe(422);
  });

  it('hold lists: a list names its folder, and deleting the folder (with its subfolders) leaves its lists outside', async () => {
    const folder = await make('artie', { label: 'Holder' });
    const sub = await make('artie', { label: 'Sub', parentId: folder });
    const inFolder = await w.createList('artie', {
      entityType: 'task',
      label: 'In folder',
      entityListFolderId: folder,
    });
    const inSub = await w.createList('artie', { entityType: 'task', label: 'In sub' });
    expect((await w.as('artie')('PATCH', `${P}/lists/${inSub}`, { entityListFolderId: sub })).status).toBe(
      204,
    );
    expect((await w.as('artie')('GET', `${P}/lists/${inSub}`)).body.entityListFolderId).toBe(sub);
    const orphan = await w.as('artie')('POST', `${P}/lists`, {
      entityType: 'task',
      label: 'Nowhere',
      entityListFolderId: newId(),
    });
    expect(orphan.status).toBe(404);
    expect(
      (await w.as('artie')('PATCH', `${P}/lists/${inSub}`, { entityListFolderId: newId() })).status,
    ).toBe(404);
    expect((await w.as('artie')('DELETE', `${P}/entityListFolders/${folder}`)).status).toBe(204);
    expect((await folders()).map((f) => f.id)).not.toContain(sub);
    expect((await w.as('artie')('GET', `${P}/lists/${inFolder}`)).body.entityListFolderId).toBeNull();
    expect((await w.as('artie')('GET', `${P}/lists/${inSub}`)).body.entityListFolderId).toBeNull();
  });
});
