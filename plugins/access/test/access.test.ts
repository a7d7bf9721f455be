import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import type { RequestUser } from '@pipewright/sdk';
import { SEED_GROUPS } from '../src/migrations.js';
import { accessRef } from '../src/api.js';
import { usersRef } from '@pipewright/plugin-users/api';

// The users addon gives logins. "show" and "other" are the projects; artie is an artist in both, fran a freelancer
// in show, lead a supervisor in show, nobody only has a project of their own.
let core: TestCore;
let root: string;
let boss: string;
let artie: string;
let fran: string;
let lead: string;
let nobody: string;

const as = (token: string | undefined) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });
const anonymous = as(undefined);
const user = async (name: string) => (await core.services.get(usersRef).get(name))!;
const groupsOf = async (name: string) =>
  (await user(name)).data.accessGroups as Record<string, string[]> | undefined;
const access = () => core.services.get(accessRef);
const identity = (
  name: string,
  accessGroups: Record<string, string[]>,
  flags: Partial<RequestUser> = {},
): RequestUser => ({
  name,
  isAdmin: false,
  isManager: false,
  isService: false,
  isGuest: false,
  accessGroups,
  sessionId: null,
  isApiKey: false,
  ...flags,
});
const myPermissions = async (token: string, project = 'show') => {
  const res = await as(token)('GET', `/api/users/me/permissions/${project}`);
  expect(res.status).toBe(200);
  return res.body;
};
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition never held');
}

beforeAll(async () => {
  core = await bootTestCore({ addons: ['access'] });
  root = await seedUser(core, 'root', { isAdmin: true });
  boss = await seedUser(core, 'boss', { isManager: true });
  artie = await seedUser(
    core,
    'artie',
    { accessGroups: { show: ['artist'], other: ['artist'] } },
    { attrib: { fullName: 'Artie Fact' } },
  );
  fran = await seedUser(core, 'fran', { accessGroups: { Show: ['freelancer'] } });
  lead = await seedUser(core, 'lead', { accessGroups: { show: ['supervisor'] } });
  nobody = await seedUser(core, 'nobody', { accessGroups: { elsewhere: ['artist'] } });
  for (const name of ['show', 'other']) {
    const res = await as(boss)('POST', '/api/projects', { name, code: name });
    if (res.status !== 201) throw new Error(`project ${name}: ${res.status} ${res.text}`);
  }
});
afterAll(() => core.close());

describe('GET /api/accessGroups/_schema', () => {
  it('describes the permission document to logged-in users', async () => {
    expect((await anonymous('GET', '/api/accessGroups/_schema')).status).toBe(401);
    const res = await as(artie)('GET', '/api/accessGroups/_schema');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.properties)).toEqual(
      expect.arrayContaining(['studio', 'project', 'read', 'attrib_write']),
    );
    expect(res.body.properties.read.properties.access_list.items.properties.access_type).toBeDefined();
  });
});

