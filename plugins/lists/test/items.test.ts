import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@pipewright/sdk';
import { buildWorld, P, type World } from './world.js';

let w: World;
beforeAll(async () => {
  w = await buildWorld();
});
afterAll(() => w.core.close());

/** The items of a list as [position, label] pairs, and the whole items. */
async function items(listId: string): Promise<any[]> {
  const res = await w.as('artie')('GET', `${P}/lists/${listId}`);
  expect(res.status).toBe(200);
  res.body.items.forEach((item: any, i: number) => expect(item.position).toBe(i));
  return res.body.items;
}
const labels = async (listId: string) => (await items(listId)).map((item) => item.label);

/** A folder list holding the six folders labelled a..f. */
async function sixFolders(label: string): Promise<string> {
  const order = ['assets', 'tree', 'rock', 'shots', 'sh010', 'shX010'];
  return w.createList('artie', {
    entityType: 'folder',
    label,
    items: order.map((name, i) => ({ entityId: w.id[name], label: 'abcdef'[i] })),
  });
}
const itemIds = async (listId: string) =>
  Object.fromEntries((await items(listId)).map((item) => [item.label, item.id]));

describe('adding an item', () => {
  it('inserts at a position, the others shifting down; at the end without one or beyond the end', async () => {
    const id = await w.createList('artie', { entityType: 'folder', label: 'Insert' });
    const add = (body: Record<string, unknown>) => w.as('artie')('POST', `${P}/lists/${id}/items`, body);
    const first = await add({ entityId: w.id.tree, label: 'a' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    await add({ entityId: w.id.rock, label: 'c' });
    await add({ entityId: w.id.rock, label: 'b', position: 1 });
    await add({ entityId: w.id.tree, label: 'front', position: 0 });
    await add({ entityId: w.id.tree, label: 'far', position: 99 });
    const chosen = newId();
    await add({ id: chosen, entity_id: w.id.shots, label: 'end' });
    expect(await labels(id)).toEqual(['front', 'a', 'b', 'c', 'far', 'end']);
    // A negative position (which AYON lets in too) is the start of the list.
    await add({ entityId: w.id.tree, label: 'before all', position: -4 });
    expect(await labels(id)).toEqual(['before all', 'front', 'a', 'b', 'c', 'far', 'end']);
    await w.as('artie')('DELETE', `${P}/lists/${id}/items/${(await items(id))[0].id}`);
    const all = await items(id);
    expect(all.at(-1)).toMatchObject({
      id: chosen,
      entityId: w.id.shots,
      createdBy: 'artie',
      folderPath: 'shots',
    });
    const event = (await w.events('entity_list.changed')).at(-1);
    expect(event).toMatchObject({ summary: { id, count: 6 }, user_name: 'artie' });
  });

  it('keeps positions dense when many people add at once (the list is locked per change)', async () => {
    const id = await w.createList('artie', { entityType: 'folder', label: 'Concurrent' });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        w.as(i % 2 ? 'artie' : 'root')('POST', `${P}/lists/${id}/items`, {
          entityId: w.id.tree,
          label: `n${i}`,
          position: i % 3 === 0 ? 0 : undefined,
        }),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(Array(12).fill(201));
    expect((await labels(id)).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `n${i}`).sort());
  });

  it('refuses an entity of another type with 422 and a missing one with 404, adding nothing', async () => {
    const id = await w.createList('artie', {
      entityType: 'version',
      label: 'Versions only',
      items: [{ entityId: w.id.v1 }],
    });
    const wrong = await w.as('artie')('POST', `${P}/lists/${id}/items`, { entityId: w.id.modelMain });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([
      {
        loc: ['body', 'entityId'],
        msg: `${w.id.modelMain} is a product, but this list holds versions`,
        type: 'entity_type_mismatch',
      },
    ]);
    const missing = await w.as('artie')('POST', `${P}/lists/${id}/items`, { entityId: newId() });
    expect(missing.status).toBe(404);
    expect(await items(id)).toHaveLength(1);
    expect((await w.as('artie')('POST', `${P}/lists/${newId()}/items`, { entityId: w.id.v1 })).status).toBe(
      404,
    );
  });

  it('answers 409 for an item id already used, 422 for a bad body', async () => {
    const id = await w.createList('artie', {
      entityType: 'version',
      label: 'Clash',
      items: [{ entityId: w.id.v1 }],
    });
    const [item] = await items(id);
    const clash = await w.as('artie')('POST', `${P}/lists/${id}/items`, { id: item.id, entityId: w.id.v2 });
    expect(clash.status).toBe(409);
    const bad = await w.as('artie')('POST', `${P}/lists/${id}/items`, {
      entityId: w.id.v2,
      position: 'first',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['body', 'position']);
    expect(await items(id)).toHaveLength(1);
  });
});

describe('changing one item', () => {
  it('merges attrib and data, replaces label and tags, answers 200 with null', async () => {
    const id = await w.createList('artie', {
      entityType: 'version',
      label: 'Patch one',
      items: [
        { entityId: w.id.v1, label: 'old', attrib: { a: 1, b: 2 }, data: { n: { x: 1 } }, tags: ['t1'] },
      ],
    });
    const [item] = await items(id);
    const res = await w.as('artie')('PATCH', `${P}/lists/${id}/items/${item.id}`, {
      label: 'new',
      attrib: { b: null, c: 3 },
      data: { n: { y: 2 } },
      tags: ['t2'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const [after] = await items(id);
    expect(after).toMatchObject({
      label: 'new',
      attrib: { a: 1, c: 3 },
      data: { n: { x: 1, y: 2 } },
      tags: ['t2'],
    });
    expect(after.attrib).not.toHaveProperty('b');
  });

  it('moves an item up or down to the position given', async () => {
    const id = await sixFolders('Move');
    const ids = await itemIds(id);
    const move = (label: string, position: number) =>
      w.as('artie')('PATCH', `${P}/lists/${id}/items/${ids[label]}`, { position });
    expect((await move('b', 4)).status).toBe(200);
    expect(await labels(id)).toEqual(['a', 'c', 'd', 'e', 'b', 'f']);
    await move('e', 0);
    expect(await labels(id)).toEqual(['e', 'a', 'c', 'd', 'b', 'f']);
    await move('a', 50);
    expect(await labels(id)).toEqual(['e', 'c', 'd', 'b', 'f', 'a']);
  });

  it('points an item at another entity of the list type, refusing another type', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Repoint',
      items: [{ entityId: w.id.tree }],
    });
    const [item] = await items(id);
    const url = `${P}/lists/${id}/items/${item.id}`;
    expect((await w.as('artie')('PATCH', url, { entityId: w.id.sh010 })).status).toBe(200);
    expect((await items(id))[0]).toMatchObject({ entityId: w.id.sh010, folderPath: 'shots/sh_010' });
    const wrong = await w.as('artie')('PATCH', url, { entityId: w.id.comp });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0]).toMatchObject({ loc: ['body', 'entityId'], type: 'entity_type_mismatch' });
    expect((await w.as('artie')('PATCH', `${P}/lists/${id}/items/${newId()}`, { label: 'x' })).status).toBe(
      404,
    );
  });
});

