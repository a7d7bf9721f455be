import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serverProcessGroup, type ServerProcessGroup } from '@pipewright/core/testing';
import { connect, type TestClient } from './client.js';

// Two real server processes (`npm start`'s entry point) on one PostgreSQL database and one Redis: an event posted
// to one process reaches a websocket client of the other, and enroll workers on the two never share a job. Only in the PostgreSQL pass (see jest.config.js).
// Uses REDIS_URL when set, otherwise starts a private redis-server from PATH.

const PASSWORD = 'a strong password';

describe('live events across two server processes', () => {
  let group: ServerProcessGroup | undefined;
  /** host:port of each process. */
  let bases: string[] = [];
  let client: TestClient | undefined;

  beforeAll(async () => {
    if (!process.env.DATABASE_URL)
      throw new Error(
        'multiprocess.pg.test.ts needs DATABASE_URL (a PostgreSQL server both processes share)',
      );
    group = await serverProcessGroup(2);
    bases = group.bases.map((base) => base.replace('http://', ''));
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await group?.close();
  }, 30_000);

  it('forwards an event posted to process A to a websocket client of process B within 2 s, without payload', async () => {
    const [a, b] = bases;
    const init = await fetch(`http://${a}/api/onboarding/initialize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ adminName: 'admin', adminPassword: PASSWORD }),
    });
    expect(init.status).toBe(200);
    const login = await fetch(`http://${a}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'admin', password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };

    // The session was opened on A; B finds it in the shared database.
    client = await connect(`ws://${b}/ws`);
    client.send({ topic: 'auth', token, subscribe: ['*'] });
    await client.next((m) => m.topic === 'server.started');

    const dispatched = Date.now();
    const posted = await fetch(`http://${a}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        topic: 'render.finished',
        project: 'demo',
        summary: { frames: 240 },
        payload: { secret: 'x' },
      }),
    });
    expect(posted.status).toBe(200);
    const { id } = (await posted.json()) as { id: string };

    const message = await client.next((m) => m.id === id, 2000);
    expect(Date.now() - dispatched).toBeLessThan(2000);
    expect(message).toMatchObject({
      topic: 'render.finished',
      project: 'demo',
      user: 'admin',
      summary: { frames: 240 },
    });
    expect(message).not.toHaveProperty('payload');
    expect(JSON.stringify(client.messages)).not.toContain('secret');
  }, 30_000);

  it('gives each source event to exactly one of two enroll workers on different processes', async () => {
    const [a, b] = bases;
    const call = async (
      base: string,
      method: string,
      path: string,
      auth: Record<string, string>,
      body?: unknown,
    ) => {
      const res = await fetch(`http://${base}${path}`, {
        method,
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
    };
    const login = await call(a, 'POST', '/api/auth/login', {}, { name: 'admin', password: PASSWORD });
    const admin = { authorization: `Bearer ${login.body.token}` };
    expect((await call(a, 'PUT', '/api/users/farm', admin, { data: { isService: true } })).status).toBe(204);
    const key = await call(a, 'POST', '/api/users/farm/apikeys', admin, { label: 'workers' });
    const service = { 'x-api-key': key.body.key as string };

    const sources: string[] = [];
    for (let i = 0; i < 30; i++)
      sources.push(
        (await call(a, 'POST', '/api/events', admin, { topic: 'publish.done', summary: { i } })).body.id,
      );

    // Both workers hold their first job at the same time before going on, so the test does not depend on
    // which process warms up first: while one job is held, the other worker must be given a different one.
    let firstHeld!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => {
      let held = 0;
      firstHeld = () => ++held === 2 && resolve();
    });
    const timeout = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Each worker takes a job, finishes it, and asks again until none is left.
    const worker = async (base: string, sender: string) => {
      const taken: string[] = [];
      for (;;) {
        const job = await call(base, 'POST', '/api/enroll', service, {
          sourceTopic: 'publish.*',
          targetTopic: 'review.make',
          sender,
        });
        if (job.status === 204) return taken;
        expect(job.status).toBe(200);
        taken.push(job.body.dependsOn);
        if (taken.length === 1) {
          firstHeld();
          await Promise.race([bothHoldOne, timeout(20_000)]);
        }
        // Work on it a moment, as a real worker does, so the other worker asks while this job is held.
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(
          (await call(base, 'PATCH', `/api/events/${job.body.id}`, service, { status: 'finished' })).status,
        ).toBe(204);
      }
    };
    const [onA, onB] = await Promise.all([worker(a, 'worker-a'), worker(b, 'worker-b')]);
    expect([...onA, ...onB].sort()).toEqual([...sources].sort());
    expect(onA.length).toBeGreaterThan(0);
    expect(onB.length).toBeGreaterThan(0);
  }, 60_000);
});