describe('the seeded groups', () => {
  it('are listed at the studio level for anyone logged in', async () => {
    expect((await anonymous('GET', '/api/accessGroups/_')).status).toBe(401);
    const res = await as(artie)('GET', '/api/accessGroups/_');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { name: 'artist', isProjectLevel: false },
      { name: 'freelancer', isProjectLevel: false },
      { name: 'supervisor', isProjectLevel: false },
    ]);
  });

  it('are read whole', async () => {
    for (const name of ['supervisor', 'artist', 'freelancer']) {
      const res = await as(boss)('GET', `/api/accessGroups/${name}/_`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(SEED_GROUPS[name]);
    }
    expect((await as(boss)('GET', '/api/accessGroups/ghost/_')).status).toBe(404);
    expect((await as(boss)('GET', '/api/accessGroups/artist/nowhere')).status).toBe(404);
    expect((await as(nobody)('GET', '/api/accessGroups/artist/show')).status).toBe(403);
    expect((await as(nobody)('GET', '/api/accessGroups/show')).status).toBe(403);
    expect((await as(boss)('GET', '/api/accessGroups/nowhere')).status).toBe(404);
    expect((await anonymous('GET', '/api/accessGroups/artist/_')).status).toBe(401);
  });

  it('restrict attributes only where a group lists them, and never for managers', async () => {
    const boss_ = identity('boss', {}, { isManager: true });
    const res = await as(boss)('PUT', '/api/accessGroups/lighter/show', {
      attrib_read: { enabled: true, attributes: ['fps', 'frameStart'] },
      attrib_write: { enabled: true, attributes: ['fps'], fields: ['status'] },
    });
    expect(res.status).toBe(204);
    expect(await access().attributeAccess(identity('lux', { show: ['lighter'] }), 'show')).toEqual({
      read: ['fps', 'frameStart'],
      write: { attributes: ['fps'], fields: ['status'] },
    });
    // A group that leaves attributes unrestricted wins the union.
    expect(
      await access().attributeAccess(identity('lux', { show: ['lighter', 'artist'] }), 'show'),
    ).toBeNull();
    expect(await access().attributeAccess(boss_, 'show')).toBeNull();
    expect((await as(boss)('DELETE', '/api/accessGroups/lighter/show')).status).toBe(204);
  });

  it('give artists and freelancers the folders of their tasks', async () => {
    expect(await access().folderScope(identity('artie', { show: ['artist'] }), 'show', 'create')).toEqual({
      subtree: [],
      below: [],
      assigned: true,
    });
    expect(await access().folderScope(identity('artie', { show: ['artist'] }), 'show', 'read')).toBeNull();
    // Project keys match regardless of case.
    // Freelancers also see only their own tasks in those folders.
    expect(await access().folderScope(identity('fran', { SHOW: ['freelancer'] }), 'show', 'read')).toEqual({
      subtree: [],
      below: [],
      assigned: true,
      ownTasksOnly: true,
    });
    expect(
      await access().folderScope(identity('lead', { show: ['supervisor'] }), 'show', 'delete'),
    ).toBeNull();
    expect(
      await access().folderScope(identity('boss', {}, { isManager: true }), 'show', 'delete'),
    ).toBeNull();
    expect(await access().folderScope(identity('svc', {}, { isService: true }), 'show', 'read')).toBeNull();
    // No group in the project (or only unknown ones): restricted to nothing.
    expect(await access().folderScope(identity('x', { show: ['ghost'] }), 'show', 'read')).toEqual({
      subtree: [],
      below: [],
      assigned: false,
      ownTasksOnly: true,
    });
  });
});

