import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import type { EventInput, EventMessage } from '@pipewright/sdk';
import { MIN_IDLE_CONNECTIONS, shouldShed, targetHash } from '../src/enroll.js';
import { SERVICE_KEY, boot, type Setup } from './helpers.js';

let s: Setup;
beforeAll(async () => {
  s = await boot();
});
afterAll(() => s.core.close());

const enroll = (
  body: Record<string, unknown>,
  auth: { token?: string; apiKey?: string } = { apiKey: SERVICE_KEY },
) => s.core.request('POST', '/api/enroll', { ...auth, body });
const patch = (id: string, body: Record<string, unknown>) =>
  s.core.request('PATCH', `/api/events/${id}`, { apiKey: SERVICE_KEY, body });
const sources = async (topic: string, n: number, extra: Partial<EventInput> = {}) =>
  (
    await s.core.events.emitMany(
      Array.from({ length: n }, (_, i) => ({ topic, description: `source ${i}`, ...extra })),
    )
  ).map((r) => r.id);
const targetsOf = (topic: string) =>
  s.core.db.selectFrom('public.events').selectAll().where('topic', '=', topic).execute();

describe('the load-shedding decision', () => {
  it('sheds only on PostgreSQL with fewer than 3 idle connections', () => {
    expect(MIN_IDLE_CONNECTIONS).toBe(3);
    expect(shouldShed('postgres', 2)).toBe(true);
    expect(shouldShed('postgres', 0)).toBe(true);
    expect(shouldShed('postgres', 3)).toBe(false);
    expect(shouldShed('pglite', 1)).toBe(false);
    expect(shouldShed('pglite', 0)).toBe(false);
  });
});

