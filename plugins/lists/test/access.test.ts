import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RequestUser } from '@pipewright/sdk';
import { buildWorld, P, type World } from './world.js';
import { listsRef } from '../src/api.js';

let w: World;
beforeAll(async () => {
  w = await buildWorld();
  // Teams of the project "show": bob lights, fred composites.
  for (const [team, members] of [
    ['lighting', [{ name: 'bob' }]],
    ['comp', [{ name: 'fred' }]],
  ] as const) {
    expect((await w.as('boss')('PUT', `${P}/teams/${team}`, { members })).status).toBe(204);
  }
});
afterAll(() => w.core.close());

/** What a user may do on a list, probed through the routes (each probe leaves the list as it found it). */
async function abilities(user: string, listId: string) {
  const read = (await w.as(user)('GET', `${P}/lists/${listId}`)).status;
  const added = await w.as(user)('POST', `${P}/lists/${listId}/items`, { entityId: w.id.tree });
  if (added.status === 201) await w.as('root')('DELETE', `${P}/lists/${listId}/items/${added.body.id}`);
  const managed = (await w.as(user)('PATCH', `${P}/lists/${listId}`, {})).status;
  return { read, update: added.status, manage: managed };
}
const NONE = { read: 403, update: 403, manage: 403 };
const READ = { read: 200, update: 403, manage: 403 };
const UPDATE = { read: 200, update: 201, manage: 403 };
const MANAGE = { read: 200, update: 201, manage: 204 };

describe('levels', () => {
  it('a list is private to its owner until shared; managers and admins manage every list', async () => {
    const id = await w.createList('artie', { entityType: 'folder', label: 'Private' });
    expect(await abilities('artie', id)).toEqual(MANAGE);
    expect(await abilities('bob', id)).toEqual(NONE);
    expect(await abilities('fred', id)).toEqual(NONE);
    expect(await abilities('boss', id)).toEqual(MANAGE);
    expect(await abilities('root', id)).toEqual(MANAGE);
    expect((await w.as('boss')('GET', `${P}/lists/${id}`)).body.accessLevel).toBe(30);
    const denied = await w.as('bob')('GET', `${P}/lists/${id}`);
    expect(denied.body.detail).toBe('Access denied to entity list Private');
  });

  it('10 reads, 20 changes the items, 30 manages: by user name, with or without "user:"', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Shared by name',
      access: { bob: 10, 'user:fred': 20 },
    });
    expect(await abilities('bob', id)).toEqual(READ);
    expect((await w.as('bob')('GET', `${P}/lists/${id}`)).body.accessLevel).toBe(10);
    expect((await w.as('bob')('POST', `${P}/lists/${id}/items`, { entityId: w.id.tree })).body.detail).toBe(
      'Cannot update entity list Shared by name',
    );
    expect(await abilities('fred', id)).toEqual(UPDATE);
    expect((await w.as('fred')('PATCH', `${P}/lists/${id}`, {})).body.detail).toBe(
      'Cannot admin entity list Shared by name',
    );
    expect((await w.as('artie')('PATCH', `${P}/lists/${id}`, { access: { BOB: 30 } })).status).toBe(204);
    expect(await abilities('bob', id)).toEqual(MANAGE);
    expect(await abilities('fred', id)).toEqual(NONE);
  });

  it('20 is enough for every item route, 30 is needed to rename, share, delete, materialize, define attributes', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Editor',
      access: { bob: 20 },
      template: { folderIds: [w.id.shots] },
      items: [{ entityId: w.id.tree }, { entityId: w.id.rock }],
    });
    const list = (await w.as('bob')('GET', `${P}/lists/${id}`)).body;
    const [first, second] = list.items.map((item: any) => item.id);
    const bob = w.as('bob');
    expect((await bob('PATCH', `${P}/lists/${id}/items/${first}`, { label: 'x' })).status).toBe(200);
    expect(
      (await bob('PATCH', `${P}/lists/${id}/items`, { mode: 'merge', items: [{ id: first, position: 1 }] }))
        .status,
    ).toBe(200);
    expect((await bob('POST', `${P}/lists/${id}/order`, { order: [first, second] })).status).toBe(204);
    expect((await bob('DELETE', `${P}/lists/${id}/items/${second}`)).status).toBe(200);
    expect((await bob('GET', `${P}/lists/${id}/entities`)).status).toBe(200);
    expect((await bob('GET', `${P}/lists/${id}/attributes`)).status).toBe(200);
    expect((await bob('PUT', `${P}/lists/${id}/attributes`, [])).status).toBe(403);
    expect((await bob('POST', `${P}/lists/${id}/materialize`)).status).toBe(403);
    expect((await bob('DELETE', `${P}/lists/${id}`)).status).toBe(403);
    expect((await bob('PATCH', `${P}/lists/${id}`, { access: { bob: 30 } })).status).toBe(403);
  });

  it('level 10 readers cannot change items by any route', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Reader',
      access: { bob: 10 },
      items: [{ entityId: w.id.tree }],
    });
    const [item] = (await w.as('bob')('GET', `${P}/lists/${id}`)).body.items;
    const bob = w.as('bob');
    expect((await bob('PATCH', `${P}/lists/${id}/items/${item.id}`, { label: 'x' })).status).toBe(403);
    expect((await bob('DELETE', `${P}/lists/${id}/items/${item.id}`)).status).toBe(403);
    expect(
      (await bob('PATCH', `${P}/lists/${id}/items`, { mode: 'delete', items: [{ id: item.id }] })).status,
    ).toBe(403);
    expect((await bob('POST', `${P}/lists/${id}/order`, { order: [item.id] })).status).toBe(403);
  });

  it('an explicit 0 grants nothing', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Zero',
      access: { bob: 0, __everyone__: 0 },
    });
    expect(await abilities('bob', id)).toEqual(NONE);
  });
});