describe('PUT and DELETE /api/accessGroups/{group}/{project}', () => {
  it('need a manager', async () => {
    expect((await anonymous('PUT', '/api/accessGroups/custom/_', {})).status).toBe(401);
    expect((await as(artie)('PUT', '/api/accessGroups/custom/_', {})).status).toBe(403);
    expect((await as(lead)('PUT', '/api/accessGroups/custom/show', {})).status).toBe(403);
    expect((await as(artie)('DELETE', '/api/accessGroups/artist/_')).status).toBe(403);
    expect((await anonymous('DELETE', '/api/accessGroups/artist/_')).status).toBe(401);
  });

  it('refuse bad names and bad documents with 422', async () => {
    const badName = await as(boss)('PUT', '/api/accessGroups/bad%20name!/_', {});
    expect(badName.status).toBe(422);
    expect(badName.body.errors[0].loc).toEqual(['path', 'access_group_name']);
    expect((await as(boss)('PUT', '/api/accessGroups/-dash/_', {})).status).toBe(422);
    const badType = await as(boss)('PUT', '/api/accessGroups/custom/_', { read: { enabled: 'yes' } });
    expect(badType.status).toBe(422);
    expect(badType.body.errors[0].loc).toEqual(['body', 'read', 'enabled']);
    const badLevel = await as(boss)('PUT', '/api/accessGroups/custom/_', { project: { access: 'all' } });
    expect(badLevel.status).toBe(422);
    const noPath = await as(boss)('PUT', '/api/accessGroups/custom/_', {
      update: {
        enabled: true,
        access_list: [{ access_type: 'assigned' }, { access_type: 'children', path: '/' }],
      },
    });
    expect(noPath.status).toBe(422);
    expect(noPath.body.errors).toEqual([
      {
        loc: ['body', 'update', 'access_list', 1, 'path'],
        msg: expect.any(String),
        type: 'value_error.missing',
      },
    ]);
    expect((await as(boss)('PUT', '/api/accessGroups/custom/nowhere', {})).status).toBe(404);
    expect((await as(boss)('GET', '/api/accessGroups/custom/_')).status).toBe(404);
  });

  it('create a studio group from a partial document, filling defaults, and announce it', async () => {
    const res = await as(boss)('PUT', '/api/accessGroups/custom/_', {
      create: { enabled: true, access_list: [{ access_type: 'hierarchy', path: '/assets/trees/' }] },
      read: {
        enabled: true,
        access_list: [
          { access_type: 'hierarchy', path: 'assets' },
          { access_type: 'children', path: 'shots' },
        ],
      },
      project: { access: 1 },
      activities: { enabled: true },
    });
    expect(res.status).toBe(204);
    const stored = (await as(boss)('GET', '/api/accessGroups/custom/_')).body;
    expect(stored.create).toEqual({
      enabled: true,
      access_list: [{ access_type: 'hierarchy', path: '/assets/trees/' }],
    });
    expect(stored.update).toEqual({ enabled: false, access_list: [] });
    expect(stored.project).toEqual({ enabled: false, anatomy: 0, access: 1, settings: 0 });
    expect(stored.advanced).toEqual({ show_sibling_tasks: true });
    expect(stored.activities).toBeUndefined();
    const events = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'access_group.updated')
      .execute();
    expect(events.at(-1)).toMatchObject({ user_name: 'boss', summary: { name: 'custom', projectName: '_' } });

    const custom = identity('c', { show: ['custom'] });
    expect(await access().folderScope(custom, 'show', 'create')).toEqual({
      subtree: ['assets/trees'],
      below: [],
      assigned: false,
    });
    expect(await access().folderScope(custom, 'show', 'read')).toEqual({
      subtree: ['assets'],
      below: ['shots'],
      assigned: false,
    });
    expect(await access().folderScope(custom, 'show', 'update')).toBeNull();
  });

  it('combine a user’s groups as a union', async () => {
    const both = identity('duo', { show: ['custom', 'freelancer'] });
    // custom leaves update open, so the union does too; read joins both whitelists.
    expect(await access().folderScope(both, 'show', 'update')).toBeNull();
    expect(await access().folderScope(both, 'show', 'read')).toEqual({
      subtree: ['assets'],
      below: ['shots'],
      assigned: true,
    });
    const permissions = await access().permissions(both, 'show');
    expect(permissions.project.access).toBe(1);
    expect(permissions.advanced.show_sibling_tasks).toBe(true);
    // Groups count only in their project.
    expect(
      await access().folderScope(identity('duo', { other: ['custom'], show: ['artist'] }), 'show', 'read'),
    ).toBeNull();
  });

  it('let a project redefine a studio group for that project only', async () => {
    const before = await myPermissions(artie, 'other');
    const res = await as(boss)('PUT', '/api/accessGroups/artist/show', {
      read: { enabled: true, access_list: [{ access_type: 'children', path: 'shots' }] },
    });
    expect(res.status).toBe(204);
    expect((await myPermissions(artie, 'show')).read).toEqual({
      enabled: true,
      access_list: [{ access_type: 'children', path: 'shots' }],
    });
    // The override replaces the studio group whole: create is no longer restricted in show.
    expect((await myPermissions(artie, 'show')).create.enabled).toBe(false);
    expect(await myPermissions(artie, 'other')).toEqual(before);
    expect((await as(boss)('GET', '/api/accessGroups/artist/_')).body).toEqual(SEED_GROUPS.artist);
    expect((await as(boss)('GET', '/api/accessGroups/artist/other')).body).toEqual(SEED_GROUPS.artist);
    expect((await as(artie)('GET', '/api/accessGroups/artist/show')).body.read.enabled).toBe(true);
    expect((await as(artie)('GET', '/api/accessGroups/show')).body).toEqual([
      { name: 'artist', isProjectLevel: true },
      { name: 'custom', isProjectLevel: false },
      { name: 'freelancer', isProjectLevel: false },
      { name: 'supervisor', isProjectLevel: false },
    ]);
    expect((await as(artie)('GET', '/api/accessGroups/other')).body[0]).toEqual({
      name: 'artist',
      isProjectLevel: false,
    });
  });

  it('delete a project override, falling back to the studio group', async () => {
    expect((await as(boss)('DELETE', '/api/accessGroups/artist/show')).status).toBe(204);
    expect((await myPermissions(artie, 'show')).create).toEqual(SEED_GROUPS.artist.create);
    expect((await as(boss)('DELETE', '/api/accessGroups/artist/show')).status).toBe(404);
    expect((await as(boss)('DELETE', '/api/accessGroups/ghost/_')).status).toBe(404);
    expect((await as(boss)('DELETE', '/api/accessGroups/artist/nowhere')).status).toBe(404);
    const events = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'access_group.deleted')
      .execute();
    expect(events.at(-1)).toMatchObject({
      project_name: 'show',
      summary: { name: 'artist', projectName: 'show' },
    });
  });

  it('delete a studio group; users keep the name, which then means nothing', async () => {
    expect((await as(boss)('PUT', '/api/accessGroups/temp/_', { read: { enabled: false } })).status).toBe(
      204,
    );
    const holder = identity('t', { show: ['temp'] });
    expect(await access().folderScope(holder, 'show', 'read')).toBeNull();
    expect((await as(root)('DELETE', '/api/accessGroups/temp/_')).status).toBe(204);
    expect(await access().folderScope(holder, 'show', 'read')).toEqual({
      subtree: [],
      below: [],
      assigned: false,
      ownTasksOnly: true,
    });
    expect((await as(boss)('GET', '/api/accessGroups/temp/_')).status).toBe(404);
  });

  it('drop the cache when another process announces a change', async () => {
    const holder = identity('x', { show: ['custom'] });
    expect(await access().folderScope(holder, 'show', 'update')).toBeNull();
    // Another process wrote the row and announced it; this one only hears the event.
    const data = JSON.stringify({ update: { enabled: true, access_list: [{ access_type: 'assigned' }] } });
    await core.db
      .updateTable('access_groups')
      .set({ data })
      .where('name', '=', 'custom')
      .where('project_name', '=', '_')
      .execute();
    await core.events.emit({ topic: 'access_group.updated', summary: { name: 'custom', projectName: '_' } });
    await eventually(async () => (await access().folderScope(holder, 'show', 'update')) !== null);
    expect(await access().folderScope(holder, 'show', 'update')).toEqual({
      subtree: [],
      below: [],
      assigned: true,
    });
  });
});

