import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { sql } from 'kysely';
import { defineAddon, type EventBus } from '@pipewright/sdk';
import { activitiesRef } from '@pipewright/plugin-activities/api';
import { usersRef } from '@pipewright/plugin-users/api';

// The studio side of /graphql as AYON 1.11.3 answers it: users, user, me, events, inbox and activity nodes.
// boss is an admin, artie an artist of "show", gina a guest of "show", dev a developer who logs in elsewhere.
// A test addon hands over the event bus so events with children, logs and known times can be written.
let bus: EventBus;
const eventSource = defineAddon({
  name: 'event-source',
  version: '1.0.0',
  title: 'Events written by the test',
  setup(ctx) {
    bus = ctx.events;
  },
});

let core: TestCore;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const PASSWORD = 'correct horse battery';

async function seed(name: string, data: Record<string, unknown>, attrib: Record<string, unknown> = {}) {
  const users = core.services.get(usersRef);
  await core.db.transaction().execute(() =>
    users.create({
      name,
      password: PASSWORD,
      data,
      attrib: { fullName: name.toUpperCase(), email: `${name}@Studio.test`, ...attrib },
    }),
  );
  const login = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
  tokens[name] = login.body.token;
}

async function gql(query: string, variables: Record<string, unknown> = {}, who = 'boss') {
  return core.request('POST', '/graphql', { token: tokens[who], body: { query, variables } });
}
async function data(query: string, variables: Record<string, unknown> = {}, who = 'boss') {
  const res = await gql(query, variables, who);
  if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${res.text}`);
  return res.body.data;
}
const nodes = (connection: any) => connection.edges.map((edge: any) => edge.node);

beforeAll(async () => {
  core = await bootTestCore({ addons: ['graphql', 'activities'], extraAddons: [eventSource] });
  await seed('boss', { isAdmin: true });
  await seed('artie', { accessGroups: { show: ['artist'] } });
  await seed('gina', { isGuest: true, accessGroups: { show: ['artist'] } });
  await seed('dev', {
    isDeveloper: true,
    userPool: 'ldap',
    disablePasswordLogin: true,
    accessGroups: { other: ['artist'] },
    defaultAccessGroups: ['artist'],
  });
  for (const name of ['show', 'other']) {
    const res = await core.request('POST', '/api/projects', {
      token: tokens.boss,
      body: { name, code: name },
    });
    expect(res.status).toBe(201);
  }
  const create = async (plural: string, body: Record<string, unknown>) => {
    const res = await core.request('POST', `/api/projects/show/${plural}`, { token: tokens.boss, body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  ids.folder = await create('folders', { name: 'tree', folderType: 'Asset' });
  ids.modeling = await create('tasks', {
    name: 'modeling',
    taskType: 'Modeling',
    folderId: ids.folder,
    assignees: ['artie'],
  });
  ids.lookdev = await create('tasks', { name: 'lookdev', taskType: 'Lookdev', folderId: ids.folder });
  const key = await core.request('POST', '/api/users/dev/apikeys', {
    token: tokens.boss,
    body: { label: 'farm', key: 'ab'.repeat(16) },
  });
  ids.keyStatus = String(key.status);

  // A job with two children, a log line and an old event by artie.
  ids.job = (
    await bus.emit({ topic: 'test.job', user: 'boss', description: 'render the spinning teapot' })
  ).id;
  ids.child1 = (
    await bus.emit({ topic: 'test.step', user: 'boss', dependsOn: ids.job, status: 'failed' })
  ).id;
  ids.child2 = (
    await bus.emit({ topic: 'test.step', user: 'boss', dependsOn: ids.job, status: 'pending' })
  ).id;
  ids.log = (await bus.emit({ topic: 'log.info', user: 'boss', description: 'hello world' })).id;
  ids.artieEvent = (await bus.emit({ topic: 'test.artie', user: 'artie', project: 'show' })).id;
  await core.db
    .updateTable('events' as any)
    .set({ created_at: new Date('2020-01-01T00:00:00Z') } as any)
    .where('id' as any, '=', ids.artieEvent)
    .execute();
});

afterAll(async () => {
  await core?.close();
});

describe('users', () => {
  it('answers every AYON field of a user', async () => {
    const d = await data(`{ user(name: "dev") {
      name active createdAt updatedAt accessGroups defaultAccessGroups isAdmin isManager isService isGuest
      isDeveloper isExternal hasPassword disablePasswordLogin userPool apiKeyPreview deleted
      attrib { fullName email } allAttrib } }`);
    expect(d.user).toMatchObject({
      name: 'dev',
      active: true,
      defaultAccessGroups: ['artist'],
      isAdmin: false,
      isManager: false,
      isService: false,
      isGuest: false,
      isDeveloper: true,
      isExternal: false,
      hasPassword: true,
      disablePasswordLogin: true,
      userPool: 'ldap',
      deleted: false,
      attrib: { fullName: 'DEV', email: 'dev@Studio.test' },
    });
    expect(JSON.parse(d.user.accessGroups)).toEqual({ other: ['artist'] });
    expect(JSON.parse(d.user.allAttrib)).toMatchObject({ fullName: 'DEV' });
    expect(new Date(d.user.createdAt).getTime()).not.toBeNaN();
    if (ids.keyStatus === '201') expect(typeof d.user.apiKeyPreview).toBe('string');
  });

  it('filters by name, names, e-mails (any case) and project, in SQL order by name', async () => {
    const list = async (args: string) =>
      nodes((await data(`{ users(${args}) { edges { node { name } } } }`)).users).map((n: any) => n.name);
    expect(await list('first: 10')).toEqual(['artie', 'boss', 'dev', 'gina']);
    // name matches without regard to case (AYON validates it as a user name, so it holds no wildcard).
    expect(await list('name: "ARTIE"')).toEqual(['artie']);
    expect(await list('names: ["gina", "boss", "nobody"]')).toEqual(['boss', 'gina']);
    expect(await list('names: []')).toEqual([]);
    expect(await list('emails: ["ARTIE@studio.TEST"]')).toEqual(['artie']);
    // Admins and managers belong to every project.
    expect(await list('projectName: "show"')).toEqual(['artie', 'boss', 'gina']);
    expect(await list('projects: ["other"]')).toEqual(['boss', 'dev']);
  });

  it('pages by name forwards and backwards', async () => {
    const first = (
      await data('{ users(first: 2) { edges { node { name } cursor } pageInfo { hasNextPage endCursor } } }')
    ).users;
    expect(nodes(first).map((n: any) => n.name)).toEqual(['artie', 'boss']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = (
      await data(
        'query($after: String) { users(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage } } }',
        {
          after: first.pageInfo.endCursor,
        },
      )
    ).users;
    expect(nodes(next).map((n: any) => n.name)).toEqual(['dev', 'gina']);
    expect(next.pageInfo.hasNextPage).toBe(false);
    const last = (await data('{ users(last: 1) { edges { node { name } } pageInfo { hasPreviousPage } } }'))
      .users;
    expect(nodes(last).map((n: any) => n.name)).toEqual(['gina']);
    expect(last.pageInfo.hasPreviousPage).toBe(true);
  });

  it('keeps the studio-wide list to managers, answers me to anyone and 404 for an unknown user', async () => {
    expect(
      (await gql('{ users { edges { node { name } } } }', {}, 'artie')).body.errors[0].extensions.status,
    ).toBe(403);
    expect((await gql('{ user(name: "boss") { name } }', {}, 'artie')).body.errors[0].extensions.status).toBe(
      403,
    );
    expect((await data('{ me { name isAdmin } }', {}, 'artie')).me).toEqual({
      name: 'artie',
      isAdmin: false,
    });
    const missing = await gql('{ user(name: "ghost") { name } }');
    expect(missing.body.errors[0]).toMatchObject({ message: 'User not found', extensions: { status: 404 } });
    expect(missing.body.data).toBeNull();
  });

  it('shows guests other people under a nickname, without e-mail or picture', async () => {
    const seen = nodes(
      (
        await data(
          '{ users(projectName: "show") { edges { node { name attrib { fullName email } } } } }',
          {},
          'gina',
        )
      ).users,
    );
    const own = seen.find((n: any) => n.name === 'gina');
    expect(own.attrib.email).toBe('gina@Studio.test');
    const others = seen.filter((n: any) => n !== own);
    expect(others.map((n: any) => n.name)).not.toContain('artie');
    for (const other of others) {
      expect(other.attrib.email).toMatch(/^\*+$/);
      expect(other.attrib.fullName).toBe(other.name);
    }
  });

  it('lists the tasks of a project assigned to the user', async () => {
    const d = await data(
      '{ user(name: "artie") { tasks(projectName: "show") { edges { node { name assignees } } } } }',
    );
    expect(nodes(d.user.tasks)).toEqual([{ name: 'modeling', assignees: ['artie'] }]);
  });
});

describe('events', () => {
  const list = async (args: string, who = 'boss') =>
    nodes(
      (await data(`{ events(${args}) { edges { node { id topic user status data } } } }`, {}, who)).events,
    );
  const listIds = async (args: string, who = 'boss') => (await list(args, who)).map((n: any) => n.id);

  it('answers EventNode as AYON does, data always null', async () => {
    const [job] = await list(`ids: ["${ids.job}"]`);
    expect(job).toEqual({ id: ids.job, topic: 'test.job', user: 'boss', status: 'finished', data: null });
  });

  it('filters by topic pattern, project, user and status, states being the old name of statuses', async () => {
    expect(await listIds('topics: ["test.st*"]')).toEqual([ids.child1, ids.child2]);
    expect(await listIds('topics: ["test.*"], projects: ["show"]')).toEqual([ids.artieEvent]);
    expect(await listIds('topics: ["test.*"], users: ["artie"]')).toEqual([ids.artieEvent]);
    expect(await listIds('topics: ["test.*"], statuses: ["failed", "pending"]')).toEqual([
      ids.child1,
      ids.child2,
    ]);
    expect(await listIds('topics: ["test.*"], states: ["failed"]')).toEqual([ids.child1]);
    expect(await listIds('topics: ["test.*"], statuses: [], states: ["pending"]')).toEqual([ids.child2]);
    expect(await listIds('topics: []')).toEqual([]);
    expect(
      (await gql('{ events(topics: ["x"]) { edges { cursor } } }')).body.errors[0].extensions.status,
    ).toBe(400);
  });

  it('tells events with children (through dependsOn) from those without', async () => {
    expect(await listIds('topics: ["test.*"], hasChildren: true')).toEqual([ids.job]);
    expect(await listIds('topics: ["test.*"], hasChildren: false')).toEqual([
      ids.child1,
      ids.child2,
      ids.artieEvent,
    ]);
  });

  it('leaves logs out unless asked for or named by topic', async () => {
    expect(await listIds('first: 1000')).not.toContain(ids.log);
    expect(await listIds('first: 1000, includeLogs: true')).toContain(ids.log);
    expect(await listIds('topics: ["log.*"]')).toEqual([ids.log]);
  });

  it('compares olderThan and newerThan with the creation time', async () => {
    expect(await listIds('topics: ["test.*"], olderThan: "2021-01-01T00:00:00+00:00"')).toEqual([
      ids.artieEvent,
    ]);
    const newer = await listIds('topics: ["test.*"], newerThan: "2021-01-01T00:00:00Z"');
    expect(newer).toEqual([ids.job, ids.child1, ids.child2]);
    expect(
      (await gql('{ events(newerThan: "soon") { edges { cursor } } }')).body.errors[0].extensions.status,
    ).toBe(400);
  });

  it('searches text words in topic, project, user and description; a JSON QueryFilter still works', async () => {
    expect(await listIds('filter: "Spinning TEAPOT"')).toEqual([ids.job]);
    expect(await listIds('filter: "teapot kettle"')).toEqual([]);
    const query = JSON.stringify({ conditions: [{ key: 'status', value: 'failed' }] });
    expect(await listIds(`filter: ${JSON.stringify(query)}`)).toEqual([ids.child1]);
  });

  it('shows non-managers their own events, any event by id', async () => {
    expect(await listIds('topics: ["test.*"], users: ["boss"]', 'artie')).toEqual([ids.artieEvent]);
    expect(await listIds(`ids: ["${ids.job}"]`, 'artie')).toEqual([ids.job]);
  });

  it('pages by creation order, backwards with last/before', async () => {
    const page = (
      await data(
        '{ events(topics: ["test.*"], last: 2) { edges { node { id } } pageInfo { hasPreviousPage startCursor } } }',
      )
    ).events;
    expect(nodes(page).map((n: any) => n.id)).toEqual([ids.child2, ids.artieEvent]);
    expect(page.pageInfo.hasPreviousPage).toBe(true);
    const older = await data(
      'query($before: String) { events(topics: ["test.*"], last: 2, before: $before) { edges { node { id } } } }',
      { before: page.pageInfo.startCursor },
    );
    expect(nodes(older.events).map((n: any) => n.id)).toEqual([ids.job, ids.child1]);
  });
});

describe('inbox and activity nodes', () => {
  beforeAll(async () => {
    const res = await core.request('POST', `/api/projects/show/tasks/${ids.modeling}/activities`, {
      token: tokens.boss,
      body: {
        activityType: 'comment',
        body: 'Look at this, [Artie](user:artie)\nsecond line',
        data: { category: 'review' },
      },
    });
    expect(res.status).toBe(201);
    ids.comment = res.body.id;
    await (core.services.get(activitiesRef) as { settled(): Promise<void> }).settled();
  });

  it('takes only last and before, and shows the mention in one line', async () => {
    const bad = await gql('{ inbox(first: 1) { edges { cursor } } }', {}, 'artie');
    expect(bad.status).toBe(400);
    const d = await data(
      `{ inbox(last: 10, showActiveMessages: true, showUnreadMessages: true, showImportantMessages: true) {
        edges { node { activityId referenceType body read category createdAt
          author { name deleted attrib { fullName } } origin { type name link } } } } }`,
      {},
      'artie',
    );
    const mention = nodes(d.inbox).find((n: any) => n.activityId === ids.comment);
    expect(mention).toMatchObject({
      referenceType: 'mention',
      body: 'Look at this, [Artie](user:artie) second line',
      read: false,
      category: 'review',
      author: { name: 'boss', deleted: false, attrib: { fullName: 'BOSS' } },
      origin: { type: 'task', name: 'modeling', link: `[modeling](task:${ids.modeling})` },
    });
    const none = await data(
      '{ inbox(showImportantMessages: false) { edges { node { activityId } } } }',
      {},
      'artie',
    );
    expect(nodes(none.inbox).map((n: any) => n.activityId)).not.toContain(ids.comment);
  });

  it('answers the project feed with its arguments and a departed author as a deleted user', async () => {
    await core.db
      .updateTable('project_show.activities' as any)
      .set({ data: sql`data || '{"author": "gone"}'` } as any)
      .where('id' as any, '=', ids.comment)
      .execute();
    const d =
      await data(`{ project(name: "show") { activities(activityTypes: ["comment"], categories: ["review"]) {
      edges { node { activityId category author { name active deleted } files { id } reactions { userName } } } } } }`);
    expect(nodes(d.project.activities)).toEqual([
      {
        activityId: ids.comment,
        category: 'review',
        author: { name: 'gone', active: false, deleted: true },
        files: [],
        reactions: [],
      },
    ]);
  });
});
