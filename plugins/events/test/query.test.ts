import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// Events under the qtest.* topics, written in two batches with a known moment between them.
let core: TestCore;
let admin: string;
let manager: string;
let first: string;
let midpoint: string;
const ids: Record<string, string> = {};

const query = (body: Record<string, unknown>, token = admin) =>
  core.request('POST', '/api/query', { token, body });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Topics of the qtest events matching the extra conditions, oldest first. */
async function topics(conditions: unknown[], operator: 'and' | 'or' = 'and') {
  const res = await query({
    entity: 'event',
    filter: {
      conditions: [
        { key: 'topic', value: 'qtest.%', operator: 'like' },
        { conditions, operator },
      ],
    },
  });
  expect(res.status).toBe(200);
  return (res.body as { topic: string }[]).map((e) => e.topic).reverse();
}

beforeAll(async () => {
  core = await bootTestCore({ addons: ['events', 'users'] });
  admin = await seedUser(core, 'root', { isAdmin: true });
  manager = await seedUser(core, 'boss', { isManager: true });
  ids.alpha = (
    await core.events.emit({
      topic: 'qtest.alpha',
      project: 'demo',
      user: 'ann',
      sender: 'cli',
      senderType: 'api',
      summary: { tags: ['a', 'b'], size: 3 },
    })
  ).id;
  ids.beta = (
    await core.events.emit({
      topic: 'qtest.beta',
      project: 'demo',
      user: 'bob',
      dependsOn: ids.alpha,
      summary: { tags: ['b'], size: 5 },
    })
  ).id;
  await sleep(30);
  midpoint = new Date().toISOString();
  await sleep(30);
  ids.gamma = (
    await core.events.emit({
      topic: 'qtest.gamma',
      project: 'other',
      user: 'ann',
      description: 'Gamma ray',
      summary: { tags: [], size: 8 },
    })
  ).id;
  ids.delta = (
    await core.events.emit({
      topic: 'qtest.delta',
      user: 'cy',
      dependsOn: ids.gamma,
      status: 'failed',
      summary: { note: null },
    })
  ).id;
  first = ids.alpha;
});
afterAll(() => core.close());