describe('enroll', () => {
  it('answers 204 when there is no job, and creates a pending target that subscribers hear', async () => {
    const none = await enroll({ sourceTopic: 'nothing.here', targetTopic: 'nothing.done', sender: 'w1' });
    expect(none.status).toBe(204);
    const [source] = await sources('first.source', 1, { project: 'demo', user: 'alice' });
    const heard: EventMessage[] = [];
    const stop = s.core.events.subscribe('first.target', (m) => void heard.push(m));
    const res = await enroll({
      sourceTopic: 'first.source',
      targetTopic: 'first.target',
      sender: 'w1',
      description: 'convert it',
    });
    await new Promise((r) => setTimeout(r, 50));
    stop();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      dependsOn: source,
      hash: targetHash('first.target', source),
      status: 'pending',
    });
    const [target] = await targetsOf('first.target');
    expect(target).toMatchObject({
      id: res.body.id,
      sender: 'w1',
      project_name: 'demo',
      user_name: 'alice',
      description: 'convert it',
      retries: 0,
    });
    expect(heard).toEqual([
      expect.objectContaining({ id: res.body.id, status: 'pending', dependsOn: source }),
    ]);
    // The same worker asking again resumes its open job; once finished, the source is done.
    expect(
      (await enroll({ sourceTopic: 'first.source', targetTopic: 'first.target', sender: 'w1' })).body.id,
    ).toBe(res.body.id);
    expect(
      (await enroll({ sourceTopic: 'first.source', targetTopic: 'first.target', sender: 'w2' })).status,
    ).toBe(204);
    await patch(res.body.id, { status: 'finished' });
    expect(
      (await enroll({ sourceTopic: 'first.source', targetTopic: 'first.target', sender: 'w1' })).status,
    ).toBe(204);
  });

  it('enrolls each of 20 sources exactly once across 4 concurrent workers', async () => {
    const ids = await sources('race.source', 20);
    const taken: { worker: string; id: string; dependsOn: string }[] = [];
    const worker = async (name: string) => {
      for (;;) {
        const res = await enroll({ sourceTopic: 'race.source', targetTopic: 'race.target', sender: name });
        if (res.status === 503) {
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        if (res.status === 204) return;
        expect(res.status).toBe(200);
        taken.push({ worker: name, id: res.body.id, dependsOn: res.body.dependsOn });
        expect((await patch(res.body.id, { status: 'finished' })).status).toBe(204);
      }
    };
    await Promise.all(['w1', 'w2', 'w3', 'w4'].map(worker));
    expect(taken).toHaveLength(20);
    expect(new Set(taken.map((t) => t.id)).size).toBe(20);
    expect(taken.map((t) => t.dependsOn).sort()).toEqual([...ids].sort());
    const targets = await targetsOf('race.target');
    expect(targets).toHaveLength(20);
    expect(targets.every((t) => t.status === 'finished')).toBe(true);
  });

  it('never hands one job to two workers enrolling at once without finishing', async () => {
    const ids = await sources('burst.source', 20);
    const calls = Array.from({ length: 40 }, (_, i) =>
      enroll({ sourceTopic: 'burst.source', targetTopic: 'burst.target', sender: `b${i}` }),
    );
    const results = await Promise.all(calls);
    const jobs = results.filter((r) => r.status === 200).map((r) => r.body);
    expect(results.every((r) => [200, 204, 503].includes(r.status))).toBe(true);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
    expect(new Set(jobs.map((j) => j.dependsOn)).size).toBe(jobs.length);
    const targets = await targetsOf('burst.target');
    expect(targets).toHaveLength(jobs.length);
    expect(new Set(targets.map((t) => t.depends_on)).size).toBe(targets.length);
    if (s.core.database.kind === 'pglite') expect(jobs).toHaveLength(20);
    expect(jobs.every((j) => ids.includes(j.dependsOn))).toBe(true);
  });

  it('retries a failed job up to maxRetries times, then leaves its source alone', async () => {
    await sources('retry.source', 1);
    const body = { sourceTopic: 'retry.source', targetTopic: 'retry.target', sender: 'w1', maxRetries: 2 };
    const first = await enroll(body);
    const seen: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await enroll(body);
      expect(res.body).toMatchObject({ id: first.body.id, status: 'pending' });
      seen.push((await targetsOf('retry.target'))[0].retries);
      await patch(first.body.id, { status: 'in_progress' });
      await patch(first.body.id, { status: 'failed' });
    }
    expect(seen).toEqual([0, 1, 2]);
    expect((await enroll(body)).status).toBe(204);
    // Another worker takes over a failed job while retries remain.
    await sources('takeover.source', 1);
    const job = await enroll({
      sourceTopic: 'takeover.source',
      targetTopic: 'takeover.target',
      sender: 'w1',
    });
    await patch(job.body.id, { status: 'failed' });
    const taken = await enroll({
      sourceTopic: 'takeover.source',
      targetTopic: 'takeover.target',
      sender: 'w2',
    });
    expect(taken.body.id).toBe(job.body.id);
    expect((await targetsOf('takeover.target'))[0]).toMatchObject({
      sender: 'w2',
      retries: 1,
      status: 'pending',
    });
  });

  it('hands out restarted jobs again and skips aborted ones', async () => {
    const [a, b] = await sources('restart.source', 2);
    const body = { sourceTopic: 'restart.source', targetTopic: 'restart.target', sender: 'w1' };
    const ja = await enroll(body);
    await patch(ja.body.id, { status: 'finished' });
    const jb = await enroll(body);
    expect(jb.body.dependsOn).toBe(b);
    await patch(jb.body.id, { status: 'aborted' });
    expect((await enroll(body)).status).toBe(204);
    await patch(ja.body.id, { status: 'failed' });
    const restart = await s.core.request('POST', '/api/eventops', {
      apiKey: SERVICE_KEY,
      body: { type: 'restart', filter: { conditions: [{ key: 'topic', value: 'restart.target' }] } },
    });
    expect(restart.status).toBe(204);
    const again = await enroll({ ...body, sender: 'w9' });
    expect(again.body).toMatchObject({ dependsOn: a, status: 'pending' });
    const next = await enroll({ ...body, sender: 'w9' });
    expect(next.body).toMatchObject({ dependsOn: a });
    const after = await enroll({ ...body, sender: 'w8' });
    expect(after.body).toMatchObject({ dependsOn: b, status: 'pending' });
  });

  it('blocks a sequential worker while another sender holds the oldest job', async () => {
    const [first, second] = await sources('seq.source', 2);
    const body = { sourceTopic: 'seq.source', targetTopic: 'seq.target', sequential: true };
    const a = await enroll({ ...body, sender: 'wa' });
    expect(a.body.dependsOn).toBe(first);
    expect((await enroll({ ...body, sender: 'wb' })).status).toBe(204);
    // Not sequential: the other worker simply takes the next source.
    expect((await enroll({ ...body, sequential: false, sender: 'wc' })).body.dependsOn).toBe(second);
    await patch(a.body.id, { status: 'finished' });
    const b = await enroll({ ...body, sender: 'wb' });
    expect(b.status).toBe(204);
  });

  it('ignores sources older than ignoreOlderThan days unless it is 0', async () => {
    const [old] = await sources('age.source', 1);
    await sql`UPDATE public.events SET created_at = now() - interval '5 days', updated_at = now() - interval '5 days' WHERE id = ${old}`.execute(
      s.core.db,
    );
    const body = { sourceTopic: 'age.source', targetTopic: 'age.target', sender: 'w1' };
    expect((await enroll(body)).status).toBe(204);
    expect((await enroll({ ...body, ignoreOlderThan: 4 })).status).toBe(204);
    expect((await enroll({ ...body, ignoreOlderThan: 6 })).body.dependsOn).toBe(old);
    await s.core.db.deleteFrom('public.events').where('topic', '=', 'age.target').execute();
    // As in AYON, a negative number of days is a cutoff in the future, which no source meets.
    const [fresh] = await sources('age.fresh', 1);
    const freshBody = { sourceTopic: 'age.fresh', targetTopic: 'age.target', sender: 'w1' };
    expect((await enroll({ ...freshBody, ignoreOlderThan: -1 })).status).toBe(204);
    expect((await enroll(freshBody)).body.dependsOn).toBe(fresh);
    expect((await enroll({ ...body, ignoreOlderThan: 0 })).body.dependsOn).toBe(old);
  });

  it('ignores sources of the given sender types', async () => {
    const [fromTray] = await sources('st.source', 1, { senderType: 'tray' });
    const body = { sourceTopic: 'st.source', targetTopic: 'st.target', sender: 'w1' };
    expect((await enroll({ ...body, ignoreSenderTypes: ['tray', 'other'] })).status).toBe(204);
    expect((await enroll({ ...body, ignoreSenderTypes: ['other'] })).body.dependsOn).toBe(fromTray);
  });

  it("writes the job's sender type from the body, else the x-sender-type header; sender may be left out", async () => {
    await sources('sty.source', 3);
    const job = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const res = await s.core.request('POST', '/api/enroll', {
        apiKey: SERVICE_KEY,
        headers,
        body: { sourceTopic: 'sty.source', targetTopic: 'sty.target', ...body },
      });
      expect(res.status).toBe(200);
      return s.core.db
        .selectFrom('public.events')
        .select(['sender', 'sender_type'])
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
    };
    expect(await job({ sender: 'w1', senderType: 'worker' }, { 'x-sender-type': 'tray' })).toEqual({
      sender: 'w1',
      sender_type: 'worker',
    });
    expect(await job({ sender: 'w2', sender_type: null }, { 'x-sender-type': 'tray' })).toEqual({
      sender: 'w2',
      sender_type: 'tray',
    });
    // Neither: no sender, and the request's own sender type ('api' when no header names one).
    expect(await job({})).toEqual({ sender: null, sender_type: 'api' });
  });

  it('matches sources by wildcard, by a list of topics, and by a filter', async () => {
    const [a] = await sources('wild.a.done', 1);
    const [b] = await sources('wild.b.done', 1);
    await sources('wild.b.started', 1);
    await sources('wildXa.done', 1);
    const taken: string[] = [];
    for (;;) {
      const res = await enroll({ sourceTopic: 'wild.*.done', targetTopic: 'wild.target', sender: 'w1' });
      if (res.status === 204) break;
      taken.push(res.body.dependsOn);
      await patch(res.body.id, { status: 'finished' });
    }
    expect(taken).toEqual([a, b]);

    const [one] = await sources('list.one', 1);
    await sources('list.three', 1);
    const [two] = await sources('list.two', 1);
    const listed: string[] = [];
    for (;;) {
      const res = await enroll({
        sourceTopic: ['list.one', 'list.two'],
        targetTopic: 'list.target',
        sender: 'w1',
      });
      if (res.status === 204) break;
      listed.push(res.body.dependsOn);
      await patch(res.body.id, { status: 'finished' });
    }
    expect(listed).toEqual([one, two]);

    await sources('filt.source', 1, { project: 'p1' });
    const [p2] = await sources('filt.source', 1, { project: 'p2', summary: { kind: 'plate' } });
    const filter = {
      conditions: [
        { key: 'project', value: 'p2' },
        { key: 'summary/kind', value: 'plate' },
      ],
    };
    expect(
      (await enroll({ sourceTopic: 'filt.source', targetTopic: 'filt.target', sender: 'w1', filter })).body
        .dependsOn,
    ).toBe(p2);
  });

  it('is for service users and admins only', async () => {
    const body = { sourceTopic: 'perm.source', targetTopic: 'perm.target', sender: 'w1' };
    expect((await enroll(body, { token: s.tokens.alice })).status).toBe(403);
    expect((await enroll(body, { token: s.tokens.boss })).status).toBe(403);
    expect((await enroll(body, {})).status).toBe(401);
    expect((await enroll(body, { token: s.tokens.root })).status).toBe(204);
  });

  it('answers bad requests with 422', async () => {
    const good = { sourceTopic: 'bad.source', targetTopic: 'bad.target', sender: 'w1' };
    for (const body of [
      { ...good, targetTopic: 'bad.*' },
      { ...good, sourceTopic: '*bad' },
      { ...good, sourceTopic: ['bad.*'] },
      { ...good, sourceTopic: [] },
      { ...good, ignoreOlderThan: 1.5 },
      { ...good, sender: 42 },
      { ...good, filter: { conditions: [{ key: 'nope', value: 1 }] } },
      { ...good, sequential: 'yes please' },
    ]) {
      const res = await enroll(body);
      expect([res.status, body]).toEqual([422, body]);
    }
  });
});
