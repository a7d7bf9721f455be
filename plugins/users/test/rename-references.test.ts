import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { Conflict, defineAddon } from '@pipewright/sdk';
import { login, seedUser } from './helpers.js';
import { usersRef } from '../src/api.js';

// Renaming a user carries everything that names them, across addons, in one transaction (AYON's rename_user):
// assignments, authorship, list and view owners, team membership, the feed and the inbox.

// A stand-in for an addon whose references cannot follow: its hook refuses one name, and the rename must then
// leave everything as it was.
const refusesOneName = defineAddon({
  name: 'refuses-one-name',
  version: '1.0.0',
  title: 'Refuses renames to "blocked" (test)',
  deps: { users: usersRef },
  setup(ctx, deps) {
    deps.users.onRename(async (_oldName, newName) => {
      if (newName === 'blocked') throw new Conflict('This addon cannot carry that name', 'refused');
    });
  },
});

const P = '/api/projects/demo';
let core: TestCore;
let admin: string;
let alice: string;
let bob: string;
const ids: Record<string, string> = {};

const as = (token: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });

async function ok(res: Promise<{ status: number; body: any; text: string }>) {
  const done = await res;
  if (done.status >= 300) throw new Error(`${done.status}: ${done.text}`);
  return done.body;
}

beforeAll(async () => {
  core = await bootTestCore({
    addons: ['users', 'entities', 'activities', 'lists', 'teams', 'views', 'links'],
    extraAddons: [refusesOneName],
  });
  await seedUser(core, 'root', { isAdmin: true });
  await seedUser(core, 'alice', { isManager: true });
  await seedUser(core, 'bob', { isManager: true });
  admin = await login(core, 'root');
  alice = await login(core, 'alice');
  bob = await login(core, 'bob');
  await ok(as(admin)('POST', '/api/projects', { name: 'demo', code: 'demo' }));
  ids.shot = (await ok(as(admin)('POST', `${P}/folders`, { name: 'sh010', folderType: 'Shot' }))).id;
  ids.task = (
    await ok(
      as(admin)('POST', `${P}/tasks`, {
        name: 'animation',
        taskType: 'Animation',
        folderId: ids.shot,
        assignees: ['alice', 'bob'],
      }),
    )
  ).id;
  const product = await ok(
    as(admin)('POST', `${P}/products`, { name: 'renderMain', productType: 'render', folderId: ids.shot }),
  );
  ids.version = (
    await ok(as(admin)('POST', `${P}/versions`, { version: 1, productId: product.id, author: 'alice' }))
  ).id;
  ids.workfile = (
    await ok(
      as(alice)('POST', `${P}/workfiles`, { path: '{root[work]}/sh010/anim_v001.ma', taskId: ids.task }),
    )
  ).id;
  await ok(
    as(alice)('POST', `${P}/tasks/${ids.task}/activities`, {
      activityType: 'comment',
      body: 'Blocking done',
    }),
  );
  await ok(
    as(bob)('POST', `${P}/tasks/${ids.task}/activities`, {
      activityType: 'comment',
      body: 'Thanks [Alice](user:alice)',
    }),
  );
  ids.list = (await ok(as(alice)('POST', `${P}/lists`, { label: 'Dailies', entityType: 'version' }))).id;
  await ok(
    as(admin)('PUT', `${P}/teams/anim`, {
      members: [
        { name: 'alice', leader: true, roles: ['lead'] },
        { name: 'bob', roles: [] },
      ],
    }),
  );
  ids.view = (
    await ok(as(alice)('POST', '/api/views/overview?project_name=demo', { label: 'Mine', settings: {} }))
  ).id;
  await ok(as(admin)('PUT', `${P}/links/types/reference|folder|version`, {}));
  ids.link = (
    await ok(
      as(alice)('POST', `${P}/links`, {
        input: ids.shot,
        output: ids.version,
        linkType: 'reference|folder|version',
      }),
    )
  ).id;
});

afterAll(async () => {
  await core?.close();
});

async function references(token: string) {
  const task = await ok(as(token)('GET', `${P}/tasks/${ids.task}`));
  const version = await ok(as(token)('GET', `${P}/versions/${ids.version}`));
  const workfile = await ok(as(token)('GET', `${P}/workfiles/${ids.workfile}`));
  const list = await ok(as(token)('GET', `${P}/lists/${ids.list}`));
  const teams = await ok(as(token)('GET', `${P}/teams?show_members=true`));
  const link = await ok(as(token)('GET', `${P}/links/${ids.link}`));
  const feed = await ok(
    as(token)('POST', '/graphql', {
      query: `{ project(name: "demo") { task(id: "${ids.task}") { activities(first: 10) {
        edges { node { body author { name } } } } } } }`,
    }),
  );
  return {
    assignees: task.assignees,
    versionAuthor: version.author,
    workfileCreatedBy: workfile.createdBy,
    listOwner: list.owner,
    team: teams.find((team: any) => team.name === 'anim').members.map((m: any) => [m.name, m.leader]),
    linkAuthor: link.author,
    feed: feed.data.project.task.activities.edges
      .map((edge: any) => [edge.node.body, edge.node.author?.name])
      .filter(([body]: string[]) => body === 'Blocking done'),
  };
}

describe('renaming a user', () => {
  it('is refused whole when one addon cannot carry the new name', async () => {
    const before = await references(admin);
    const res = await as(admin)('PATCH', '/api/users/alice/rename', { newName: 'blocked' });
    expect(res.status).toBe(409);
    expect((await as(admin)('GET', '/api/users/blocked')).status).toBe(404);
    expect(await references(admin)).toEqual(before);
    expect(before.assignees).toEqual(['alice', 'bob']);
  });

  it('carries assignments, authorship, owners, teams, views and the feed to the new name', async () => {
    expect((await as(admin)('PATCH', '/api/users/alice/rename', { newName: 'alicia' })).status).toBe(204);
    expect(await references(admin)).toEqual({
      assignees: ['alicia', 'bob'],
      versionAuthor: 'alicia',
      workfileCreatedBy: 'alicia',
      listOwner: 'alicia',
      team: [
        ['alicia', true],
        ['bob', false],
      ],
      linkAuthor: 'alicia',
      feed: [['Blocking done', 'alicia']],
    });
    const alicia = await login(core, 'alicia');
    // Her saved view is still hers, and the mention addressed to her is still in her inbox.
    const views = await ok(as(alicia)('GET', '/api/views/overview?project_name=demo'));
    expect(views.views.find((view: any) => view.id === ids.view)).toMatchObject({ owner: 'alicia' });
    const inbox = await ok(
      as(alicia)('POST', '/graphql', {
        query: '{ inbox(last: 10) { edges { node { body activityType } } } }',
      }),
    );
    expect(inbox.data.inbox.edges.map((edge: any) => edge.node.body)).toContain('Thanks [Alice](user:alice)');
    // Her tasks are found under her new name.
    const mine = await ok(
      as(alicia)('POST', '/graphql', {
        query: '{ project(name: "demo") { tasks(assigneesAny: ["alicia"]) { edges { node { name } } } } }',
      }),
    );
    expect(mine.data.project.tasks.edges).toHaveLength(1);
  });
});
