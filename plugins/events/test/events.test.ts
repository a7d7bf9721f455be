import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventMessage } from '@pipewright/sdk';
import { SERVICE_KEY, boot, type Setup } from './helpers.js';

let s: Setup;
beforeAll(async () => {
  s = await boot();
});
afterAll(() => s.core.close());

const dispatch = (token: string, body: Record<string, unknown>) =>
  s.core.request('POST', '/api/events', { token, body });
const row = (id: string) =>
  s.core.db.selectFrom('public.events').selectAll().where('id', '=', id).executeTakeFirst();
/** Collect what subscribers of a topic pattern hear until stop() is called. */
function listen(pattern: string) {
  const heard: EventMessage[] = [];
  const stop = s.core.events.subscribe(pattern, (m) => void heard.push(m));
  return { heard, stop };
}
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('dispatching', () => {
  it('stores a finished event with the caller as user and the x-sender as sender', async () => {
    const res = await s.core.request('POST', '/api/events', {
      token: s.tokens.boss,
      headers: { 'x-sender': 'tray-1', 'x-sender-type': 'tray' },
      body: { topic: 'test.dispatch', description: 'hello', summary: { a: 1 }, payload: { secret: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const stored = await row(res.body.id);
    // No hash given: none is stored (the id serves), and readers answer the id as the hash.
    expect(stored).toMatchObject({
      topic: 'test.dispatch',
      status: 'finished',
      user_name: 'boss',
      sender: 'tray-1',
      sender_type: 'tray',
      hash: null,
      retries: 0,
    });
    const got = await s.core.request('GET', `/api/events/${res.body.id}`, { token: s.tokens.boss });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id: res.body.id,
      hash: res.body.id,
      topic: 'test.dispatch',
      payload: { secret: true },
      summary: { a: 1 },
      user: 'boss',
      status: 'finished',
    });
  });

  it('creates a pending event when finished is false', async () => {
    const res = await dispatch(s.tokens.boss, { topic: 'test.job', finished: false, user: 'alice' });
    expect(await row(res.body.id)).toMatchObject({ status: 'pending', user_name: 'alice' });
  });

  it('refuses a duplicate hash with 409 unless reuse is set, which replaces the row in place', async () => {
    const first = await dispatch(s.tokens.boss, {
      topic: 'test.hashed',
      hash: 'unique-1',
      description: 'one',
    });
    expect(first.status).toBe(200);
    const again = await dispatch(s.tokens.boss, { topic: 'test.hashed', hash: 'unique-1' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 409, detail: expect.stringContaining('unique-1') });
    const { heard, stop } = listen('test.hashed');
    const reused = await dispatch(s.tokens.boss, {
      topic: 'test.hashed',
      hash: 'unique-1',
      reuse: true,
      description: 'two',
      finished: false,
    });
    stop();
    expect(reused.status).toBe(200);
    const rows = await s.core.db
      .selectFrom('public.events')
      .selectAll()
      .where('hash', '=', 'unique-1')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: reused.body.id, description: 'two', status: 'pending' });
    expect(heard.map((m) => m.description)).toEqual(['two']);
  });

  it('takes any hash and project an index holds, the empty one too, and free senders and descriptions', async () => {
    // 500 characters of four bytes each: the longest an index key takes from a request.
    const long = '\u{1F600}'.repeat(500);
    for (const hash of [long, '']) {
      const res = await dispatch(s.tokens.boss, {
        topic: 'test.anyhash',
        hash,
        project: long,
        sender: 'x'.repeat(10_000),
        description: 'd'.repeat(20_000),
      });
      expect(res.status).toBe(200);
      expect(await row(res.body.id)).toMatchObject({ hash, project_name: long });
      expect((await dispatch(s.tokens.boss, { topic: 'test.anyhash', hash })).status).toBe(409);
      expect((await dispatch(s.tokens.boss, { topic: 'test.anyhash', hash, reuse: true })).body).toEqual(
        res.body,
      );
    }
    expect((await dispatch(s.tokens.boss, { topic: 'test.anyhash', hash: `${long}x` })).status).toBe(422);
  });

  it("treats an event's id as its hash when it was given none", async () => {
    const first = await dispatch(s.tokens.boss, { topic: 'test.unhashed', description: 'one' });
    const again = await dispatch(s.tokens.boss, { topic: 'test.unhashed', hash: first.body.id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 409, detail: expect.stringContaining(first.body.id) });
    // A hash of another form is free, and so is an id that no event has.
    expect(
      (await dispatch(s.tokens.boss, { topic: 'test.unhashed', hash: first.body.id.toUpperCase() })).status,
    ).toBe(200);
    expect((await dispatch(s.tokens.boss, { topic: 'test.unhashed', hash: 'f'.repeat(32) })).status).toBe(
      200,
    );
    // reuse replaces the event in place, which from then on holds the hash as its own.
    const reused = await dispatch(s.tokens.boss, {
      topic: 'test.unhashed',
      hash: first.body.id,
      reuse: true,
      description: 'two',
    });
    expect(reused.body).toEqual({ id: first.body.id });
    expect(await row(first.body.id)).toMatchObject({ hash: first.body.id, description: 'two' });
    const count = await s.core.db
      .selectFrom('public.events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('topic', '=', 'test.unhashed')
      .executeTakeFirstOrThrow();
    expect(count.n).toBe(3);
  });

  it('only broadcasts when store is false', async () => {
    const { heard, stop } = listen('test.volatile');
    const res = await dispatch(s.tokens.boss, { topic: 'test.volatile', summary: { x: 1 }, store: false });
    await settle();
    stop();
    expect(res.status).toBe(200);
    expect(await row(res.body.id)).toBeUndefined();
    expect(heard).toEqual([expect.objectContaining({ id: res.body.id, store: false, summary: { x: 1 } })]);
  });

  it('lets managers and service users dispatch, not artists', async () => {
    expect((await dispatch(s.tokens.alice, { topic: 'test.nope' })).status).toBe(403);
    expect((await s.core.request('POST', '/api/events', { body: { topic: 'test.nope' } })).status).toBe(401);
    expect(
      (await s.core.request('POST', '/api/events', { apiKey: SERVICE_KEY, body: { topic: 'test.service' } }))
        .status,
    ).toBe(200);
  });

  it('answers bad input with 422', async () => {
    for (const body of [
      { topic: 'ab' },
      { topic: '1abc' },
      { topic: 'test.wild*' },
      { topic: 'test.ok', dependsOn: 'xyz' },
      { topic: 'test.ok', description: 42 },
    ]) {
      const res = await dispatch(s.tokens.boss, body);
      expect([res.status, body]).toEqual([422, body]);
    }
    expect((await dispatch(s.tokens.boss, { topic: 'test.ok', dependsOn: 'a'.repeat(32) })).status).toBe(400);
  });
});

describe('reading, updating and deleting one event', () => {
  let aliceEvent: string;
  beforeAll(async () => {
    aliceEvent = (await dispatch(s.tokens.boss, { topic: 'test.owned', user: 'alice', finished: false })).body
      .id;
  });

  it('shows an event to its user and to managers only, 404 when missing', async () => {
    expect((await s.core.request('GET', `/api/events/${aliceEvent}`, { token: s.tokens.alice })).status).toBe(
      200,
    );
    expect((await s.core.request('GET', `/api/events/${aliceEvent}`, { token: s.tokens.bob })).status).toBe(
      403,
    );
    const missing = await s.core.request('GET', `/api/events/${'0'.repeat(32)}`, { token: s.tokens.boss });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, detail: expect.any(String) });
    expect((await s.core.request('GET', '/api/events/not-an-id', { token: s.tokens.boss })).status).toBe(422);
  });

  it('lets the owner patch, announces the change with progress, and refuses others', async () => {
    const { heard, stop } = listen('test.*');
    const res = await s.core.request('PATCH', `/api/events/${aliceEvent}`, {
      token: s.tokens.alice,
      body: {
        status: 'in_progress',
        progress: 40,
        description: 'working',
        summary: { step: 1 },
        sender: 'farm-7',
      },
    });
    await settle();
    stop();
    expect(res.status).toBe(204);
    expect(await row(aliceEvent)).toMatchObject({
      status: 'in_progress',
      description: 'working',
      summary: { step: 1 },
      sender: 'farm-7',
    });
    expect(heard).toEqual([
      expect.objectContaining({ id: aliceEvent, status: 'in_progress', progress: 40, sender: 'farm-7' }),
    ]);
    expect(
      (
        await s.core.request('PATCH', `/api/events/${aliceEvent}`, {
          token: s.tokens.bob,
          body: { status: 'failed' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await s.core.request('PATCH', `/api/events/${aliceEvent}`, {
          token: s.tokens.boss,
          body: { retries: 2, user: 'bob' },
        })
      ).status,
    ).toBe(204);
    expect(await row(aliceEvent)).toMatchObject({ retries: 2, user_name: 'bob' });
    // AYON's deprecated projectName moves the event too, and wins over project (snake_case as well).
    const move = (body: Record<string, unknown>) =>
      s.core.request('PATCH', `/api/events/${aliceEvent}`, { token: s.tokens.boss, body });
    expect((await move({ projectName: 'old_name', project: 'new_name' })).status).toBe(204);
    expect((await row(aliceEvent))?.project_name).toBe('old_name');
    expect((await move({ project_name: 'older' })).status).toBe(204);
    expect((await row(aliceEvent))?.project_name).toBe('older');
    expect((await move({ project: 'current' })).status).toBe(204);
    expect((await row(aliceEvent))?.project_name).toBe('current');
    expect(
      (
        await s.core.request('PATCH', `/api/events/${'0'.repeat(32)}`, {
          token: s.tokens.boss,
          body: { status: 'failed' },
        })
      ).status,
    ).toBe(404);
  });

  it('takes what AYON takes: a negative retry count, empty texts; an empty or null user keeps the owner', async () => {
    const patch = (body: Record<string, unknown>) =>
      s.core.request('PATCH', `/api/events/${aliceEvent}`, { token: s.tokens.boss, body });
    expect(
      (await patch({ retries: -2, sender: '', description: '', projectName: '', user: '' })).status,
    ).toBe(204);
    const before = await row(aliceEvent);
    expect(before).toMatchObject({ retries: -2, sender: '', description: '' });
    expect((await patch({ user: null })).status).toBe(204);
    expect((await row(aliceEvent))?.user_name).toBe(before?.user_name);
  });

  it('validates the patch', async () => {
    for (const body of [{ progress: 101 }, { progress: -1 }, { status: 'done' }, { description: ['x'] }]) {
      const res = await s.core.request('PATCH', `/api/events/${aliceEvent}`, { token: s.tokens.boss, body });
      expect([res.status, body]).toEqual([422, body]);
    }
  });

  it('lets only admins delete', async () => {
    expect(
      (await s.core.request('DELETE', `/api/events/${aliceEvent}`, { token: s.tokens.boss })).status,
    ).toBe(403);
    expect(
      (await s.core.request('DELETE', `/api/events/${aliceEvent}`, { token: s.tokens.root })).status,
    ).toBe(204);
    expect(await row(aliceEvent)).toBeUndefined();
    expect(
      (await s.core.request('DELETE', `/api/events/${aliceEvent}`, { token: s.tokens.root })).status,
    ).toBe(404);
  });
});

describe('event operations', () => {
  const ops = (token: string, body: Record<string, unknown>) =>
    s.core.request('POST', '/api/eventops', { token, body });
  const statusOf = async (ids: string[]) =>
    Promise.all(ids.map(async (id) => (await row(id))?.status ?? 'gone'));

  it('deletes by a nested filter, admins only', async () => {
    const ids: string[] = [];
    for (const [topic, project] of [
      ['ops.a', 'p1'],
      ['ops.a', 'p2'],
      ['ops.b', 'p1'],
      ['ops.c', 'p1'],
    ]) {
      ids.push((await dispatch(s.tokens.boss, { topic, project })).body.id);
    }
    const filter = {
      operator: 'and',
      conditions: [
        { key: 'project', value: 'p1' },
        {
          operator: 'or',
          conditions: [
            { key: 'topic', value: 'ops.a' },
            { key: 'topic', value: 'ops.b' },
          ],
        },
      ],
    };
    expect((await ops(s.tokens.boss, { type: 'delete', filter })).status).toBe(403);
    expect((await ops(s.tokens.root, { type: 'delete', filter })).status).toBe(204);
    expect(await statusOf(ids)).toEqual(['gone', 'finished', 'gone', 'finished']);
    expect((await ops(s.tokens.root, { type: 'delete', filter: { conditions: [] } })).status).toBe(422);
    const bad = await ops(s.tokens.root, {
      type: 'delete',
      filter: { conditions: [{ key: 'colour', value: 'red' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['body', 'filter', 'conditions', 0, 'key']);
    expect((await ops(s.tokens.root, { type: 'explode', filter })).status).toBe(422);
  });

  it('restarts failed and aborted events, aborts pending and running ones', async () => {
    const ids: string[] = [];
    for (const status of ['pending', 'in_progress', 'finished', 'failed', 'aborted']) {
      const id = (await dispatch(s.tokens.boss, { topic: 'ops.job', finished: false })).body.id;
      await s.core.db.updateTable('public.events').set({ status, retries: 3 }).where('id', '=', id).execute();
      ids.push(id);
    }
    const filter = { conditions: [{ key: 'topic', value: 'ops.job' }] };
    const { heard, stop } = listen('ops.job');
    expect((await ops(s.tokens.alice, { type: 'restart', filter })).status).toBe(403);
    expect((await ops(s.tokens.boss, { type: 'restart', filter })).status).toBe(204);
    await settle();
    expect(await statusOf(ids)).toEqual(['pending', 'in_progress', 'finished', 'restarted', 'restarted']);
    expect((await row(ids[3]))!.retries).toBe(0);
    expect(heard.map((m) => m.status)).toEqual(['restarted', 'restarted']);
    expect((await ops(s.tokens.boss, { type: 'abort', filter })).status).toBe(204);
    stop();
    expect(await statusOf(ids)).toEqual(['aborted', 'aborted', 'finished', 'restarted', 'restarted']);
  });
});
