import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildWorld, referencesOf, type World } from './world.js';

// Status changes, assignee changes and publishes become activities whichever write path made them, authored by
// whoever made the change.
let world: World;
let core: World['core'];
let t: World['tokens'];
let ids: World['ids'];
const P = '/api/projects/demo';

/** Activities of one type on one entity, oldest first. */
async function made(type: string, entityId: string) {
  await world.settle();
  const rows = await core.db
    .withSchema('project_demo')
    .selectFrom('activities as a')
    .innerJoin('activity_references as r', 'r.activity_id', 'a.id')
    .selectAll('a')
    .where('a.activity_type', '=', type)
    .where('r.reference_type', '=', 'origin')
    .where('r.entity_id', '=', entityId)
    .orderBy('a.creation_order')
    .execute();
  return rows as any[];
}

const patchTask = (id: string, body: Record<string, unknown>, token = t.root) =>
  core.request('PATCH', `${P}/tasks/${id}`, { token, body });

beforeAll(async () => {
  world = await buildWorld();
  ({ core, tokens: t, ids } = world);
});
afterAll(() => core?.close());

describe('attribute changes', () => {
  it('become one attrib.change activity per attribute, with the key and both values, as AYON 1.15 writes them', async () => {
    expect(
      (await patchTask(ids.modeling, { attrib: { frameStart: 1001, frameEnd: 1096 } }, t.boss)).status,
    ).toBe(204);
    expect((await patchTask(ids.modeling, { attrib: { frameEnd: 1100 } }, t.boss)).status).toBe(204);
    const changes = await made('attrib.change', ids.modeling);
    expect(changes.map((c) => [c.data.key, c.data.oldValue, c.data.newValue])).toEqual([
      ['frameEnd', null, 1096],
      ['frameStart', null, 1001],
      ['frameEnd', 1096, 1100],
    ]);
    expect(changes[2].body).toBe(`[modeling](task:${ids.modeling}) frameEnd changed from 1096 to 1100`);
    expect(changes[2].data.author).toBe('boss');
    // Assignees hear of it as news, never as important.
    const refs = await referencesOf(world, changes[2].id);
    expect(refs).toEqual(expect.arrayContaining(['author:boss', `origin:${ids.modeling}`, 'relation:artie']));
  });
});

describe('status changes', () => {
  it('become status.change activities with the old and new status, by the user who changed it (REST)', async () => {
    expect((await patchTask(ids.modeling, { status: 'In progress' }, t.boss)).status).toBe(204);
    const [change] = await made('status.change', ids.modeling);
    expect(change.body).toBe(`[modeling](task:${ids.modeling}) status changed from Not ready to In progress`);
    expect(change.data).toMatchObject({ oldValue: 'Not ready', newValue: 'In progress', author: 'boss' });
    // Assignees hear of it (not as important); the author does not.
    const refs = await referencesOf(world, change.id);
    expect(refs).toEqual(
      expect.arrayContaining([
        'author:boss',
        `origin:${ids.modeling}`,
        'relation:artie',
        `relation:${ids.tree}`,
      ]),
    );
  });

  it('come from /operations too, for folders, products and versions as well', async () => {
    const res = await core.request('POST', `${P}/operations`, {
      token: t.root,
      body: {
        // Events (and so activities) follow the answer unless the client waits for them.
        waitForEvents: true,
        operations: [
          { type: 'update', entityType: 'task', entityId: ids.modeling, data: { status: 'Pending review' } },
          { type: 'update', entityType: 'folder', entityId: ids.tree, data: { status: 'In progress' } },
          { type: 'update', entityType: 'product', entityId: ids.product, data: { status: 'In progress' } },
          { type: 'update', entityType: 'version', entityId: ids.v1, data: { status: 'Pending review' } },
        ],
      },
    });
    expect(res.body.success).toBe(true);
    const changes = await made('status.change', ids.modeling);
    expect(changes.map((c) => [c.data.oldValue, c.data.newValue])).toEqual([
      ['Not ready', 'In progress'],
      ['In progress', 'Pending review'],
    ]);
    expect((await made('status.change', ids.tree))[0].data).toMatchObject({
      oldValue: 'Not ready',
      newValue: 'In progress',
    });
    expect(await made('status.change', ids.product)).toHaveLength(1);
    expect((await made('status.change', ids.v1))[0].data.author).toBe('root');
  });

  it('say nothing for other fields', async () => {
    const before = (await made('status.change', ids.lookdev)).length;
    expect((await patchTask(ids.lookdev, { label: 'Look dev' })).status).toBe(204);
    expect(await made('status.change', ids.lookdev)).toHaveLength(before);
  });

  it('use the old value an event payload carries when there is one', async () => {
    await core.events.emit({
      topic: 'entity.task.status_changed',
      project: 'demo',
      user: 'bea',
      summary: { entityId: ids.lookdev, value: 'Approved' },
      payload: { oldValue: 'On hold', newValue: 'Approved' },
    });
    const [change] = await made('status.change', ids.lookdev);
    expect(change.data).toMatchObject({ oldValue: 'On hold', newValue: 'Approved', author: 'bea' });
  });
});

