import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// GET /api/users/me/access/{project}: where the caller may act in a project, as the server checks writes. The seeded
// artist group creates and deletes only where a task is assigned; "layout" is a group limited to one subtree.
let core: TestCore;
const tokens: Record<string, string> = {};

const get = (who: string | undefined, url: string) =>
  core.request('GET', url, { token: who ? tokens[who] : undefined });

beforeAll(async () => {
  core = await bootTestCore({ addons: ['access'] });
  const people: [string, Record<string, unknown>][] = [
    ['root', { isAdmin: true }],
    ['boss', { isManager: true }],
    ['artie', { accessGroups: { show: ['artist'] } }],
    ['lay', { accessGroups: { show: ['layout', 'artist'] } }],
  ];
  for (const [name, data] of people) {
    tokens[name] = await seedUser(core, name, data);
  }
  const admin = (method: string, url: string, body?: unknown) =>
    core.request(method, url, { token: tokens.root, body });
  expect((await admin('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  expect((await admin('POST', '/api/projects', { name: 'other', code: 'ot' })).status).toBe(201);
  const layout = { enabled: true, access_list: [{ access_type: 'hierarchy', path: '/assets/sets/' }] };
  expect((await admin('PUT', '/api/accessGroups/layout/_', { create: layout, delete: layout })).status).toBe(
    204,
  );
}, 60_000);

afterAll(async () => {
  await core?.close();
});

describe("the caller's access in a project", () => {
  it('is unrestricted for administrators, who alone publish for others', async () => {
    const res = await get('root', '/api/users/me/access/show');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      userName: 'root',
      userLevel: 'admin',
      publishForOthers: true,
      folders: { create: null, read: null, update: null, publish: null, delete: null },
    });
  });

  it('is unrestricted for managers, who still publish only as themselves', async () => {
    const res = await get('boss', '/api/users/me/access/Show');
    expect(res.body).toMatchObject({ userLevel: 'manager', publishForOthers: false });
    expect(Object.values(res.body.folders)).toEqual([null, null, null, null, null]);
  });

  it('gives a user the scopes of their groups, as writes are checked', async () => {
    const artist = (await get('artie', '/api/users/me/access/show')).body;
    expect(artist).toMatchObject({ userName: 'artie', userLevel: 'user', publishForOthers: false });
    expect(artist.folders.create).toEqual({ subtree: [], below: [], assigned: true });
    expect(artist.folders.update).toBeNull();
    // Two groups join: the layout subtree (its path as scopes hold it) and the assigned folders.
    const both = (await get('lay', '/api/users/me/access/show')).body;
    expect(both.folders.delete).toEqual({ subtree: ['assets/sets'], below: [], assigned: true });
  });

  it('is refused without a login, and for a project the caller cannot reach', async () => {
    expect((await get(undefined, '/api/users/me/access/show')).status).toBe(401);
    expect((await get('artie', '/api/users/me/access/other')).status).toBe(403);
    expect((await get('root', '/api/users/me/access/nowhere')).status).toBe(404);
  });
});