describe('POST /api/query', () => {
  it('lists events newest first in the AYON event shape, with limit and offset', async () => {
    const res = await query({
      entity: 'event',
      filter: { conditions: [{ key: 'topic', value: 'qtest.%', operator: 'like' }] },
      limit: 2,
      offset: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.topic)).toEqual(['qtest.gamma', 'qtest.beta']);
    expect(res.body[1]).toEqual({
      id: ids.beta,
      // Emitted without a hash: its hash is its id.
      hash: ids.beta,
      topic: 'qtest.beta',
      project: 'demo',
      user: 'bob',
      sender: null,
      senderType: null,
      dependsOn: first,
      status: 'finished',
      retries: 0,
      description: '',
      summary: { tags: ['b'], size: 5 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // Without a filter every event qualifies; the default page is 100.
    expect((await query({ entity: 'event' })).body.length).toBeGreaterThanOrEqual(4);
  });

  it('compares with eq, ne and like', async () => {
    expect(await topics([{ key: 'project', value: 'demo' }])).toEqual(['qtest.alpha', 'qtest.beta']);
    expect(await topics([{ key: 'user', value: 'ann', operator: 'ne' }])).toEqual([
      'qtest.beta',
      'qtest.delta',
    ]);
    // ne keeps events whose field is unset.
    expect(await topics([{ key: 'project', value: 'demo', operator: 'ne' }])).toEqual([
      'qtest.gamma',
      'qtest.delta',
    ]);
    expect(await topics([{ key: 'description', value: 'gamma%', operator: 'LIKE' }])).toEqual([
      'qtest.gamma',
    ]);
    expect(await topics([{ key: 'sender_type', value: 'api' }])).toEqual(['qtest.alpha']);
    expect(await topics([{ key: 'id', value: ids.delta }])).toEqual(['qtest.delta']);
    expect(await topics([{ key: 'hash', value: ids.delta }])).toEqual(['qtest.delta']);
  });

  it('orders dates with lt, gt, lte and gte', async () => {
    expect(await topics([{ key: 'createdAt', value: midpoint, operator: 'lt' }])).toEqual([
      'qtest.alpha',
      'qtest.beta',
    ]);
    expect(await topics([{ key: 'createdAt', value: midpoint, operator: 'gt' }])).toEqual([
      'qtest.gamma',
      'qtest.delta',
    ]);
    expect(await topics([{ key: 'created_at', value: midpoint, operator: 'lte' }])).toEqual([
      'qtest.alpha',
      'qtest.beta',
    ]);
    expect(await topics([{ key: 'updatedAt', value: midpoint, operator: 'gte' }])).toEqual([
      'qtest.gamma',
      'qtest.delta',
    ]);
    expect(await topics([{ key: 'summary/size', value: 5, operator: 'gte' }])).toEqual([
      'qtest.beta',
      'qtest.gamma',
    ]);
  });

  it('matches lists with in and notin', async () => {
    expect(await topics([{ key: 'user', value: ['ann', 'cy'], operator: 'in' }])).toEqual([
      'qtest.alpha',
      'qtest.gamma',
      'qtest.delta',
    ]);
    expect(await topics([{ key: 'project', value: ['demo'], operator: 'not_in' }])).toEqual([
      'qtest.gamma',
      'qtest.delta',
    ]);
    expect(await topics([{ key: 'user', value: [], operator: 'in' }])).toEqual([]);
    expect(await topics([{ key: 'status', value: ['failed'], operator: 'notin' }])).toEqual([
      'qtest.alpha',
      'qtest.beta',
      'qtest.gamma',
    ]);
  });

  it('takes a list of any length, past the parameters PostgreSQL binds in one statement', async () => {
    const many = Array.from({ length: 70_000 }, (_, i) => `user${i}`);
    expect(await topics([{ key: 'user', value: [...many, 'cy'], operator: 'in' }])).toEqual(['qtest.delta']);
    const createdAt = Array.from({ length: 70_000 }, (_, i) =>
      new Date(Date.UTC(2000, 0, 1, 0, 0, i)).toISOString(),
    );
    expect(await topics([{ key: 'createdAt', value: createdAt, operator: 'in' }])).toEqual([]);
    expect(
      await topics([{ key: 'retries', value: [...many.map((_, i) => i + 100)], operator: 'notin' }]),
    ).toHaveLength(4);
  });

  it('tests for missing values with isnull and notnull', async () => {
    expect(await topics([{ key: 'dependsOn', operator: 'isnull' }])).toEqual(['qtest.alpha', 'qtest.gamma']);
    expect(await topics([{ key: 'dependsOn', operator: 'notnull' }])).toEqual(['qtest.beta', 'qtest.delta']);
    expect(await topics([{ key: 'summary.note', operator: 'isnull' }])).toEqual([
      'qtest.alpha',
      'qtest.beta',
      'qtest.gamma',
      'qtest.delta',
    ]);
    expect(await topics([{ key: 'project', operator: 'notnull' }])).toEqual([
      'qtest.alpha',
      'qtest.beta',
      'qtest.gamma',
    ]);
  });

  it('looks inside JSON lists with the includes family', async () => {
    expect(await topics([{ key: 'summary/tags', value: 'a', operator: 'includes' }])).toEqual([
      'qtest.alpha',
    ]);
    expect(await topics([{ key: 'summary/tags', value: 'a', operator: 'excludes' }])).toEqual([
      'qtest.beta',
      'qtest.gamma',
      'qtest.delta',
    ]);
    expect(await topics([{ key: 'summary/tags', value: ['a', 'b'], operator: 'includesall' }])).toEqual([
      'qtest.alpha',
    ]);
    expect(await topics([{ key: 'summary/tags', value: ['a', 'b'], operator: 'excludesall' }])).toEqual([
      'qtest.beta',
      'qtest.gamma',
      'qtest.delta',
    ]);
    expect(await topics([{ key: 'summary/tags', value: ['b', 'z'], operator: 'includesany' }])).toEqual([
      'qtest.alpha',
      'qtest.beta',
    ]);
    expect(await topics([{ key: 'summary/tags', value: ['b', 'z'], operator: 'excludesany' }])).toEqual([
      'qtest.gamma',
      'qtest.delta',
    ]);
  });

  it('combines with and, or and nested groups', async () => {
    expect(
      await topics([
        { key: 'user', value: 'ann' },
        { key: 'project', value: 'other' },
      ]),
    ).toEqual(['qtest.gamma']);
    expect(
      await topics(
        [
          { key: 'user', value: 'bob' },
          { key: 'user', value: 'cy' },
        ],
        'or',
      ),
    ).toEqual(['qtest.beta', 'qtest.delta']);
    const nested = [
      { key: 'status', value: 'failed' },
      {
        conditions: [
          { key: 'user', value: 'ann' },
          { key: 'dependsOn', operator: 'notnull' },
        ],
        operator: 'and',
      },
    ];
    expect(await topics(nested, 'or')).toEqual(['qtest.delta']);
    expect(
      await topics([
        { key: 'user', value: 'ann' },
        { key: 'dependsOn', operator: 'notnull' },
      ]),
    ).toEqual([]);
    const wider = [
      { key: 'status', value: 'failed' },
      {
        conditions: [
          { key: 'user', value: 'ann' },
          { conditions: [{ key: 'project', value: 'demo' }], operator: 'or' },
        ],
      },
    ];
    expect(await topics(wider, 'or')).toEqual(['qtest.alpha', 'qtest.delta']);
    // An empty group restricts nothing.
    expect(await topics([{ conditions: [] }])).toEqual([
      'qtest.alpha',
      'qtest.beta',
      'qtest.gamma',
      'qtest.delta',
    ]);
  });

  it('is for administrators only', async () => {
    expect((await query({ entity: 'event' }, manager)).status).toBe(403);
    expect((await core.request('POST', '/api/query', { body: { entity: 'event' } })).status).toBe(401);
  });

  it('answers bad queries with 422 at the place of the problem', async () => {
    const entity = await query({ entity: 'folder' });
    expect(entity.status).toBe(422);
    expect(entity.body.errors[0].loc).toEqual(['body', 'entity']);
    const problems = async (filter: unknown) => {
      const res = await query({ entity: 'event', filter });
      expect(res.status).toBe(422);
      return res.body.errors.map((e: any) => e.loc.join('.'));
    };
    expect(await problems({ conditions: [{ key: 'colour', value: 1 }] })).toEqual([
      'body.filter.conditions.0.key',
    ]);
    expect(await problems({ conditions: [{ key: 'topic', value: 'x', operator: 'similar' }] })).toEqual([
      'body.filter.conditions.0.operator',
    ]);
    expect(await problems({ conditions: [{ key: 'topic', value: 'x', operator: 'in' }] })).toEqual([
      'body.filter.conditions.0.value',
    ]);
    expect(await problems({ conditions: [{ key: 'topic', operator: 'eq' }] })).toEqual([
      'body.filter.conditions.0.value',
    ]);
    expect(
      await problems({ conditions: [{ key: 'createdAt', value: 'yesterday', operator: 'lt' }] }),
    ).toEqual(['body.filter.conditions.0.value']);
    expect(await problems({ conditions: [{ key: 'dependsOn', value: 'nope' }] })).toEqual([
      'body.filter.conditions.0.value',
    ]);
    expect(await problems({ conditions: [{ key: 'topic', value: 'a', operator: 'includes' }] })).toEqual([
      'body.filter.conditions.0.operator',
    ]);
    expect(
      await problems({ conditions: [{ conditions: [{ key: 'topic', value: 'a' }], operator: 'xor' }] }),
    ).toEqual(['body.filter.conditions.0.operator']);
    // No cap on one list of conditions, but 10,000 in all: each binds parameters, of which a statement takes 65,535.
    const condition = { key: 'topic', value: 'x' };
    const nested = {
      conditions: [{ conditions: Array(6_000).fill(condition) }, ...Array(4_001).fill(condition)],
    };
    expect(await problems(nested)).toEqual(['body.filter.conditions.4001']);
    const atLimit = await query({
      entity: 'event',
      filter: { conditions: Array(10_000).fill(condition), operator: 'or' },
    });
    expect([atLimit.status, atLimit.body]).toEqual([200, []]);
  });

  it('takes any limit and offset, as AYON does: none for a limit of 0 or less, a negative offset reads as 0', async () => {
    const qtest = { conditions: [{ key: 'topic', value: 'qtest.%', operator: 'like' }] };
    const page = async (limit: number, offset: number) => {
      const res = await query({ entity: 'event', filter: qtest, limit, offset });
      expect(res.status).toBe(200);
      return (res.body as { topic: string }[]).map((e) => e.topic);
    };
    expect(await page(0, 0)).toEqual([]);
    expect(await page(-5, 0)).toEqual([]);
    expect(await page(1, -3)).toEqual(['qtest.delta']);
    expect(await page(1_000_000, 2)).toEqual(['qtest.beta', 'qtest.alpha']);
  });
});