describe('POST /api/access', () => {
  it('needs a manager and checks its input', async () => {
    const body = { nobody: { show: ['artist'] } };
    expect((await anonymous('POST', '/api/access', body)).status).toBe(401);
    expect((await as(lead)('POST', '/api/access', body)).status).toBe(403);
    expect((await as(boss)('POST', '/api/access', { ghost: { show: ['artist'] } })).status).toBe(404);
    const unknown = await as(boss)('POST', '/api/access', { nobody: { show: ['artist', 'ghost'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.map((e: any) => e.loc)).toEqual([['body', 'nobody', 'show', 1]]);
    const shape = await as(boss)('POST', '/api/access', { nobody: { show: 'artist' } });
    expect(shape.status).toBe(422);
    expect(shape.body.errors[0].loc).toEqual(['body', 'nobody', 'show']);
    expect(await groupsOf('nobody')).toEqual({ elsewhere: ['artist'] });
  });

  it("takes AYON's {user: {project: [groups]}}, keyed by each project's own name; [] takes a project away", async () => {
    const res = await as(boss)('POST', '/api/access', {
      nobody: { SHOW: ['artist', 'custom'], other: ['artist', 'custom'] },
      Fran: { show: ['artist', 'custom'], other: ['artist', 'custom'], nowhere: ['artist'] },
    });
    expect(res.status).toBe(204);
    expect(await groupsOf('nobody')).toEqual({
      elsewhere: ['artist'],
      show: ['artist', 'custom'],
      other: ['artist', 'custom'],
    });
    // fran's "Show" key is replaced by the project's canonical spelling; a project that does not exist is passed over.
    expect(await groupsOf('fran')).toEqual({ show: ['artist', 'custom'], other: ['artist', 'custom'] });
    expect((await as(nobody)('GET', '/api/projects/show')).status).toBe(200);

    expect((await as(boss)('POST', '/api/access', { nobody: { show: [], other: [] } })).status).toBe(204);
    expect(await groupsOf('nobody')).toEqual({ elsewhere: ['artist'] });
    expect((await as(nobody)('GET', '/api/projects/show')).status).toBe(403);
    // Projects not named stay as they are.
    expect((await as(boss)('POST', '/api/access', { fran: { show: ['freelancer'] } })).status).toBe(204);
    expect(await groupsOf('fran')).toEqual({ show: ['freelancer'], other: ['artist', 'custom'] });
  });

  it('gives groups to a deactivated user as well, and the server goes on answering', async () => {
    // Deactivation ends sessions; it once did so through its own connection, inside this route's transaction, and on
    // PGlite's one connection that waited for ever (the whole server with it).
    const idle = await seedUser(core, 'idle', {});
    await core.services.get(usersRef).update('idle', { active: false });
    expect((await as(idle)('GET', '/api/users/me')).status).toBe(401);
    const res = await as(boss)('POST', '/api/access', { idle: { show: ['artist'] } });
    expect(res.status).toBe(204);
    expect(await groupsOf('idle')).toEqual({ show: ['artist'] });
    expect((await as(boss)('GET', '/api/projects/show')).status).toBe(200);
    const back = await as(boss)('POST', '/api/access', { idle: { show: [] } });
    expect(back.status).toBe(204);
    expect(await groupsOf('idle')).toEqual({});
  });
});

describe('PATCH /api/users/{user}/accessGroups', () => {
  it('needs a manager and existing users, projects and groups', async () => {
    const body = { accessGroups: [{ project: 'show', accessGroups: ['supervisor'] }] };
    expect((await anonymous('PATCH', '/api/users/artie/accessGroups', body)).status).toBe(401);
    expect((await as(artie)('PATCH', '/api/users/artie/accessGroups', body)).status).toBe(403);
    expect((await as(boss)('PATCH', '/api/users/ghost/accessGroups', body)).status).toBe(404);
    const nowhere = { accessGroups: [{ project: 'nowhere', accessGroups: ['artist'] }] };
    expect((await as(boss)('PATCH', '/api/users/artie/accessGroups', nowhere)).status).toBe(404);
    const unknown = await as(boss)('PATCH', '/api/users/artie/accessGroups', {
      accessGroups: [
        { project: 'show', accessGroups: ['artist'] },
        { project: 'other', accessGroups: ['ghost'] },
      ],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].loc).toEqual(['body', 'accessGroups', 1, 'accessGroups', 0]);
    expect(
      (await as(boss)('PATCH', '/api/users/artie/accessGroups', { accessGroups: [{ project: 'show' }] }))
        .status,
    ).toBe(422);
    expect(
      (
        await as(boss)('PATCH', '/api/users/artie/accessGroups', {
          accessGroups: [{ project: 'show', accessGroups: ['bad name'] }],
        })
      ).status,
    ).toBe(422);
    expect(await groupsOf('artie')).toEqual({ show: ['artist'], other: ['artist'] });
  });

  it('sets groups per project, and the caller sees the change at once', async () => {
    expect((await myPermissions(artie)).create.enabled).toBe(true);
    const res = await as(boss)('PATCH', '/api/users/artie/accessGroups', {
      accessGroups: [
        { project: 'show', accessGroups: ['supervisor'] },
        { project: 'other', accessGroups: [] },
      ],
    });
    expect(res.status).toBe(204);
    expect(await groupsOf('artie')).toEqual({ show: ['supervisor'] });
    const now = await myPermissions(artie);
    expect(now.create.enabled).toBe(false);
    expect(now.project.access).toBe(2);
    expect((await as(artie)('GET', '/api/users/me/permissions/other')).status).toBe(403);
    const events = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'user.updated')
      .execute();
    expect(events.at(-1)).toMatchObject({
      user_name: 'boss',
      summary: { userName: 'artie', fields: ['accessGroups'] },
    });

    await as(boss)('PATCH', '/api/users/artie/accessGroups', {
      accessGroups: [
        { project: 'show', accessGroups: ['artist'] },
        { project: 'other', accessGroups: ['artist'] },
      ],
    });
    expect((await myPermissions(artie)).create.enabled).toBe(true);
  });
});

describe('project users', () => {
  it('are listed for managers and for users with project access level 1', async () => {
    expect((await anonymous('GET', '/api/projects/show/users')).status).toBe(401);
    expect((await as(boss)('GET', '/api/projects/nowhere/users')).status).toBe(404);
    expect((await as(nobody)('GET', '/api/projects/show/users')).status).toBe(403);
    expect((await as(artie)('GET', '/api/projects/show/users')).status).toBe(403);
    const res = await as(boss)('GET', '/api/projects/show/users');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ artie: ['artist'], fran: ['freelancer'], lead: ['supervisor'] });
    expect((await as(lead)('GET', '/api/projects/show/users')).body).toEqual(res.body);
  });

  it('change one user’s groups in the project with project access level 2', async () => {
    const url = '/api/projects/show/users/nobody';
    expect((await anonymous('PATCH', url, ['artist'])).status).toBe(401);
    expect((await as(artie)('PATCH', url, ['artist'])).status).toBe(403);
    expect((await as(nobody)('PATCH', url, ['artist'])).status).toBe(403);
    expect((await as(lead)('PATCH', '/api/projects/show/users/lead', ['artist'])).status).toBe(403);
    expect((await as(boss)('PATCH', '/api/projects/show/users/ghost', ['artist'])).status).toBe(404);
    expect((await as(boss)('PATCH', '/api/projects/nowhere/users/nobody', ['artist'])).status).toBe(404);
    expect((await as(boss)('PATCH', url, { groups: ['artist'] })).status).toBe(422);
    const unknown = await as(boss)('PATCH', url, ['ghost']);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].loc).toEqual(['body', 0]);

    const res = await as(lead)('PATCH', url, ['artist']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ elsewhere: ['artist'], show: ['artist'] });
    expect((await as(nobody)('GET', '/api/projects/show')).status).toBe(200);
    const revoked = await as(boss)('PATCH', url, []);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ elsewhere: ['artist'] });
    expect((await as(nobody)('GET', '/api/projects/show')).status).toBe(403);
  });
});

