import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_KEY, buildWorld, commentOk, eventsOf, fileInfo, upload, type World } from './world.js';

// POST /api/projects/{p}/operations/activities: many activity writes, one transaction, one result each.
let world: World;
let core: World['core'];
let t: World['tokens'];
let ids: World['ids'];
const URL = '/api/projects/demo/operations/activities';
const run = (token: string, body: unknown, project = 'demo') =>
  core.request('POST', `/api/projects/${project}/operations/activities`, { token, body });
const count = async () =>
  Number(
    (
      (await core.db
        .withSchema('project_demo')
        .selectFrom('activities')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()) as any
    ).n,
  );
const body = async (id: string) =>
  (
    (await core.db
      .withSchema('project_demo')
      .selectFrom('activities')
      .select('body')
      .where('id', '=', id)
      .executeTakeFirst()) as any
  )?.body;

beforeAll(async () => {
  world = await buildWorld();
  ({ core, tokens: t, ids } = world);
});
afterAll(() => core?.close());

describe('a batch that succeeds', () => {
  it('creates, updates and deletes in order, answering one result per operation', async () => {
    const old = await commentOk(world, t.bea, { type: 'task', id: ids.modeling }, 'old one');
    const fresh = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const res = await run(t.bea, {
      operations: [
        {
          id: 'first',
          type: 'create',
          data: {
            entityType: 'task',
            entityId: ids.modeling,
            activity_type: 'comment',
            body: 'one',
            id: fresh,
          },
        },
        {
          id: 'second',
          type: 'create',
          data: { entityType: 'folders', entityId: ids.tree, activityType: 'comment', body: 'two' },
        },
        { id: 'third', type: 'update', activityId: fresh, data: { body: 'one, edited' } },
        { id: 'fourth', type: 'delete', activityId: old },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.operations).toEqual([
      {
        id: 'first',
        type: 'create',
        activityId: fresh,
        success: true,
        status: 201,
        errorCode: null,
        detail: null,
      },
      expect.objectContaining({ id: 'second', type: 'create', success: true, status: 201 }),
      {
        id: 'third',
        type: 'update',
        activityId: fresh,
        success: true,
        status: 204,
        errorCode: null,
        detail: null,
      },
      {
        id: 'fourth',
        type: 'delete',
        activityId: old,
        success: true,
        status: 204,
        errorCode: null,
        detail: null,
      },
    ]);
    expect(await body(fresh)).toBe('one, edited');
    expect(await body(res.body.operations[1].activityId)).toBe('two');
    expect(await body(old)).toBeUndefined();
    const created = (await eventsOf(world, 'activity.created')).map((e: any) => e.summary.activity_id);
    expect(created).toEqual(expect.arrayContaining([fresh, res.body.operations[1].activityId]));
  });
});

describe('a batch that fails', () => {
  it('leaves nothing behind and reports the failure last', async () => {
    const before = await count();
    const events = (await eventsOf(world, 'activity.created')).length;
    const res = await run(t.bea, {
      operations: [
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.modeling, activityType: 'comment', body: 'kept?' },
        },
        {
          type: 'create',
          data: { entityType: 'task', entityId: '0'.repeat(32), activityType: 'comment', body: 'no' },
        },
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.modeling, activityType: 'comment', body: 'never' },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.operations).toHaveLength(2);
    expect(res.body.operations[0].success).toBe(true);
    expect(res.body.operations[1]).toMatchObject({
      success: false,
      status: 404,
      errorCode: 'not-found',
      activityId: null,
    });
    expect(await count()).toBe(before);
    expect((await eventsOf(world, 'activity.created')).length).toBe(events);
  });

  it('rolls back when a write fails inside the transaction (a taken id)', async () => {
    const taken = await commentOk(world, t.bea, { type: 'task', id: ids.modeling }, 'taken');
    const before = await count();
    const res = await run(t.bea, {
      operations: [
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.modeling, activityType: 'comment', body: 'x' },
        },
        { type: 'update', activityId: taken, data: { body: 'changed' } },
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.modeling, activityType: 'comment', body: 'x', id: taken },
        },
      ],
    });
    expect(res.body.success).toBe(false);
    expect(res.body.operations.map((o: any) => o.status)).toEqual([201, 204, 409]);
    expect(await count()).toBe(before);
    expect(await body(taken)).toBe('taken');
  });

  it('rolls back file links too, and checks files before writing', async () => {
    const file = await upload(world, t.bea, 'batch.txt');
    const res = await run(t.bea, {
      operations: [
        {
          type: 'create',
          data: {
            entityType: 'task',
            entityId: ids.modeling,
            activityType: 'comment',
            body: 'f',
            files: [file],
          },
        },
        { type: 'delete', activityId: '0'.repeat(32) },
      ],
    });
    expect(res.body.operations.map((o: any) => o.status)).toEqual([201, 404]);
    expect((await fileInfo(world, file)).body.activityId).toBeNull();
    const unknown = await run(t.bea, {
      operations: [
        {
          type: 'create',
          data: {
            entityType: 'task',
            entityId: ids.modeling,
            activityType: 'comment',
            body: 'f',
            files: ['1'.repeat(32)],
          },
        },
      ],
    });
    expect(unknown.body.operations[0]).toMatchObject({ status: 422, success: false });
    expect(unknown.body.operations[0].detail).toContain('body.operations.0.data.files.0');
  });

  it('keeps what succeeded with canFail', async () => {
    const before = await count();
    const res = await run(t.bea, {
      canFail: true,
      operations: [
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.modeling, activityType: 'comment', body: 'a' },
        },
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.modeling, activityType: 'status.change', body: 'b' },
        },
        { type: 'delete', activityId: '0'.repeat(32) },
        { type: 'update', data: { body: 'no id' } },
        {
          type: 'create',
          data: {
            entityType: 'task',
            entityId: ids.modeling,
            activityType: 'comment',
            body: 'x'.repeat(2001),
          },
        },
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.modeling, activityType: 'comment', body: 'c' },
        },
      ],
    });
    expect(res.body.success).toBe(false);
    expect(res.body.operations.map((o: any) => o.status)).toEqual([201, 403, 404, 400, 422, 201]);
    expect(res.body.operations[4].detail).toContain('body.operations.4.data.body');
    // Two comments, and bea started watching with the first (she already did, from earlier batches).
    expect(await count()).toBe(before + 2);
  });

  it('applies the same permission rules as the single routes', async () => {
    const others = await commentOk(world, t.artie, { type: 'task', id: ids.modeling }, 'artie wrote this');
    const res = await run(t.bea, {
      canFail: true,
      operations: [
        { type: 'update', activityId: others, data: { body: 'bea rewrote it' } },
        { type: 'delete', activityId: others },
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.animation, activityType: 'comment', body: 'ok' },
        },
      ],
    });
    expect(res.body.operations.map((o: any) => o.status)).toEqual([403, 403, 201]);
    const fred = await run(t.fred, {
      operations: [
        {
          type: 'create',
          data: { entityType: 'task', entityId: ids.animation, activityType: 'comment', body: 'x' },
        },
      ],
    });
    expect(fred.body.operations[0].status).toBe(404);
    const service = await core.request('POST', URL, {
      apiKey: SERVICE_KEY,
      body: {
        operations: [
          {
            type: 'create',
            data: {
              entityType: 'task',
              entityId: ids.modeling,
              activityType: 'status.change',
              body: 'by a service',
            },
          },
          { type: 'delete', activityId: others },
        ],
      },
    });
    expect(service.body.operations.map((o: any) => o.status)).toEqual([201, 204]);
  });

  it('answers 422 for a malformed request, 403 and 404 for the project, 401 without login', async () => {
    expect((await run(t.bea, { operations: [{ type: 'rename' }] })).status).toBe(422);
    expect((await run(t.bea, { operations: 'all' })).status).toBe(422);
    expect((await run(t.olga, { operations: [] })).status).toBe(403);
    expect((await run(t.boss, { operations: [] }, 'nowhere')).status).toBe(404);
    expect((await run('', { operations: [] })).status).toBe(401);
    const empty = await run(t.bea, { operations: [] });
    expect(empty.body).toEqual({ operations: [], success: true });
  });

  it('echoes an operation id of any length, as AYON does', async () => {
    const id = 'op-'.repeat(100);
    const res = await run(t.bea, {
      canFail: true,
      operations: [{ id, type: 'delete', activityId: '0'.repeat(32) }],
    });
    expect(res.body.operations[0]).toMatchObject({ id, status: 404 });
  });
});
