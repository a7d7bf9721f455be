import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';

// Two artists share the demo project; an outsider works elsewhere. Views are checked for each rule of ownership,
// visibility, scope, working and default views, and for the settings of each view type.
let core: TestCore;
let admin: string;
let manager: string;
let ann: string;
let bob: string;
let outsider: string;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  core = await bootTestCore({ addons: ['views', 'users'] });
  admin = await seedUser(core, 'root', { isAdmin: true });
  manager = await seedUser(core, 'boss', { isManager: true });
  ann = await seedUser(core, 'ann', { accessGroups: { demo: ['artist'], other: ['artist'] } });
  bob = await seedUser(core, 'bob', { accessGroups: { demo: ['artist'] } });
  outsider = await seedUser(core, 'otto', { accessGroups: { elsewhere: ['artist'] } });
  for (const name of ['demo', 'other']) {
    const res = await core.request('POST', '/api/projects', { token: manager, body: { name, code: name } });
    if (res.status !== 201) throw new Error(`project ${name}: ${res.status} ${res.text}`);
  }
});
afterAll(() => core.close());

const url = (type: string, rest = '', project?: string) =>
  `/api/views/${type}${rest}${project ? `?project_name=${project}` : ''}`;

async function create(token: string, type: string, body: Record<string, unknown>, project?: string) {
  const res = await core.request('POST', url(type, '', project), { token, body });
  expect([200, 201]).toContain(res.status);
  return res.body.id as string;
}
const named = (token: string, type: string, body: Record<string, unknown>, project?: string) =>
  create(token, type, { settings: {}, working: false, ...body }, project);
const get = (token: string, type: string, id: string, project?: string) =>
  core.request('GET', url(type, `/${id}`, project), { token });
const list = async (token: string, type: string, project?: string) => {
  const res = await core.request('GET', url(type, '', project), { token });
  expect(res.status).toBe(200);
  return res.body.views as any[];
};