describe('user permissions', () => {
  it('answer the caller’s level, studio permissions and each project', async () => {
    expect((await anonymous('GET', '/api/users/me/permissions')).status).toBe(401);
    const mine = await as(artie)('GET', '/api/users/me/permissions');
    expect(mine.status).toBe(200);
    expect(mine.body.user_level).toBe('user');
    expect(mine.body.studio).toEqual({ enabled: false, create_projects: false, list_all_users: false });
    expect(Object.keys(mine.body.projects).sort()).toEqual(['other', 'show']);
    expect(mine.body.projects.show.create).toEqual(SEED_GROUPS.artist.create);

    const admin = (await as(root)('GET', '/api/users/me/permissions')).body;
    expect(admin.user_level).toBe('admin');
    expect(admin.studio.create_projects).toBe(true);
    expect(Object.keys(admin.projects).sort()).toEqual(['other', 'show']);
    expect(admin.projects.show.project).toEqual({ enabled: true, anatomy: 3, access: 3, settings: 3 });
    expect((await as(boss)('GET', '/api/users/me/permissions')).body.user_level).toBe('manager');
  });

  it('answer per project for the caller', async () => {
    expect((await anonymous('GET', '/api/users/me/permissions/show')).status).toBe(401);
    expect((await as(nobody)('GET', '/api/users/me/permissions/show')).status).toBe(403);
    expect((await as(boss)('GET', '/api/users/me/permissions/nowhere')).status).toBe(404);
    expect((await myPermissions(fran)).read).toEqual(SEED_GROUPS.freelancer.read);
    expect((await myPermissions(boss)).read).toEqual({ enabled: false, access_list: [] });
  });

  it('of others are for managers and the user themself', async () => {
    expect((await anonymous('GET', '/api/users/fran/permissions')).status).toBe(401);
    expect((await as(artie)('GET', '/api/users/fran/permissions')).status).toBe(403);
    expect((await as(artie)('GET', '/api/users/fran/permissions/show')).status).toBe(403);
    expect((await as(boss)('GET', '/api/users/ghost/permissions')).status).toBe(404);
    expect((await as(boss)('GET', '/api/users/fran/permissions/nowhere')).status).toBe(404);
    // Without a project, as AYON answers it: what the user may do outside projects (no default groups: nothing).
    const fransOwn = await as(fran)('GET', '/api/users/fran/permissions');
    expect(fransOwn.status).toBe(200);
    expect(fransOwn.body.studio).toEqual({ enabled: false, create_projects: false, list_all_users: false });
    expect(fransOwn.body.read).toEqual({ enabled: true, access_list: [] });
    expect(fransOwn.body.projects).toBeUndefined();
    const seen = await as(boss)('GET', '/api/users/fran/permissions/show');
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual(await myPermissions(fran));
    // Someone without groups in a project: everything restricted to nothing.
    const none = (await as(boss)('GET', '/api/users/nobody/permissions/show')).body;
    expect(none.read).toEqual({ enabled: true, access_list: [] });
    expect((await as(root)('GET', '/api/users/boss/permissions')).body).toEqual(await myPermissions(boss));
  });
});

