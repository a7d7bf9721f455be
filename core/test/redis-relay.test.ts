import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EventMessage } from '@pipewright/sdk';
import { createServer, type PipewrightServer } from '../src/server.js';
import { bootTestCore, type TestCore } from '../src/testing.js';

// Two server processes (here: two cores) on one database and one Redis: an event emitted by one reaches the
// subscribers of the other exactly once, and each core hears its own events exactly once too.
// Uses REDIS_URL when set (CI's second pass), otherwise starts a private redis-server from PATH.

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

describe('events across server processes', () => {
  let redis: ChildProcess | null = null;
  let first: TestCore;
  let second: PipewrightServer;

  beforeAll(async () => {
    let redisUrl = process.env.REDIS_URL;
    if (!redisUrl) {
      const port = await freePort();
      redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'pipe' });
      await new Promise<void>((ready, fail) => {
        redis!.on('error', fail);
        redis!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Ready to accept') && ready());
      });
      redisUrl = `redis://127.0.0.1:${port}`;
    }
    first = await bootTestCore({ addons: [], config: { redisUrl } });
    second = await createServer({ config: first.config, database: { ...first.database, close: async () => undefined }, only: [] });
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    redis?.kill();
  });

  it('delivers an event to both processes once each, without its payload', async () => {
    const heardHere: EventMessage[] = [];
    const heardThere: EventMessage[] = [];
    first.events.subscribe('render.*', (m) => void heardHere.push(m));
    second.events.subscribe('render.*', (m) => void heardThere.push(m));

    const { id } = await first.events.emit({ topic: 'render.finished', project: 'demo', summary: { frames: 240 }, payload: { secret: 'x' } });
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(heardHere.map((m) => m.id)).toEqual([id]);
    expect(heardThere.map((m) => m.id)).toEqual([id]);
    expect(heardThere[0]).toMatchObject({ topic: 'render.finished', project: 'demo', summary: { frames: 240 } });
    expect(heardThere[0]).not.toHaveProperty('payload');
  });
});
