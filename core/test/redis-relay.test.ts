import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventMessage } from '@pipewright/sdk';
import { createServer, type PipewrightServer } from '../src/server.js';
import { bootTestCore, testRedis, type TestCore } from '../src/testing.js';

// Two server processes (here: two cores) on one database and one Redis: an event emitted by one reaches the
// subscribers of the other exactly once, and each core hears its own events exactly once too.
// Uses REDIS_URL when set (CI's second pass), otherwise starts a private redis-server from PATH.

describe('events across server processes', () => {
  let redis: Awaited<ReturnType<typeof testRedis>> | undefined;
  let first: TestCore;
  let second: PipewrightServer;

  beforeAll(async () => {
    redis = await testRedis();
    const redisUrl = redis.url;
    first = await bootTestCore({ addons: [], config: { redisUrl } });
    second = await createServer({
      config: first.config,
      database: { ...first.database, close: async () => undefined },
      only: [],
    });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    redis?.stop();
  });

  it('delivers an event to both processes once each, without its payload, saying which one it came from', async () => {
    const heardHere: EventMessage[] = [];
    const heardThere: EventMessage[] = [];
    const remote: boolean[] = [];
    first.events.subscribe(
      'render.*',
      (m, fromElsewhere) => void (heardHere.push(m), remote.push(fromElsewhere)),
    );
    second.events.subscribe(
      'render.*',
      (m, fromElsewhere) => void (heardThere.push(m), remote.push(fromElsewhere)),
    );

    const { id } = await first.events.emit({
      topic: 'render.finished',
      project: 'demo',
      summary: { frames: 240 },
      payload: { secret: 'x' },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(heardHere.map((m) => m.id)).toEqual([id]);
    expect(heardThere.map((m) => m.id)).toEqual([id]);
    expect(heardThere[0]).toMatchObject({
      topic: 'render.finished',
      project: 'demo',
      summary: { frames: 240 },
    });
    expect(heardThere[0]).not.toHaveProperty('payload');
    expect(remote.sort()).toEqual([false, true]);
  });
});