describe('GET /api/share', () => {
  it('offers everyone, and the users the caller shares a project with', async () => {
    expect((await anonymous('GET', '/api/share')).status).toBe(401);
    const res = await as(fran)('GET', '/api/share');
    expect(res.status).toBe(200);
    expect(res.body.options[0]).toEqual({
      shareType: 'global',
      value: '__everyone__',
      name: 'everyone',
      label: 'Everyone',
    });
    const names = res.body.options.slice(1).map((o: any) => o.value);
    expect(names.sort()).toEqual(['artie', 'boss', 'lead', 'root']);
    expect(res.body.options.find((o: any) => o.value === 'artie')).toEqual({
      shareType: 'user',
      value: 'artie',
      name: 'artie',
      label: 'Artie Fact',
    });
    // nobody shares no project with anyone but the managers.
    const lonely = (await as(nobody)('GET', '/api/share')).body.options.map((o: any) => o.value);
    expect(lonely.sort()).toEqual(['__everyone__', 'boss', 'root']);
    const all = (await as(boss)('GET', '/api/share')).body.options.map((o: any) => o.value);
    expect(all.sort()).toEqual(['__everyone__', 'artie', 'fran', 'lead', 'nobody', 'root']);
  });
});

describe('project lifecycle', () => {
  it('gives a new project to users with default access groups', async () => {
    await seedUser(core, 'newbie', {
      defaultAccessGroups: ['artist', 'supervisor'],
      accessGroups: { show: ['artist'] },
    });
    await seedUser(core, 'keeper', { defaultAccessGroups: [] });
    expect((await as(boss)('POST', '/api/projects', { name: 'fresh', code: 'fr' })).status).toBe(201);
    await eventually(async () => Boolean((await groupsOf('newbie'))?.fresh));
    expect(await groupsOf('newbie')).toEqual({ show: ['artist'], fresh: ['artist', 'supervisor'] });
    expect(await groupsOf('keeper')).toBeUndefined();
    expect(await groupsOf('artie')).toEqual({ show: ['artist'], other: ['artist'] });
  });

  it('drops a deleted project’s own group versions', async () => {
    expect(
      (await as(boss)('PUT', '/api/accessGroups/artist/fresh', { read: { enabled: true } })).status,
    ).toBe(204);
    expect((await as(boss)('DELETE', '/api/projects/fresh')).status).toBe(204);
    await eventually(async () => {
      const rows = await core.db
        .selectFrom('access_groups')
        .select('name')
        .where('project_name', '=', 'fresh')
        .execute();
      return rows.length === 0;
    });
    expect((await as(boss)('POST', '/api/projects', { name: 'fresh', code: 'fr' })).status).toBe(201);
    expect((await as(boss)('GET', '/api/accessGroups/artist/fresh')).body).toEqual(SEED_GROUPS.artist);
  });
});

