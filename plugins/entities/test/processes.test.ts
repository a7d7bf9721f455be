import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type PipewrightServer } from '@pipewright/core';
import { bootTestCore, testRedis, type TestCore } from '@pipewright/core/testing';
import { usersRef } from '@pipewright/plugin-users/api';

// Two server processes (here: two cores) on one database and one Redis, each keeping the project's folder tree:
// what one changes, the other's /hierarchy shows once the change's event reaches it.

let redis: Awaited<ReturnType<typeof testRedis>> | undefined;
let first: TestCore;
let second: PipewrightServer;
const tokens: string[] = [];
const P = '/api/projects/shared';

async function call(server: PipewrightServer, token: string, method: string, url: string, body?: unknown) {
  const res = await server.app.inject({
    method: method as any,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as any }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
}
const onFirst = (method: string, url: string, body?: unknown) => call(first, tokens[0], method, url, body);
const onSecond = (method: string, url: string, body?: unknown) => call(second, tokens[1], method, url, body);

/** The names in a process's tree, root first, each followed by its task names. */
async function names(on: typeof onFirst): Promise<string[]> {
  const walk = (nodes: any[]): string[] =>
    nodes.flatMap((n) => [`${n.name}(${n.taskNames.join(',')})`, ...walk(n.children)]);
  return walk((await on('GET', `${P}/hierarchy`)).body.hierarchy);
}

/** What a process's tree shows once it has heard of the other's change (events take a moment to arrive). */
async function settled(on: typeof onFirst, expected: string[]): Promise<string[]> {
  let seen: string[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    seen = await names(on);
    if (JSON.stringify(seen) === JSON.stringify(expected)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return seen;
}

beforeAll(async () => {
  redis = await testRedis();
  first = await bootTestCore({ addons: ['entities', 'users'], config: { redisUrl: redis.url } });
  second = await createServer({
    config: first.config,
    // The first core owns the database; the second must not close it.
    database: { ...first.database, close: async () => undefined },
    only: ['entities', 'users'],
  });
  const users = first.services.get(usersRef);
  const password = 'correct horse battery';
  await first.db
    .transaction()
    .execute(() => users.create({ name: 'boss', password, data: { isAdmin: true } }));
  for (const server of [first, second]) {
    const login = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { name: 'boss', password },
    });
    tokens.push(login.json().token);
  }
  expect((await onFirst('POST', '/api/projects', { name: 'shared', code: 'sh' })).status).toBe(201);
});

afterAll(async () => {
  await second?.close();
  await first?.close();
  redis?.stop();
});

describe('the folder tree across server processes', () => {
  it("follows the other process's creates, renames, moves and deletes", async () => {
    const root = (await onFirst('POST', `${P}/folders`, { name: 'ep01', folderType: 'Episode' })).body.id;
    // Both keep a tree from here on.
    expect(await names(onFirst)).toEqual(['ep01()']);
    expect(await settled(onSecond, ['ep01()'])).toEqual(['ep01()']);
    const shot = (
      await onSecond('POST', `${P}/folders`, { name: 'sh010', folderType: 'Shot', parentId: root })
    ).body.id;
    expect((await onSecond('POST', `${P}/tasks`, { name: 'comp', folderId: shot })).status).toBe(201);
    expect(await names(onSecond)).toEqual(['ep01()', 'sh010(comp)']);
    expect(await settled(onFirst, ['ep01()', 'sh010(comp)'])).toEqual(['ep01()', 'sh010(comp)']);
    expect((await onFirst('PATCH', `${P}/folders/${shot}`, { name: 'sh020', parentId: null })).status).toBe(
      204,
    );
    expect(await settled(onSecond, ['ep01()', 'sh020(comp)'])).toEqual(['ep01()', 'sh020(comp)']);
    expect((await onSecond('DELETE', `${P}/folders/${root}`)).status).toBe(204);
    expect(await settled(onFirst, ['sh020(comp)'])).toEqual(['sh020(comp)']);
  });
});
