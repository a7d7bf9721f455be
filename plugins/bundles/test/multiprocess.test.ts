import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type PipewrightServer } from '@pipewright/core';
import type { AddonDefinition } from '@pipewright/sdk';
import { testRedis, type TestCore } from '@pipewright/core/testing';
import { COMPLETE, FIXTURE_ADDONS, bootWithLogins, cracked, probe, probeChild, witness } from './fixtures.js';

// Two server processes (here: two cores) on one database and one Redis: a bundle change made through one switches
// addons in the other too, because the bundle.* event tells it to apply the production bundle again.
// Uses REDIS_URL when set, otherwise starts a private redis-server from PATH.

let redis: Awaited<ReturnType<typeof testRedis>> | undefined;
let first: TestCore;
let second: PipewrightServer;
let admin: string;

beforeAll(async () => {
  redis = await testRedis();
  ({ core: first, admin } = await bootWithLogins({ redisUrl: redis.url }));
  second = await createServer({
    config: first.config,
    // The first core owns the database; the second must not close it.
    database: { ...first.database, close: async () => undefined },
    only: FIXTURE_ADDONS,
    extraAddons: ([probe, probeChild, witness] as AddonDefinition[])
      .map((definition) => ({
        definition,
        directory: first.config.dataDir,
        internal: false,
      }))
      .concat([cracked]),
  });
});

afterAll(async () => {
  await second?.close();
  await first?.close();
  redis?.stop();
});

/** What the second process answers for the probe's route, once it has settled on the expected status. */
async function probeOnSecond(expected: number): Promise<number> {
  let status = 0;
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await second.app.inject({
      method: 'GET',
      url: '/api/addons/probe/1.0.0/hello',
      headers: { authorization: `Bearer ${admin}` },
    });
    status = res.statusCode;
    if (status === expected) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return status;
}

describe('bundles across server processes', () => {
  it('switches an addon off and on in the other process as well', async () => {
    expect(await probeOnSecond(200)).toBe(200);
    const created = await first.request('POST', '/api/bundles', {
      token: admin,
      body: { name: 'shared', isProduction: true, addons: { probe: null }, ...COMPLETE },
    });
    expect(created.status).toBe(201);
    expect(await probeOnSecond(404)).toBe(404);

    const patched = await first.request('PATCH', '/api/bundles/shared', {
      token: admin,
      body: { addons: { probe: '1.0.0' } },
    });
    expect(patched.status).toBe(204);
    expect(await probeOnSecond(200)).toBe(200);
  });
});