describe('the entities addon', () => {
  it('asks this addon where a normal user may act, from the first write on', async () => {
    const folder = await as(boss)('POST', '/api/projects/show/folders', {
      name: 'props',
      folderType: 'Asset',
    });
    expect(folder.status).toBe(201);
    const create = () =>
      as(artie)('POST', '/api/projects/show/folders', { name: 'mine', folderType: 'Asset' });
    // Artists create only where they have a task; they read anywhere. Freelancers see only their tasks' folders.
    expect((await create()).status).toBe(403);
    expect((await as(artie)('GET', `/api/projects/show/folders/${folder.body.id}`)).status).toBe(200);
    expect((await as(fran)('GET', `/api/projects/show/folders/${folder.body.id}`)).status).toBe(404);
    expect((await as(boss)('PUT', '/api/accessGroups/artist/show', {})).status).toBe(204);
    expect((await create()).status).toBe(201);
    expect((await as(boss)('DELETE', '/api/accessGroups/artist/show')).status).toBe(204);
  });
});

describe('list_all_users', () => {
  it('comes from the studio groups a user has by default, as in AYON, and opens the users list', async () => {
    expect(
      (await as(boss)('PUT', '/api/accessGroups/directory/_', { studio: { list_all_users: true } })).status,
    ).toBe(204);
    const reader = await seedUser(core, 'reader', { defaultAccessGroups: ['directory'] });
    // Holding the group in a project is not enough: list_all_users is a studio permission.
    const insider = await seedUser(core, 'insider', { accessGroups: { show: ['directory'] } });
    expect((await as(reader)('GET', '/api/users/me/permissions')).body.studio.list_all_users).toBe(true);
    expect((await as(insider)('GET', '/api/users/me/permissions')).body.studio.list_all_users).toBe(false);
    expect((await as(boss)('GET', '/api/users/reader/permissions')).body.studio.list_all_users).toBe(true);
    expect((await as(boss)('GET', '/api/users/insider/permissions')).body.studio.list_all_users).toBe(false);

    const names = async (token: string) =>
      ((await as(token)('GET', '/api/users')).body.users as { name: string }[]).map((u) => u.name);
    expect(await names(reader)).toEqual(
      expect.arrayContaining(['artie', 'boss', 'insider', 'reader', 'root']),
    );
    expect(await names(insider)).toEqual(['insider']);
  });
});
