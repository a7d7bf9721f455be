import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { usersRef } from '@pipewright/plugin-users/api';

// A small demo project with known tasks, people and history, an empty project, and callers with and without
// access, so each figure of the dashboard can be checked exactly.
let core: TestCore;
let manager: string;
let ann: string;
let otto: string;
const PASSWORD = 'correct horse battery';
const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

async function seed(name: string, data: Record<string, unknown>, active = true) {
  const users = core.services.get(usersRef);
  await users.create({ name, password: PASSWORD, data });
  if (!active) await users.update(name, { active: false });
  const login = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
  return login.body.token as string;
}

async function api(method: string, url: string, body?: unknown, token = manager) {
  const res = await core.request(method, url, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
}
const create = async (project: string, type: string, body: Record<string, unknown>) =>
  (await api('POST', `/api/projects/${project}/${type}`, body)).id as string;

const dashboard = (project: string, part: string, token = ann) =>
  core.request('GET', `/api/projects/${project}/dashboard/${part}`, { token });

beforeAll(async () => {
  core = await bootTestCore({ addons: ['dashboard', 'users', 'teams'] });
  await seed('root', { isAdmin: true });
  manager = await seed('boss', { isManager: true });
  ann = await seed('ann', { accessGroups: { demo: ['artist'], late: ['artist'] } });
  await seed('bob', { accessGroups: { demo: ['supervisor'] } });
  await seed('dee', { accessGroups: { DEMO: ['artist'] } }, false);
  otto = await seed('otto', { accessGroups: { elsewhere: ['artist'] } });
  for (const name of ['demo', 'quiet', 'late']) await api('POST', '/api/projects', { name, code: name });

  // demo: two shots; sh020 ends in a day and a half ago, and its task inherits that end date.
  const sh010 = await create('demo', 'folders', { name: 'sh010', folderType: 'Shot' });
  const sh020 = await create('demo', 'folders', {
    name: 'sh020',
    folderType: 'Shot',
    attrib: { endDate: inDays(-1.5) },
  });
  await create('demo', 'folders', { name: 'retired', folderType: 'Shot', active: false });
  const task = (folderId: string, name: string, status: string, endDate?: string) =>
    create('demo', 'tasks', {
      name,
      folderId,
      taskType: 'Lighting',
      status,
      ...(endDate ? { attrib: { endDate } } : {}),
    });
  const early = await task(sh010, 'early', 'Approved', inDays(10.5));
  await task(sh010, 'late', 'In progress', inDays(-3.5));
  await task(sh020, 'inherits', 'Not ready');
  await task(sh010, 'undated', 'Approved');
  await task(sh010, 'upcoming', 'Not ready', inDays(20));
  const product = await create('demo', 'products', {
    name: 'renderMain',
    folderId: sh010,
    productType: 'render',
  });
  const v1 = await create('demo', 'versions', { version: 1, productId: product, taskId: early });
  await create('demo', 'versions', { version: 2, productId: product });
  await create('demo', 'representations', { name: 'exr', versionId: v1 });
  await create('demo', 'workfiles', { path: 'work/sh010/lighting_v001.ma', taskId: early });

  // late: the project itself ended yesterday, so an undated unfinished task is overdue through it.
  await api('PATCH', '/api/projects/late', { attrib: { endDate: inDays(-1.2) } });
  const shot = await create('late', 'folders', { name: 'sh100', folderType: 'Shot' });
  await create('late', 'tasks', {
    name: 'comp',
    folderId: shot,
    taskType: 'Lighting',
    status: 'In progress',
  });
});
afterAll(() => core.close());

describe('who may read the dashboard', () => {
  it('documents its four routes in the OpenAPI document', async () => {
    const { paths } = (await core.request('GET', '/openapi.json')).body;
    for (const part of ['entities', 'health', 'users', 'activity']) {
      expect(paths[`/api/projects/{project_name}/dashboard/${part}`]?.get).toBeDefined();
    }
  });

  it('answers users of the project, 403 to others, 404 for unknown projects, 401 to anonymous callers', async () => {
    for (const part of ['entities', 'health', 'users', 'activity']) {
      expect((await dashboard('demo', part)).status).toBe(200);
      expect((await dashboard('demo', part, manager)).status).toBe(200);
      expect((await dashboard('demo', part, otto)).status).toBe(403);
      expect((await dashboard('nowhere', part, manager)).status).toBe(404);
      expect((await core.request('GET', `/api/projects/demo/dashboard/${part}`)).status).toBe(401);
    }
  });
});

describe('entities', () => {
  it('counts every entity of each type, active or not', async () => {
    const res = await dashboard('demo', 'entities');
    expect(res.body).toEqual({
      folders: 3,
      products: 1,
      versions: 2,
      representations: 1,
      tasks: 5,
      workfiles: 1,
    });
  });

  it('answers zeros for an empty project', async () => {
    expect((await dashboard('quiet', 'entities', manager)).body).toEqual({
      folders: 0,
      products: 0,
      versions: 0,
      representations: 0,
      tasks: 0,
      workfiles: 0,
    });
  });
});

describe('health', () => {
  it("counts completed tasks by their status's state and overdue ones by their effective end date", async () => {
    const res = await dashboard('demo', 'health');
    expect(res.body).toEqual({
      // 2 of 5 tasks are Approved (state done).
      completion: { percentage: 40, behind: 5, ahead: 10 },
      storageUsage: { quota: 0, used: 0 },
      // "late" by its own date, "inherits" by its folder's.
      tasks: { total: 5, completed: 2, overdue: 2 },
      statuses: { Approved: 2, 'In progress': 1, 'Not ready': 2 },
    });
  });

  it("reports the storage the project's files take", async () => {
    const upload = (bytes: number) =>
      core.request('POST', '/api/projects/late/files', {
        token: manager,
        body: Buffer.alloc(bytes, 1),
        headers: { 'content-type': 'application/octet-stream', 'x-file-name': 'plate.bin' },
      });
    expect((await upload(1000)).status).toBe(201);
    expect((await upload(234)).status).toBe(201);
    expect((await dashboard('late', 'health')).body.storageUsage).toEqual({ quota: 0, used: 1234 });
  });

  it("falls back to the project's end date", async () => {
    const res = await dashboard('late', 'health');
    expect(res.body.tasks).toEqual({ total: 1, completed: 0, overdue: 1 });
    expect(res.body.completion).toEqual({ percentage: 0, behind: 1, ahead: 0 });
  });

  it('answers zeros for a project without tasks', async () => {
    expect((await dashboard('quiet', 'health', manager)).body).toEqual({
      completion: { percentage: 0, behind: 0, ahead: 0 },
      storageUsage: { quota: 0, used: 0 },
      tasks: { total: 0, completed: 0, overdue: 0 },
      statuses: {},
    });
  });
});

describe('users', () => {
  it('counts team members, users with access and users per access group', async () => {
    const res = await core.request('PUT', '/api/projects/demo/teams/lighting', {
      token: manager,
      body: { members: [{ name: 'ann' }, { name: 'dee', leader: true }, { name: 'ghost' }] },
    });
    expect(res.status).toBe(204);
    await core.request('PUT', '/api/projects/demo/teams/comp', {
      token: manager,
      body: { members: [{ name: 'ANN' }] },
    });
    expect((await dashboard('demo', 'users')).body).toEqual({
      // ann and dee are users (ghost is not), counted once each; dee is inactive.
      teamSizeTotal: 2,
      teamSizeActive: 1,
      // root, boss, ann, bob and dee (inactive); otto works elsewhere.
      usersWithAccessTotal: 5,
      usersWithAccessActive: 4,
      roles: { artist: 2, supervisor: 1 },
    });
  });

  it('counts only administrators and managers in a project nobody was given', async () => {
    expect((await dashboard('quiet', 'users', manager)).body).toEqual({
      teamSizeTotal: 0,
      teamSizeActive: 0,
      usersWithAccessTotal: 2,
      usersWithAccessActive: 2,
      roles: {},
    });
  });
});

describe('activity', () => {
  async function addEvents(project: string, topic: string, daysAgo: number, count = 1) {
    await sql`
      INSERT INTO events (id, hash, topic, project_name, created_at)
      SELECT gen_random_uuid(), gen_random_uuid()::text, ${topic}, ${project}, now() - make_interval(days => ${daysAgo})
      FROM generate_series(1, ${count})`.execute(core.db);
  }

  it("counts the project's entity events per day, oldest first, today last", async () => {
    await addEvents('quiet', 'entity.folder.created', 2, 2);
    await addEvents('quiet', 'entity.task.updated', 0, 3);
    await addEvents('quiet', 'entity.task.updated', 7);
    // Other topics and other projects do not count.
    await addEvents('quiet', 'team.changed', 1);
    await addEvents('demo', 'entity.folder.created', 1);

    const res = await core.request('GET', '/api/projects/quiet/dashboard/activity?days=7', {
      token: manager,
    });
    expect(res.status).toBe(200);
    // entity.project.created of today's project creation adds one to today.
    expect(res.body).toEqual({ activity: [0, 0, 0, 0, 2, 0, 4] });
  });

  it('covers 50 days unless asked otherwise', async () => {
    const res = await dashboard('quiet', 'activity', manager);
    expect(res.body.activity).toHaveLength(50);
    expect(res.body.activity.slice(-8)).toEqual([1, 0, 0, 0, 0, 2, 0, 4]);
  });

  it('scales busy days so that the busiest is 100', async () => {
    await addEvents('late', 'entity.version.created', 1, 300);
    await addEvents('late', 'entity.version.created', 2, 150);
    const { activity } = (await dashboard('late', 'activity?days=3')).body;
    expect(activity[0]).toBe(50);
    expect(activity[1]).toBe(100);
    expect(activity[2]).toBeGreaterThan(0);
    expect(activity[2]).toBeLessThan(5);
  });

  it('takes any whole number of days: none for 0 or less, a century at most', async () => {
    const activity = async (days: string) => {
      const res = await core.request('GET', `/api/projects/quiet/dashboard/activity?days=${days}`, {
        token: manager,
      });
      expect(res.status).toBe(200);
      return res.body.activity as number[];
    };
    expect(await activity('0')).toEqual([]);
    expect(await activity('-3')).toEqual([]);
    const long = await activity('4000');
    expect(long).toHaveLength(4000);
    expect(long.slice(-8)).toEqual([1, 0, 0, 0, 0, 2, 0, 4]);
    const most = await activity('99999999999');
    expect(most).toHaveLength(36_525);
    expect(most.slice(-8)).toEqual([1, 0, 0, 0, 0, 2, 0, 4]);
    const res = await core.request('GET', '/api/projects/quiet/dashboard/activity?days=many', {
      token: manager,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['query', 'days']);
  });
});