describe('assignee changes', () => {
  it('become one activity per added and per removed assignee, mentioning them', async () => {
    expect((await patchTask(ids.modeling, { assignees: ['bea', 'fred'] }, t.boss)).status).toBe(204);
    const added = await made('assignee.add', ids.modeling);
    const removed = await made('assignee.remove', ids.modeling);
    expect(added.map((a) => a.data.assignee).sort()).toEqual(['bea', 'fred']);
    expect(removed.map((a) => a.data.assignee)).toEqual(['artie']);
    expect(removed[0].body).toBe(`Removed [Artie Person](user:artie) from [modeling](task:${ids.modeling})`);
    const bea = added.find((a) => a.data.assignee === 'bea');
    expect(bea.body).toBe(`Added [Bea Person](user:bea) to [modeling](task:${ids.modeling})`);
    expect(bea.data.author).toBe('boss');
    // The added assignee is mentioned (important); the removed one too, so they learn they were taken off.
    expect(await referencesOf(world, bea.id)).toContain('mention:bea');
    expect(await referencesOf(world, removed[0].id)).toContain('mention:artie');
  });

  it('come from /operations too', async () => {
    const res = await core.request('POST', `${P}/operations`, {
      token: t.root,
      body: {
        // Events (and so activities) follow the answer unless the client waits for them.
        waitForEvents: true,
        operations: [
          { type: 'update', entityType: 'task', entityId: ids.lookdev, data: { assignees: ['artie'] } },
        ],
      },
    });
    expect(res.body.success).toBe(true);
    expect((await made('assignee.add', ids.lookdev)).map((a) => a.data.assignee)).toEqual(['artie']);
  });

  it('of one request share a batch, so the inbox shows them as one notice', async () => {
    const res = await core.request('POST', `${P}/operations`, {
      token: t.root,
      body: {
        waitForEvents: true,
        operations: [ids.modeling, ids.lookdev].map((id) => ({
          type: 'update',
          entityType: 'task',
          entityId: id,
          data: { assignees: ['artie', 'bea', 'fred', 'boss'] },
        })),
      },
    });
    expect(res.body.success).toBe(true);
    const forBoss = async (id: string) =>
      (await made('assignee.add', id)).filter((a) => a.data.assignee === 'boss').at(-1);
    const [one, two] = [await forBoss(ids.modeling), await forBoss(ids.lookdev)];
    expect(one.data.batch).toMatch(/^[0-9a-f]{16}$/);
    expect(two.data.batch).toBe(one.data.batch);
    expect((await patchTask(ids.lookdev, { assignees: [] })).status).toBe(204);
    const [removed] = (await made('assignee.remove', ids.lookdev)).slice(-1);
    expect(removed.data.batch).toMatch(/^[0-9a-f]{16}$/);
    expect(removed.data.batch).not.toBe(one.data.batch);
  });
});

describe('publishing', () => {
  it('makes a version.publish activity on the new version with its context', async () => {
    const res = await core.request('POST', `${P}/versions`, {
      token: t.root,
      body: { version: 2, productId: ids.product, taskId: ids.modeling, author: 'bea' },
    });
    expect(res.status).toBe(201);
    const [publish] = await made('version.publish', res.body.id);
    expect(publish.body).toBe(`Published [v002](version:${res.body.id})`);
    expect(publish.data).toMatchObject({
      author: 'root',
      origin: { type: 'version', id: res.body.id, name: 'v002' },
      parents: [
        { type: 'folder', id: ids.tree },
        { type: 'product', id: ids.product, name: 'modelMain', subtype: 'model' },
      ],
      context: {
        folderId: ids.tree,
        folderName: 'tree',
        folderPath: '/assets/tree',
        productId: ids.product,
        productName: 'modelMain',
        productType: 'model',
        taskId: ids.modeling,
        taskName: 'modeling',
        taskType: 'Modeling',
      },
    });
    // The version's author and the task's assignees hear of it; the task and folder relate to it.
    expect(await referencesOf(world, publish.id)).toEqual(
      expect.arrayContaining([
        'relation:bea',
        'relation:fred',
        `relation:${ids.modeling}`,
        `relation:${ids.tree}`,
      ]),
    );
  });

  it('is made by /operations creates too', async () => {
    const res = await core.request('POST', `${P}/operations`, {
      token: t.root,
      body: {
        // Events (and so activities) follow the answer unless the client waits for them.
        waitForEvents: true,
        operations: [{ type: 'create', entityType: 'version', data: { version: 3, productId: ids.product } }],
      },
    });
    expect(res.body.success).toBe(true);
    expect(await made('version.publish', res.body.operations[0].entityId)).toHaveLength(1);
  });
});

describe('one activity per change', () => {
  it('skips an event heard twice (as when a second server process relays it)', async () => {
    expect((await patchTask(ids.animation, { status: 'In progress' }, t.bea)).status).toBe(204);
    await world.settle();
    const stored = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'entity.task.status_changed')
      .orderBy('creation_order', 'desc')
      .executeTakeFirstOrThrow();
    const message = await core.events.get(stored.id);
    await core.events.announce({ ...message!, progress: null });
    expect(await made('status.change', ids.animation)).toHaveLength(1);
  });
});