describe('sharing with groups of people', () => {
  it('with a team of the project: its members get the level, and lose it when they leave the team', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Lighting',
      access: { 'team:lighting': 20 },
    });
    expect(await abilities('bob', id)).toEqual(UPDATE);
    expect(await abilities('fred', id)).toEqual(NONE);
    expect((await w.as('boss')('DELETE', `${P}/teams/lighting/members/bob`)).status).toBe(204);
    expect(await abilities('bob', id)).toEqual(NONE);
    expect((await w.as('boss')('PUT', `${P}/teams/lighting/members/bob`, {})).status).toBe(204);
  });

  it('with an access group of the project, and with everyone on the project; the highest grant wins', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Groups',
      access: { 'group:artist': 20, __everyone__: 10, 'team:comp': 30 },
    });
    expect(await abilities('bob', id)).toEqual(UPDATE);
    expect(await abilities('fred', id)).toEqual(MANAGE);
    const everyone = await w.createList('artie', {
      entityType: 'folder',
      label: 'Everyone',
      access: { __everyone__: 10 },
    });
    expect(await abilities('fred', everyone)).toEqual(READ);
  });

  it('never reaches people outside the project', async () => {
    const id = await w.createList('artie', {
      entityType: 'folder',
      label: 'Outsiders',
      access: { eve: 30, __everyone__: 30 },
    });
    expect(await abilities('eve', id)).toEqual(NONE);
    expect((await w.as(undefined)('GET', `${P}/lists/${id}`)).status).toBe(401);
  });
});

describe('the lists service (for GraphQL)', () => {
  it('shows each caller the lists they may read, with their level and item count', async () => {
    const lists = w.core.services.get(listsRef) as {
      visible(
        caller: RequestUser,
        project: string,
      ): Promise<{ label: string; accessLevel: number; count: number }[]>;
    };
    const caller = (
      name: string,
      groups: Record<string, string[]>,
      flags: Partial<RequestUser> = {},
    ): RequestUser => ({
      name,
      isAdmin: false,
      isManager: false,
      isService: false,
      isGuest: false,
      accessGroups: groups,
      sessionId: null,
      isApiKey: false,
      ...flags,
    });
    await w.createList('artie', {
      entityType: 'task',
      label: 'Svc private',
      items: [{ entityId: w.id.comp }],
    });
    await w.createList('artie', { entityType: 'task', label: 'Svc comp team', access: { 'team:comp': 10 } });
    const fred = await lists.visible(caller('fred', { show: ['freelancer'] }), 'show');
    expect(fred.map((list) => list.label)).toContain('Svc comp team');
    expect(fred.map((list) => list.label)).not.toContain('Svc private');
    const boss = await lists.visible(caller('boss', {}, { isManager: true }), 'show');
    expect(boss.find((list) => list.label === 'Svc private')).toMatchObject({ accessLevel: 30, count: 1 });
  });
});