describe('creating and reading views', () => {
  it('creates a named view, owned by the caller, with the settings defaults of its type filled in', async () => {
    const res = await core.request('POST', url('overview', '', 'demo'), {
      token: ann,
      body: {
        label: 'Lighting shots',
        working: false,
        settings: { groupBy: 'taskType', columns: [{ name: 'status', width: 120 }] },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^[0-9a-f]{32}$/);

    const view = await get(ann, 'overview', res.body.id, 'demo');
    expect(view.status).toBe(200);
    expect(view.body).toEqual({
      id: res.body.id,
      label: 'Lighting shots',
      scope: 'project',
      owner: 'ann',
      visibility: 'private',
      working: false,
      position: 0,
      accessLevel: 30,
      access: {},
      viewType: 'overview',
      settings: {
        showHierarchy: true,
        rowHeight: null,
        groupBy: 'taskType',
        showEmptyGroups: false,
        sortBy: null,
        sortDesc: false,
        filter: null,
        columns: [{ name: 'status', visible: true, pinned: false, width: 120 }],
      },
    });
  });

  it('keeps the fields of each view type: task progress has no layout, lists and reviews no hierarchy', async () => {
    const progress = await named(ann, 'taskProgress', { label: 'progress' });
    expect((await get(ann, 'taskProgress', progress)).body.settings).toEqual({ filter: null, columns: [] });
    for (const type of ['lists', 'reviews']) {
      const id = await named(ann, type, { label: type, settings: { sortBy: 'name', sortDesc: true } });
      expect((await get(ann, type, id)).body.settings).toEqual({
        rowHeight: null,
        sortBy: 'name',
        sortDesc: true,
        filter: null,
        columns: [],
      });
    }
  });

  it('keeps settings keys it does not know and accepts AYON snake_case names', async () => {
    const id = await named(ann, 'overview', {
      label: 'snake',
      settings: {
        show_hierarchy: false,
        row_height: 40,
        futureOption: { a: 1 },
        columns: [{ name: 'x', pinned: true }],
      },
    });
    const { settings } = (await get(ann, 'overview', id)).body;
    expect(settings).toMatchObject({
      showHierarchy: false,
      rowHeight: 40,
      futureOption: { a: 1 },
      columns: [{ name: 'x', visible: true, pinned: true, width: null }],
    });
    expect(settings).not.toHaveProperty('show_hierarchy');
  });

  it('stores a filter as sent', async () => {
    const filter = {
      operator: 'or',
      conditions: [
        { key: 'status', value: ['Done', 'Approved'], operator: 'in' },
        { conditions: [{ key: 'assignees', value: 'ann', operator: 'includes' }] },
      ],
    };
    const id = await named(ann, 'taskProgress', { label: 'filtered', settings: { filter } });
    expect((await get(ann, 'taskProgress', id)).body.settings.filter).toEqual(filter);
  });

  it('takes the id a client chooses, and refuses it a second time in the same scope with 409', async () => {
    const id = newId();
    expect(await named(ann, 'lists', { id, label: 'chosen' })).toBe(id);
    const again = await core.request('POST', url('lists'), {
      token: bob,
      body: { id, label: 'again', working: false, settings: {} },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 409, detail: `View ${id} already exists` });
    // Scopes are separate: the same id may name a view of a project.
    expect(await named(ann, 'lists', { id, label: 'chosen in demo' }, 'demo')).toBe(id);
  });

  it('accepts the view type in the body when it matches the path, in either spelling', async () => {
    expect(await named(ann, 'reviews', { label: 'typed', viewType: 'reviews' })).toMatch(/^[0-9a-f]{32}$/);
    expect(await named(ann, 'reviews', { label: 'typed', view_type: 'reviews' })).toMatch(/^[0-9a-f]{32}$/);
    const res = await core.request('POST', url('reviews'), {
      token: ann,
      body: { label: 'mismatch', working: false, settings: {}, viewType: 'lists' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        loc: ['body', 'viewType'],
        msg: 'does not match the view type of the path (reviews)',
        type: 'value_error',
      },
    ]);
  });
});

describe('validation', () => {
  it('documents its routes in the OpenAPI document', async () => {
    const { paths } = (await core.request('GET', '/openapi.json')).body;
    expect(Object.keys(paths['/api/views/{view_type}']).sort()).toEqual(['get', 'post']);
    expect(paths['/api/views/{view_type}/working'].get).toBeDefined();
    expect(Object.keys(paths['/api/views/{view_type}/default']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/views/{view_type}/{view_id}']).sort()).toEqual(['delete', 'get', 'patch']);
  });

  it('answers an unknown view type as AYON does: no views, none found, saved under its name', async () => {
    expect(await list(ann, 'reports')).toEqual([]);
    const id = newId();
    for (const [method, path] of [
      ['GET', url('reports', '/working')],
      ['GET', url('reports', '/default')],
      ['GET', url('reports', `/${id}`)],
      ['PATCH', url('reports', `/${id}`)],
      ['DELETE', url('reports', `/${id}`)],
    ]) {
      const body = method === 'PATCH' ? {} : undefined;
      expect((await core.request(method, path, { token: ann, body })).status).toBe(404);
    }
    // A view saved under a type no page reads keeps the settings every type shares, and unknown keys.
    const saved = await named(ann, 'reports', { label: 'odd', settings: { pageSize: 50 } });
    expect((await list(ann, 'reports')).map((view) => view.id)).toEqual([saved]);
    const view = await get(ann, 'reports', saved);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      viewType: 'reports',
      settings: { filter: null, columns: [], pageSize: 50 },
    });
    // It is another type's view no more than theirs are its.
    expect((await get(ann, 'overview', saved)).status).toBe(404);
    // A name AYON's name rule refuses is refused here too.
    const bad = await core.request('GET', url('no%20spaces'), { token: ann });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['path', 'view_type']);
  });

  it('refuses ids that are not 32 hex characters and bad project names', async () => {
    const res = await core.request('GET', url('overview', '/not-an-id'), { token: ann });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['path', 'view_id']);
    const bad = await core.request('GET', '/api/views/overview?project_name=no-dash', { token: ann });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['query', 'project_name']);
  });

  it('requires a label and settings; unknown body fields are ignored, as AYON does', async () => {
    const res = await core.request('POST', url('overview'), { token: ann, body: { label: '', extra: 1 } });
    expect(res.status).toBe(422);
    const locs = res.body.errors.map((e: any) => e.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body', 'label'],
        ['body', 'settings'],
      ]),
    );
    expect(locs).not.toContainEqual(['body', 'extra']);
  });

  it('lists every problem of the settings, located exactly', async () => {
    const res = await core.request('POST', url('overview'), {
      token: ann,
      body: {
        label: 'bad',
        working: false,
        settings: {
          rowHeight: 'tall',
          showHierarchy: 'yes',
          columns: [{ width: 10 }, { name: 'ok', width: -1 }],
          filter: {
            operator: 'xor',
            conditions: [
              { key: 'status', operator: 'sometimes' },
              { conditions: [{ value: 1, key: 2 }] },
              'odd',
            ],
          },
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/^Invalid view settings: body\.settings\./);
    const locs = res.body.errors.map((e: any) => e.loc.join('.'));
    expect(locs).toEqual(
      expect.arrayContaining([
        'body.settings.rowHeight',
        'body.settings.showHierarchy',
        'body.settings.columns.0.name',
        'body.settings.columns.1.width',
        'body.settings.filter.operator',
        'body.settings.filter.conditions.0.operator',
        'body.settings.filter.conditions.1.conditions.0.key',
        'body.settings.filter.conditions.2',
      ]),
    );
    expect(res.body.errors.every((e: any) => typeof e.msg === 'string' && typeof e.type === 'string')).toBe(
      true,
    );
  });

  it('checks settings against the view type of the path', async () => {
    // groupBy belongs to the overview; elsewhere it is an unknown key, kept as is.
    const id = await named(ann, 'taskProgress', { label: 'loose', settings: { groupBy: 7 } });
    expect((await get(ann, 'taskProgress', id)).body.settings.groupBy).toBe(7);
    const res = await core.request('POST', url('overview'), {
      token: ann,
      body: { label: 'strict', working: false, settings: { groupBy: 7 } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'settings', 'groupBy']);
  });

  it('asks anonymous callers to log in', async () => {
    expect((await core.request('GET', url('overview'))).status).toBe(401);
    expect((await core.request('POST', url('overview'), { body: { label: 'x', settings: {} } })).status).toBe(
      401,
    );
  });
});

describe('projects and scopes', () => {
  it('answers 404 for an unknown project and 403 to callers without access to it', async () => {
    const unknown = await core.request('GET', url('overview', '', 'nowhere'), { token: manager });
    expect(unknown.status).toBe(404);
    for (const [method, path] of [
      ['GET', url('overview', '', 'demo')],
      ['POST', url('overview', '', 'demo')],
      ['GET', url('overview', '/working', 'demo')],
      ['GET', url('overview', '/default', 'demo')],
      ['GET', url('overview', `/${newId()}`, 'demo')],
      ['DELETE', url('overview', `/${newId()}`, 'demo')],
    ]) {
      // Even invalid settings are answered 403: access is settled first.
      const body = method === 'POST' ? { label: 'x', settings: { rowHeight: 'tall' } } : undefined;
      expect((await core.request(method, path, { token: outsider, body })).status).toBe(403);
    }
  });

  it("keeps a project's views in that project, and lists the studio's views after them", async () => {
    const studio = await named(bob, 'lists', { label: 'A studio', visibility: 'public' });
    const demo = await named(bob, 'lists', { label: 'Z demo', visibility: 'public' }, 'demo');
    const other = await named(ann, 'lists', { label: 'other only' }, 'other');

    const inDemo = await list(ann, 'lists', 'demo');
    const ids = inDemo.map((v) => v.id);
    expect(ids).toContain(studio);
    expect(ids).not.toContain(other);
    expect(ids.indexOf(demo)).toBeLessThan(ids.indexOf(studio));
    expect(inDemo.find((v) => v.id === demo)).toMatchObject({
      scope: 'project',
      owner: 'bob',
      accessLevel: 10,
    });
    expect(inDemo.find((v) => v.id === studio)).toMatchObject({ scope: 'studio' });

    const inStudio = (await list(ann, 'lists')).map((v) => v.id);
    expect(inStudio).toContain(studio);
    expect(inStudio).not.toContain(demo);

    // A studio view is found by id from within a project; a project's view is not found studio-wide.
    expect((await get(ann, 'lists', studio, 'demo')).body.scope).toBe('studio');
    expect((await get(ann, 'lists', demo)).status).toBe(404);
    expect((await get(ann, 'lists', other, 'demo')).status).toBe(404);
  });

  it('loses the views of a deleted project with it', async () => {
    const res = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'shortlived', code: 'sl' },
    });
    expect(res.status).toBe(201);
    const id = await named(manager, 'overview', { label: 'gone soon' }, 'shortlived');
    expect((await core.request('DELETE', '/api/projects/shortlived', { token: manager })).status).toBe(204);
    const again = await core.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'shortlived', code: 'sl' },
    });
    expect(again.status).toBe(201);
    expect((await get(manager, 'overview', id, 'shortlived')).status).toBe(404);
  });
});