describe('removing one item', () => {
  it('answers 200 with null; the items after it move up; 404 for an item the list does not hold', async () => {
    const id = await sixFolders('Remove');
    const ids = await itemIds(id);
    const res = await w.as('artie')('DELETE', `${P}/lists/${id}/items/${ids.c}`);
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(await labels(id)).toEqual(['a', 'b', 'd', 'e', 'f']);
    expect((await w.as('artie')('DELETE', `${P}/lists/${id}/items/${ids.c}`)).status).toBe(404);
  });
});

describe('changing many items (PATCH /lists/{list_id}/items)', () => {
  const patch = (id: string, body: unknown, headers?: Record<string, string>) =>
    w.as('artie')('PATCH', `${P}/lists/${id}/items`, body, headers);

  it('replace: the items become those given, in that order; known ids keep their identity', async () => {
    const id = await sixFolders('Replace');
    const ids = await itemIds(id);
    const before = (await items(id)).find((item) => item.label === 'b');
    const res = await patch(id, {
      mode: 'replace',
      items: [
        { entityId: w.id.shots, label: 'new' },
        { id: ids.b, entityId: w.id.tree, label: 'b again' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const after = await items(id);
    expect(after.map((item) => item.label)).toEqual(['new', 'b again']);
    expect(after[1]).toMatchObject({ id: ids.b, createdAt: before.createdAt, attrib: {}, tags: [] });
  });

  it('replace is the default mode and needs an entityId for every item', async () => {
    const id = await sixFolders('Replace default');
    const res = await patch(id, { items: [{ entityId: w.id.rock }, { label: 'no entity' }] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { loc: ['body', 'items', 1, 'entityId'], msg: 'entityId is required in replace mode', type: 'missing' },
    ]);
    expect(await labels(id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect((await patch(id, { items: [{ entityId: w.id.rock, label: 'only' }] })).status).toBe(200);
    expect(await labels(id)).toEqual(['only']);
  });

  it('merge: patches known items in place, moves those given a position, adds new ones', async () => {
    const id = await sixFolders('Merge');
    const ids = await itemIds(id);
    const res = await patch(id, {
      mode: 'merge',
      items: [
        { id: ids.e, attrib: { fps: 25 } },
        { id: ids.a, position: 3 },
        { entityId: w.id.shots, label: 'appended' },
        { entityId: w.id.rock, label: 'placed', position: 0 },
      ],
    });
    expect(res.status).toBe(200);
    const after = await items(id);
    expect(after.map((item) => item.label)).toEqual(['placed', 'b', 'c', 'a', 'd', 'e', 'f', 'appended']);
    expect(after.find((item) => item.label === 'e').attrib).toEqual({ fps: 25 });
  });

  it('merge needs an entityId for items the list does not hold', async () => {
    const id = await sixFolders('Merge new');
    const res = await patch(id, { mode: 'merge', items: [{ id: newId(), label: 'who?' }] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'items', 0, 'entityId']);
  });

  it('delete: removes the items with these ids, the rest closing up', async () => {
    const id = await sixFolders('Delete many');
    const ids = await itemIds(id);
    const res = await patch(id, {
      mode: 'delete',
      items: [{ id: ids.b }, { id: ids.e }, { label: 'no id: skipped' }],
    });
    expect(res.status).toBe(200);
    expect(await labels(id)).toEqual(['a', 'c', 'd', 'f']);
  });

  it('is one transaction: one bad item leaves every item as it was, and no event is told', async () => {
    const id = await sixFolders('All or nothing');
    const ids = await itemIds(id);
    const changes = (await w.events('entity_list.changed')).length;
    const unknown = await patch(id, { mode: 'delete', items: [{ id: ids.a }, { id: newId() }] });
    expect(unknown.status).toBe(404);
    const missingEntity = await patch(id, {
      mode: 'merge',
      items: [{ id: ids.a, label: 'changed' }, { entityId: newId() }],
    });
    expect(missingEntity.status).toBe(404);
    const wrongType = await patch(id, {
      mode: 'merge',
      items: [{ id: ids.a, label: 'changed' }, { entityId: w.id.v1 }],
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors[0].loc).toEqual(['body', 'items', 1, 'entityId']);
    // The same change without the bad item goes through, once.
    const good = await patch(id, {
      mode: 'merge',
      items: [
        { id: ids.a, label: 'changed' },
        { entityId: w.id.tree, id: ids.b },
      ],
    });
    expect(good.status).toBe(200);
    expect(await labels(id)).toEqual(['changed', 'b', 'c', 'd', 'e', 'f']);
    expect((await w.events('entity_list.changed')).length).toBe(changes + 1);
  });

  it('needs at least one item and a known mode', async () => {
    const id = await sixFolders('Shape');
    const empty = await patch(id, { mode: 'merge', items: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].loc).toEqual(['body', 'items']);
    const mode = await patch(id, { mode: 'upsert', items: [{ id: newId() }] });
    expect(mode.status).toBe(422);
    expect(mode.body.errors[0].loc).toEqual(['body', 'mode']);
    expect((await patch(newId(), { items: [{ entityId: w.id.tree }] })).status).toBe(404);
  });

  it('tells one entity_list.changed per request, with the sender', async () => {
    const id = await sixFolders('Events');
    const ids = await itemIds(id);
    const before = (await w.events('entity_list.changed')).length;
    await patch(id, { mode: 'delete', items: [{ id: ids.a }, { id: ids.b }] }, { 'x-sender': 'grid' });
    const events = await w.events('entity_list.changed');
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)).toMatchObject({ sender: 'grid', summary: { id, count: 4 } });
  });
});

describe('ordering the items (POST /lists/{id}/order)', () => {
  it('puts every item where the order says, and refuses an order that is not exactly the items', async () => {
    const id = await sixFolders('Order');
    const ids = await itemIds(id);
    const order = (list: string[]) => w.as('artie')('POST', `${P}/lists/${id}/order`, { order: list });
    expect((await order(['f', 'e', 'd', 'c', 'b', 'a'].map((l) => ids[l]))).status).toBe(204);
    expect(await labels(id)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect((await order(['a', 'b'].map((l) => ids[l]))).status).toBe(400);
    expect((await order(['a', 'a', 'b', 'c', 'd', 'e'].map((l) => ids[l]))).status).toBe(400);
    expect((await order([...['a', 'b', 'c', 'd', 'e', 'f'].map((l) => ids[l]), newId()])).status).toBe(400);
    expect(await labels(id)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
  });
});

describe('when listed entities are deleted', () => {
  it('their items go and the lists close the gaps', async () => {
    const doomed = await w.create('folders', { name: 'doomed', folderType: 'Folder' });
    const child = await w.create('folders', { name: 'child', folderType: 'Folder', parentId: doomed });
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Survivors',
      items: [
        { entityId: w.id.tree, label: 'a' },
        { entityId: child, label: 'b' },
        { entityId: w.id.rock, label: 'c' },
        { entityId: doomed, label: 'd' },
        { entityId: w.id.shots, label: 'e' },
      ],
    });
    expect((await w.as('root')('DELETE', `${P}/folders/${doomed}`)).status).toBe(204);
    expect(await labels(id)).toEqual(['a', 'c', 'e']);
  });
});