describe('visibility and ownership', () => {
  let privateView: string;
  let publicView: string;

  beforeAll(async () => {
    privateView = await named(ann, 'overview', { label: 'mine only' }, 'demo');
    publicView = await named(ann, 'overview', { label: 'for everyone', visibility: 'public' }, 'demo');
  });

  it("lists the caller's own views and public ones, never others' private views", async () => {
    const bobs = await list(bob, 'overview', 'demo');
    expect(bobs.map((v) => v.id)).toContain(publicView);
    expect(bobs.map((v) => v.id)).not.toContain(privateView);
    expect(bobs.find((v) => v.id === publicView)).toEqual({
      id: publicView,
      label: 'for everyone',
      scope: 'project',
      owner: 'ann',
      visibility: 'public',
      working: false,
      position: 0,
      accessLevel: 10,
    });
    const anns = await list(ann, 'overview', 'demo');
    expect(anns.find((v) => v.id === privateView)?.accessLevel).toBe(30);
    // Administrators see what everyone sees: their own and the public views.
    expect((await list(admin, 'overview', 'demo')).map((v) => v.id)).not.toContain(privateView);
  });

  it('lists only views of the type asked for', async () => {
    expect((await list(ann, 'lists', 'demo')).map((v) => v.id)).not.toContain(privateView);
    expect((await get(ann, 'lists', privateView, 'demo')).status).toBe(404);
  });

  it('shows a public view to others, a private one to its owner only', async () => {
    expect((await get(bob, 'overview', publicView, 'demo')).body.accessLevel).toBe(10);
    expect((await get(bob, 'overview', privateView, 'demo')).status).toBe(404);
    expect((await get(admin, 'overview', privateView, 'demo')).status).toBe(404);
    expect((await get(ann, 'overview', privateView, 'demo')).status).toBe(200);
  });

  it('lets the owner change label, visibility and settings (replaced whole); answers null', async () => {
    const res = await core.request('PATCH', url('overview', `/${privateView}`, 'demo'), {
      token: ann,
      body: { label: 'renamed', settings: { sortBy: 'name' } },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
    const view = (await get(ann, 'overview', privateView, 'demo')).body;
    expect(view.label).toBe('renamed');
    expect(view.settings).toMatchObject({ sortBy: 'name', groupBy: null, columns: [] });

    const shared = await core.request('PATCH', url('overview', `/${privateView}`, 'demo'), {
      token: ann,
      body: { visibility: 'public' },
    });
    expect(shared.status).toBe(200);
    expect((await get(bob, 'overview', privateView, 'demo')).body.label).toBe('renamed');
    await core.request('PATCH', url('overview', `/${privateView}`, 'demo'), {
      token: ann,
      body: { visibility: 'private' },
    });
    expect((await get(bob, 'overview', privateView, 'demo')).status).toBe(404);
  });

  it('refuses changes by anyone but the owner: 403 when they can see the view, 404 when they cannot', async () => {
    const patch = (token: string, id: string) =>
      core.request('PATCH', url('overview', `/${id}`, 'demo'), { token, body: { label: 'taken over' } });
    expect((await patch(bob, publicView)).status).toBe(403);
    expect((await patch(manager, publicView)).status).toBe(403);
    // As in AYON, administrators do not edit the views of others either.
    expect((await patch(admin, publicView)).status).toBe(403);
    expect((await patch(bob, privateView)).status).toBe(404);
    expect((await patch(ann, newId())).status).toBe(404);
    expect((await get(ann, 'overview', publicView, 'demo')).body.label).toBe('for everyone');
  });

  it('changes nothing when part of a change is invalid', async () => {
    const res = await core.request('PATCH', url('overview', `/${publicView}`, 'demo'), {
      token: ann,
      body: { label: 'half done', settings: { rowHeight: 'x' } },
    });
    expect(res.status).toBe(422);
    expect((await get(ann, 'overview', publicView, 'demo')).body.label).toBe('for everyone');
  });

  it('hands a view to another owner only through an administrator', async () => {
    const refused = await core.request('PATCH', url('overview', `/${publicView}`, 'demo'), {
      token: ann,
      body: { owner: 'bob' },
    });
    expect(refused.status).toBe(403);
    // Naming oneself is no change.
    const same = await core.request('PATCH', url('overview', `/${publicView}`, 'demo'), {
      token: ann,
      body: { owner: 'ANN' },
    });
    expect(same.status).toBe(200);
    expect((await get(ann, 'overview', publicView, 'demo')).body.owner).toBe('ann');

    const adminsView = await named(admin, 'overview', { label: 'handed over' }, 'demo');
    const missing = await core.request('PATCH', url('overview', `/${adminsView}`, 'demo'), {
      token: admin,
      body: { owner: 'nobody' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { loc: ['body', 'owner'], msg: 'user nobody does not exist', type: 'value_error' },
    ]);
    const given = await core.request('PATCH', url('overview', `/${adminsView}`, 'demo'), {
      token: admin,
      body: { owner: 'BOB' },
    });
    expect(given.status).toBe(200);
    const view = (await get(bob, 'overview', adminsView, 'demo')).body;
    expect(view).toMatchObject({ owner: 'bob', accessLevel: 30 });
    expect((await get(admin, 'overview', adminsView, 'demo')).status).toBe(404);
  });

  it('deletes: the owner may, administrators may delete any view, others may not', async () => {
    const doomed = await named(ann, 'overview', { label: 'doomed', visibility: 'public' }, 'demo');
    const remove = (token: string, id: string) =>
      core.request('DELETE', url('overview', `/${id}`, 'demo'), { token });
    expect((await remove(bob, doomed)).status).toBe(403);
    expect((await remove(manager, doomed)).status).toBe(403);
    expect((await remove(bob, privateView)).status).toBe(404);
    const res = await remove(ann, doomed);
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
    expect((await get(ann, 'overview', doomed, 'demo')).status).toBe(404);
    expect((await remove(ann, doomed)).status).toBe(404);

    const secret = await named(bob, 'overview', { label: 'secret' }, 'demo');
    expect((await remove(admin, secret)).status).toBe(200);
    expect((await get(bob, 'overview', secret, 'demo')).status).toBe(404);
  });
});

describe('working views', () => {
  it('creates the working view unless working is false, always private', async () => {
    const res = await core.request('POST', url('taskProgress', '', 'demo'), {
      token: bob,
      body: { label: 'Working', settings: { columns: [{ name: 'status' }] } },
    });
    expect(res.status).toBe(201);
    const working = await core.request('GET', url('taskProgress', '/working', 'demo'), { token: bob });
    expect(working.status).toBe(200);
    expect(working.body).toMatchObject({
      id: res.body.id,
      working: true,
      visibility: 'private',
      scope: 'project',
      owner: 'bob',
      accessLevel: 30,
    });
  });

  it('saves over the working view, which keeps its id (200)', async () => {
    const first = (await core.request('GET', url('taskProgress', '/working', 'demo'), { token: bob })).body
      .id;
    const res = await core.request('POST', url('taskProgress', '', 'demo'), {
      token: bob,
      body: { id: newId(), label: 'Working 2', working: true, settings: { filter: { conditions: [] } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(first);
    const working = (await core.request('GET', url('taskProgress', '/working', 'demo'), { token: bob })).body;
    expect(working).toMatchObject({
      id: first,
      label: 'Working 2',
      settings: { filter: { conditions: [] } },
    });
    expect((await list(bob, 'taskProgress', 'demo')).filter((v) => v.working)).toHaveLength(1);
  });

  it('keeps one working view per user, view type and scope, even when saved at once', async () => {
    await Promise.all(
      Array.from({ length: 5 }, (_v, i) =>
        core.request('POST', url('lists', '', 'other'), {
          token: ann,
          body: { label: `w${i}`, settings: {} },
        }),
      ),
    );
    expect((await list(ann, 'lists', 'other')).filter((v) => v.working)).toHaveLength(1);
    // Others have their own, and the studio scope its own.
    await create(bob, 'lists', { label: 'bob working', settings: {} }, 'demo');
    await create(ann, 'lists', { label: 'studio working', settings: {} });
    const working = (token: string, project?: string) =>
      core.request('GET', url('lists', '/working', project), { token });
    expect((await working(ann, 'other')).body.label).toMatch(/^w\d$/);
    expect((await working(bob, 'demo')).body.label).toBe('bob working');
    expect((await working(ann)).body.label).toBe('studio working');
    expect((await working(ann, 'demo')).status).toBe(404);
  });

  it('refuses a public working view, on create and on change', async () => {
    const res = await core.request('POST', url('reviews', '', 'demo'), {
      token: ann,
      body: { label: 'w', visibility: 'public', settings: {} },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'visibility']);
    const id = await create(ann, 'reviews', { label: 'w', settings: {} }, 'demo');
    const patch = await core.request('PATCH', url('reviews', `/${id}`, 'demo'), {
      token: ann,
      body: { visibility: 'public' },
    });
    expect(patch.status).toBe(422);
  });

  it('answers 409 when a handed-over working view would give its new owner two', async () => {
    const mine = await create(admin, 'reviews', { label: 'admin working', settings: {} }, 'demo');
    await create(bob, 'reviews', { label: 'bob working', settings: {} }, 'demo');
    const res = await core.request('PATCH', url('reviews', `/${mine}`, 'demo'), {
      token: admin,
      body: { owner: 'bob' },
    });
    expect(res.status).toBe(409);
    expect((await get(admin, 'reviews', mine, 'demo')).body.owner).toBe('root');
  });
});

describe('default views', () => {
  const getDefault = (token: string, type: string, project?: string) =>
    core.request('GET', url(type, '/default', project), { token });
  const setDefault = (token: string, type: string, viewId: string, project?: string) =>
    core.request('POST', url(type, '/default', project), { token, body: { viewId } });

  it('answers 404 without a default or a working view', async () => {
    const res = await getDefault(outsider, 'overview');
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('Default overview view not found');
  });

  it("falls back to the working view: the project's, then the studio's", async () => {
    const studioWorking = await create(outsider, 'overview', { label: 'studio w', settings: {} });
    expect((await getDefault(outsider, 'overview')).body.id).toBe(studioWorking);
    expect((await getDefault(manager, 'overview', 'demo')).status).toBe(404);
    await create(manager, 'overview', { label: 'studio w', settings: {} });
    expect((await getDefault(manager, 'overview', 'demo')).body.scope).toBe('studio');
    const projectWorking = await create(manager, 'overview', { label: 'demo w', settings: {} }, 'demo');
    expect((await getDefault(manager, 'overview', 'demo')).body.id).toBe(projectWorking);
  });

  it("answers the chosen view, even someone else's public one or a studio view within a project", async () => {
    const shared = await named(ann, 'overview', { label: 'house style', visibility: 'public' });
    const res = await setDefault(bob, 'overview', shared, 'demo');
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
    const chosen = await getDefault(bob, 'overview', 'demo');
    expect(chosen.body).toMatchObject({ id: shared, scope: 'studio', owner: 'ann', accessLevel: 10 });
    // The choice belongs to that project: studio-wide, bob has none.
    expect((await getDefault(bob, 'overview')).status).toBe(404);

    // A later choice replaces the earlier one.
    const own = await named(bob, 'overview', { label: 'my default' }, 'demo');
    await setDefault(bob, 'overview', own, 'demo');
    expect((await getDefault(bob, 'overview', 'demo')).body.id).toBe(own);
  });

  it('refuses to choose a view the caller cannot see, of another type, or that does not exist', async () => {
    const hidden = await named(ann, 'lists', { label: 'hidden' }, 'demo');
    expect((await setDefault(bob, 'lists', hidden, 'demo')).status).toBe(404);
    const progress = await named(bob, 'taskProgress', { label: 'p' }, 'demo');
    expect((await setDefault(bob, 'lists', progress, 'demo')).status).toBe(404);
    expect((await setDefault(bob, 'lists', newId(), 'demo')).status).toBe(404);
    const bad = await core.request('POST', url('lists', '/default'), { token: bob, body: { viewId: 'x' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['body', 'viewId']);
  });

  it('falls back to the working view when the chosen view goes private or away', async () => {
    const shared = await named(ann, 'reviews', { label: 'shared', visibility: 'public' }, 'demo');
    const bobsWorking = await create(bob, 'reviews', { label: 'bob working', settings: {} }, 'demo');
    expect((await setDefault(bob, 'reviews', shared, 'demo')).status).toBe(200);
    expect((await getDefault(bob, 'reviews', 'demo')).body.id).toBe(shared);
    // Made private by its owner, the view is no longer bob's to use.
    await core.request('PATCH', url('reviews', `/${shared}`, 'demo'), {
      token: ann,
      body: { visibility: 'private' },
    });
    expect((await getDefault(bob, 'reviews', 'demo')).body.id).toBe(bobsWorking);

    const annsWorking = await create(ann, 'reviews', { label: 'ann working', settings: {} }, 'demo');
    expect((await setDefault(ann, 'reviews', shared, 'demo')).status).toBe(200);
    expect((await getDefault(ann, 'reviews', 'demo')).body.id).toBe(shared);
    await core.request('DELETE', url('reviews', `/${shared}`, 'demo'), { token: ann });
    expect((await getDefault(ann, 'reviews', 'demo')).body.id).toBe(annsWorking);
  });
});

describe('renamed users', () => {
  it('keep their views, working view and default choices', async () => {
    const token = await seedUser(core, 'carl', { accessGroups: { demo: ['artist'] } });
    const view = await named(token, 'lists', { label: "carl's" }, 'demo');
    const working = await create(token, 'lists', { label: 'carl working', settings: {} });
    await core.request('POST', url('lists', '/default', 'demo'), { token, body: { viewId: view } });

    const res = await core.request('PATCH', '/api/users/carl/rename', {
      token: manager,
      body: { newName: 'karl' },
    });
    expect(res.status).toBe(204);
    const karl = (
      await core.request('POST', '/api/auth/login', { body: { name: 'karl', password: PASSWORD } })
    ).body.token as string;
    // The rename is followed just after it commits.
    let owner: string | undefined;
    for (let i = 0; i < 50 && owner !== 'karl'; i++) {
      owner = (await get(karl, 'lists', view, 'demo')).body.owner;
      if (owner !== 'karl') await new Promise((done) => setTimeout(done, 20));
    }
    expect(owner).toBe('karl');
    expect((await core.request('GET', url('lists', '/working'), { token: karl })).body.id).toBe(working);
    expect((await core.request('GET', url('lists', '/default', 'demo'), { token: karl })).body.id).toBe(view);
  });
});
