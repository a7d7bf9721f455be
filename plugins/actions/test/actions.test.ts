import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, fixedUserSource, type TestCore } from '@pipewright/core/testing';
import { BadRequest, actionResponse, defineAddon, type EventMessage } from '@pipewright/sdk';

const PASSWORD = 'correct horse battery';
const SERVICE_KEY = '0123456789abcdef0123456789abcdef';
const FOLDER_A = 'a'.repeat(32);
const FOLDER_B = 'b'.repeat(32);
const TASK = 'c'.repeat(32);
const VERSIONS = ['d'.repeat(32), 'e'.repeat(32)];

// Users of every role, without the users addon: alice works on demo, eve on nothing, boss manages, root administers.
const userSource = fixedUserSource(
  'action-users',
  {
    alice: { accessGroups: { demo: ['artist'] } },
    eve: {},
    boss: { isManager: true },
    root: { isAdmin: true },
    svc: { isService: true },
  },
  { password: PASSWORD, serviceKey: SERVICE_KEY },
);

// An addon contributing simple actions (matched by the server) and a dynamic one (decided per context).
const contributor = defineAddon({
  name: 'dcc',
  version: '2.1.0',
  title: 'DCC launcher (fixture)',
  actions: {
    simple: ({ projectName }) => [
      {
        identifier: 'open-nuke',
        label: 'Open in Nuke',
        category: 'Applications',
        order: 10,
        icon: { type: 'material-symbols', name: 'movie' },
        entityType: 'task',
        entitySubtypes: ['Compositing', 'Roto'],
      },
      {
        identifier: 'publish-folders',
        label: 'Publish folders',
        entityType: 'folder',
        allowMultiselection: true,
      },
      { identifier: 'sync', label: `Sync ${projectName ?? 'studio'}`, order: 50 },
      { identifier: 'cleanup', label: 'Clean up', adminOnly: true },
      { identifier: 'report', label: 'Report', managerOnly: true, entityType: 'folder' },
      { identifier: 'show-config', label: 'Show settings', configFields: [{ type: 'text', name: 'path' }] },
      { identifier: 'archive', label: 'Archive project', entityType: 'project' },
      {
        identifier: 'play-review',
        label: 'Play review',
        entityType: 'list',
        entitySubtypes: ['version:review'],
      },
      { identifier: 'export-list', label: 'Export list', entityType: 'list', entitySubtypes: ['folder'] },
    ],
    dynamic: (context) =>
      context.entityType === 'version' && context.entityIds?.length
        ? [
            {
              identifier: 'review',
              label: `Review ${context.entityIds.length} versions`,
              order: 5,
              groupLabel: 'Review',
            },
          ]
        : [],
    async execute(executor) {
      switch (executor.identifier) {
        case 'open-nuke':
          return executor.launcher(['--task', ...(executor.context.entityIds ?? [])], {
            message: 'Starting Nuke',
          });
        case 'sync':
          return actionResponse.navigate(`/projects/${executor.context.projectName}/overview`, 'Synced');
        case 'review': {
          const note = executor.context.formData?.note;
          if (note === undefined) {
            return actionResponse.form({
              title: 'Review note',
              fields: [{ type: 'text', name: 'note', label: 'Note' }],
            });
          }
          return actionResponse.simple(`Reviewed: ${String(note)}`);
        }
        case 'show-config':
          return actionResponse.query(await executor.getConfig());
        case 'publish-folders':
          throw new BadRequest('Nothing to publish');
        default:
          return actionResponse.redirect('https://example.com/help', { newTab: true });
      }
    },
  },
});

// One addon whose listing fails: everyone else's actions must still be listed.
const flaky = defineAddon({
  name: 'flaky',
  version: '0.1.0',
  title: 'Flaky actions (fixture)',
  actions: {
    simple: () => {
      throw new Error('settings unavailable');
    },
    dynamic: () => [{ identifier: '', label: 'no identifier' }],
    execute: () => actionResponse.simple(),
  },
});

let core: TestCore;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  core = await bootTestCore({
    addons: ['actions', 'events', 'action-users', 'dcc', 'flaky'],
    extraAddons: [userSource, contributor, flaky],
  });
  for (const name of ['alice', 'eve', 'boss', 'root']) {
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
    tokens[name] = res.body.token;
  }
});
afterAll(() => core.close());

const list = (body: Record<string, unknown>, mode?: string, token = tokens.alice) =>
  core.request('POST', `/api/actions/list${mode ? `?mode=${mode}` : ''}`, { token, body });
const identifiers = (res: { body: any }) => res.body.actions.map((a: any) => a.identifier);
const which = (identifier: string, extra = '') =>
  `addonName=dcc&addonVersion=2.1.0&identifier=${identifier}${extra}`;
const execute = (identifier: string, body: Record<string, unknown>, token = tokens.alice) =>
  core.request('POST', `/api/actions/execute?${which(identifier)}`, { token, body });
const comp = { projectName: 'demo', entityType: 'task', entityIds: [TASK], entitySubtypes: ['Compositing'] };

describe('listing', () => {
  it('answers simple actions matching the context by default, with defaults filled in', async () => {
    const res = await list(comp);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      variant: 'production',
      actions: [
        {
          identifier: 'open-nuke',
          label: 'Open in Nuke',
          groupLabel: null,
          category: 'Applications',
          order: 10,
          icon: { type: 'material-symbols', name: 'movie' },
          featured: false,
          adminOnly: false,
          managerOnly: false,
          configFields: null,
          addonName: 'dcc',
          addonVersion: '2.1.0',
          variant: 'production',
          mode: 'simple',
        },
      ],
    });
  });

  it('matches entity type, subtypes and selection size', async () => {
    expect(identifiers(await list({ ...comp, entitySubtypes: ['Animation'] }))).toEqual([]);
    expect(identifiers(await list({ ...comp, entitySubtypes: null }))).toEqual([]);
    expect(identifiers(await list({ ...comp, entityIds: [TASK, FOLDER_A] }))).toEqual([]);
    const folders = { projectName: 'demo', entityType: 'folder', entityIds: [FOLDER_A, FOLDER_B] };
    expect(identifiers(await list(folders))).toEqual(['publish-folders']);
    // No entity type: the project-level actions, sorted by order then label.
    expect(identifiers(await list({ projectName: 'demo' }))).toEqual(['sync', 'show-config']);
    expect(identifiers(await list({}))).toEqual(['sync', 'show-config']);
    expect((await list({ projectName: 'demo' })).body.actions[0].label).toBe('Sync demo');
    // An entity type with nothing selected selects nothing.
    expect(identifiers(await list({ ...folders, entityIds: [] }))).toEqual([]);
    expect(identifiers(await list({ ...folders, entityIds: null }))).toEqual([]);
  });

  it("lists project-wide actions for the project context, as the overview of AYON's web app asks", async () => {
    expect(identifiers(await list({ projectName: 'demo', entityType: 'project' }))).toEqual(['archive']);
    expect(identifiers(await list({ projectName: 'demo', entityType: 'project', entityIds: [] }))).toEqual([
      'archive',
    ]);
    // Without a project the entity fields mean nothing: the studio's global actions.
    expect(identifiers(await list({ projectName: null, entityType: 'project' }))).toEqual([
      'sync',
      'show-config',
    ]);
  });

  it('matches lists by the entity type of their items and, when the action names one, the list type', async () => {
    const lists = (entitySubtypes: string[]) =>
      list({ projectName: 'demo', entityType: 'list', entityIds: [FOLDER_A], entitySubtypes });
    expect(identifiers(await lists(['version:review']))).toEqual(['play-review']);
    expect(identifiers(await lists(['version:generic']))).toEqual([]);
    expect(identifiers(await lists(['folder:generic']))).toEqual(['export-list']);
    expect(identifiers(await lists(['folder']))).toEqual(['export-list']);
    expect(identifiers(await lists([]))).toEqual([]);
  });

  it('takes names and ids as plain strings, as AYON does: one that names nothing finds nothing', async () => {
    const res = await list({ projectName: 'demo', entityType: 'folder', entityIds: ['not-an-id'] });
    expect(res.status).toBe(200);
    expect(identifiers(res)).toEqual(['publish-folders']);
    const odd = await core.request('POST', '/api/actions/list', {
      token: tokens.root,
      body: { projectName: 'no such project', entitySubtypes: ['Any label, even this one'] },
    });
    expect(odd.status).toBe(200);
  });

  it('lists dynamic actions with mode dynamic, both kinds with mode all', async () => {
    const versions = { projectName: 'demo', entityType: 'version', entityIds: VERSIONS };
    expect(identifiers(await list(versions))).toEqual([]);
    const dynamic = await list(versions, 'dynamic');
    expect(dynamic.body.actions).toEqual([
      expect.objectContaining({
        identifier: 'review',
        label: 'Review 2 versions',
        groupLabel: 'Review',
        mode: 'dynamic',
        order: 5,
      }),
    ]);
    expect(identifiers(await list(comp, 'dynamic'))).toEqual([]);
    const all = await list({ projectName: 'demo', entityType: 'version', entityIds: VERSIONS }, 'all');
    expect(all.body.actions.map((a: any) => [a.identifier, a.mode])).toEqual([['review', 'dynamic']]);
    const allTask = await list(comp, 'all');
    expect(identifiers(allTask)).toEqual(['open-nuke']);
  });

  it('shows admin-only and manager-only actions to those roles only', async () => {
    expect(identifiers(await list({}, 'simple', tokens.root))).toEqual(['sync', 'cleanup', 'show-config']);
    expect(identifiers(await list({}, 'simple', tokens.boss))).toEqual(['sync', 'show-config']);
    const folder = { projectName: 'demo', entityType: 'folder', entityIds: [FOLDER_A] };
    expect(identifiers(await list(folder, 'simple', tokens.boss))).toEqual(['publish-folders', 'report']);
    expect(identifiers(await list(folder))).toEqual(['publish-folders']);
    const asService = await core.request('POST', '/api/actions/list', { apiKey: SERVICE_KEY, body: {} });
    expect(identifiers(asService)).toEqual(['sync', 'cleanup', 'show-config']);
  });

  it('echoes the variant and keeps users out of projects they have no access to', async () => {
    const staging = await core.request('POST', '/api/actions/list?variant=staging', {
      token: tokens.alice,
      body: {},
    });
    expect(staging.body.variant).toBe('staging');
    expect(staging.body.actions.every((a: any) => a.variant === 'staging')).toBe(true);
    expect((await list({ projectName: 'demo' }, 'simple', tokens.eve)).status).toBe(403);
    // Project names compare case-insensitively, as everywhere else.
    expect((await list({ projectName: 'DEMO' })).status).toBe(200);
    expect((await list({ projectName: 'other' }, 'simple', tokens.boss)).status).toBe(200);
  });

  it('gives managers every simple action with where it applies', async () => {
    const res = await core.request('GET', '/api/actions/manage', { token: tokens.boss });
    expect(res.status).toBe(200);
    expect(identifiers(res)).toEqual([
      'open-nuke',
      'sync',
      'archive',
      'cleanup',
      'export-list',
      'play-review',
      'publish-folders',
      'report',
      'show-config',
    ]);
    expect(res.body.actions[0]).toMatchObject({
      entityType: 'task',
      entitySubtypes: ['Compositing', 'Roto'],
      allowMultiselection: false,
      mode: 'simple',
    });
    expect(res.body.actions.find((a: any) => a.identifier === 'sync')).toMatchObject({
      label: 'Sync studio',
      entityType: null,
      entitySubtypes: null,
    });
    expect((await core.request('GET', '/api/actions/manage', { token: tokens.alice })).status).toBe(403);
  });
});

describe('executing', () => {
  let launch: any;

  it('hands a launcher action over with a 64-hex token in a pending action.launcher event', async () => {
    const heard: EventMessage[] = [];
    const stop = core.events.subscribe('action.launcher', (m) => void heard.push(m));
    launch = await execute('open-nuke', comp);
    stop();
    expect(launch.status).toBe(200);
    expect(launch.body).toEqual({
      type: 'launcher',
      success: true,
      message: 'Starting Nuke',
      uri: expect.stringMatching(/^ayon-launcher:\/\/action\?server_url=.+&token=[0-9a-f]{64}$/),
      payload: {
        uri: launch.body.uri,
        token: expect.stringMatching(/^[0-9a-f]{64}$/),
        eventId: expect.any(String),
      },
    });
    expect(launch.body.uri.endsWith(launch.body.payload.token)).toBe(true);
    const event = await core.request('GET', `/api/events/${launch.body.payload.eventId}`, {
      token: tokens.alice,
    });
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({
      topic: 'action.launcher',
      hash: launch.body.payload.token,
      status: 'pending',
      project: 'demo',
      user: 'alice',
      payload: { args: ['--task', TASK], identifier: 'open-nuke', addonName: 'dcc', addonVersion: '2.1.0' },
    });
    // Subscribers hear of it, never with the token.
    expect(heard).toHaveLength(1);
    expect(JSON.stringify(heard[0].summary)).not.toContain(launch.body.payload.token);
  });

  it('lets the launcher take it once: the event goes to in_progress and the payload comes back', async () => {
    const { token, eventId } = launch.body.payload;
    const heard: EventMessage[] = [];
    const stop = core.events.subscribe('action.launcher', (m) => void heard.push(m));
    const taken = await core.request('GET', `/api/actions/take/${token}`, { token: tokens.alice });
    stop();
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({
      eventId,
      actionIdentifier: 'open-nuke',
      args: ['--task', TASK],
      context: {
        projectName: 'demo',
        entityType: 'task',
        entityIds: [TASK],
        entitySubtypes: ['Compositing'],
        formData: null,
      },
      addonName: 'dcc',
      addonVersion: '2.1.0',
      variant: 'production',
      userName: 'alice',
    });
    expect((await core.request('GET', `/api/events/${eventId}`, { token: tokens.alice })).body.status).toBe(
      'in_progress',
    );
    expect(heard.map((m) => m.status)).toEqual(['in_progress']);
    // A second launcher with the same token gets nothing.
    expect((await core.request('GET', `/api/actions/take/${token}`, { token: tokens.alice })).status).toBe(
      409,
    );
  });

  it('aborts a taken action with the launcher message, then refuses to abort it again', async () => {
    const { token, eventId } = launch.body.payload;
    const res = await core.request('POST', `/api/actions/abort/${token}`, {
      token: tokens.alice,
      body: { message: 'Nuke is not installed' },
    });
    expect(res.status).toBe(204);
    const event = (await core.request('GET', `/api/events/${eventId}`, { token: tokens.alice })).body;
    expect(event).toMatchObject({ status: 'aborted', description: 'Nuke is not installed' });
    expect(
      (await core.request('POST', `/api/actions/abort/${token}`, { token: tokens.alice, body: {} })).status,
    ).toBe(409);
  });

  it('aborts a pending action with the default message, with or without a body', async () => {
    for (const body of [{}, undefined]) {
      const started = await execute('open-nuke', comp);
      const res = await core.request('POST', `/api/actions/abort/${started.body.payload.token}`, {
        token: tokens.alice,
        body,
      });
      expect(res.status).toBe(204);
      const event = await core.events.get(started.body.payload.eventId);
      expect(event).toMatchObject({ status: 'aborted', description: 'Action aborted' });
      expect(
        (
          await core.request('GET', `/api/actions/take/${started.body.payload.token}`, {
            token: tokens.alice,
          })
        ).status,
      ).toBe(409);
    }
  });

  it('keeps tokens to their owner (and admins and services), and answers 404 for unknown ones', async () => {
    const started = await execute('open-nuke', comp);
    const { token } = started.body.payload;
    expect((await core.request('GET', `/api/actions/take/${token}`, { token: tokens.boss })).status).toBe(
      403,
    );
    expect(
      (await core.request('POST', `/api/actions/abort/${token}`, { token: tokens.eve, body: {} })).status,
    ).toBe(403);
    const unknown = 'f'.repeat(64);
    const missing = await core.request('GET', `/api/actions/take/${unknown}`, { token: tokens.alice });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, detail: 'Invalid action token' });
    expect(
      (await core.request('POST', `/api/actions/abort/${unknown}`, { token: tokens.alice, body: {} })).status,
    ).toBe(404);
    // An event of another topic with a token-like hash is not an action.
    await core.events.emit({ topic: 'other.thing', hash: '9'.repeat(64), user: 'alice' });
    expect(
      (await core.request('GET', `/api/actions/take/${'9'.repeat(64)}`, { token: tokens.alice })).status,
    ).toBe(404);
    const bySevice = await core.request('GET', `/api/actions/take/${token}`, { apiKey: SERVICE_KEY });
    expect(bySevice.status).toBe(200);
    expect(bySevice.body.userName).toBe('alice');
  });

  it('answers the other response types', async () => {
    const nav = await execute('sync', { projectName: 'demo' });
    expect(nav.body).toEqual({
      type: 'navigate',
      success: true,
      message: 'Synced',
      payload: { uri: '/projects/demo/overview' },
    });
    const versions = { projectName: 'demo', entityType: 'version', entityIds: VERSIONS };
    const form = await execute('review', versions);
    expect(form.body).toMatchObject({
      type: 'form',
      success: true,
      payload: {
        title: 'Review note',
        fields: [{ type: 'text', name: 'note', label: 'Note' }],
        submitLabel: 'Submit',
      },
    });
    const done = await execute('review', { ...versions, formData: { note: 'looks good' } });
    expect(done.body).toEqual({
      type: 'simple',
      success: true,
      message: 'Reviewed: looks good',
      payload: null,
    });
    const redirect = await execute('cleanup', {}, tokens.root);
    expect(redirect.body).toEqual({
      type: 'redirect',
      success: true,
      message: null,
      payload: { uri: 'https://example.com/help', newTab: true },
    });
  });

  it('refuses what it cannot run: unknown addon or action, roles, projects, dynamic actions out of context', async () => {
    expect((await execute('nope', {})).status).toBe(404);
    const otherVersion = await core.request(
      'POST',
      '/api/actions/execute?addonName=dcc&addonVersion=9.9.9&identifier=sync',
      {
        token: tokens.alice,
        body: {},
      },
    );
    expect(otherVersion.status).toBe(404);
    expect((await execute('cleanup', {})).status).toBe(403);
    expect((await execute('sync', { projectName: 'demo' }, tokens.eve)).status).toBe(403);
    // The dynamic action exists only where its addon offers it.
    expect((await execute('review', comp)).status).toBe(404);
    // A typed error thrown by the addon becomes its HTTP answer.
    const refused = await execute('publish-folders', {
      projectName: 'demo',
      entityType: 'folder',
      entityIds: [FOLDER_A],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe('Nothing to publish');
  });
});

describe('settings of an action', () => {
  const config = (body: Record<string, unknown>, token = tokens.alice, identifier = 'show-config') =>
    core.request('POST', `/api/actions/config?${which(identifier)}`, { token, body });

  it('round-trips per user and per project, reading back when no value is given', async () => {
    expect((await config({ projectName: 'demo' })).body).toEqual({});
    const saved = await config({ projectName: 'demo', value: { path: '/mnt/demo' } });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ path: '/mnt/demo' });
    expect((await config({ projectName: 'demo' })).body).toEqual({ path: '/mnt/demo' });
    expect((await config({ projectName: 'demo', value: null })).body).toEqual({ path: '/mnt/demo' });
    // Another project, no project, another user: each their own.
    expect((await config({ projectName: 'other' }, tokens.boss)).body).toEqual({});
    expect((await config({})).body).toEqual({});
    expect((await config({ projectName: 'demo' }, tokens.root)).body).toEqual({});
    await config({ value: { path: '/studio' } });
    expect((await config({})).body).toEqual({ path: '/studio' });
    // Saving again replaces.
    await config({ projectName: 'demo', value: { path: '/mnt/new', depth: 2 } });
    expect((await config({ projectName: 'demo' })).body).toEqual({ path: '/mnt/new', depth: 2 });
    const rows = await core.db
      .selectFrom('action_config')
      .selectAll()
      .where('user_name', '=', 'alice')
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('hands the settings to the action when it runs', async () => {
    const res = await execute('show-config', { projectName: 'demo' });
    expect(res.body).toEqual({
      type: 'query',
      success: true,
      message: null,
      payload: { query: { path: '/mnt/new', depth: 2 } },
    });
  });

  it('refuses unknown addons and projects without access', async () => {
    const res = await core.request(
      'POST',
      '/api/actions/config?addonName=nope&addonVersion=1.0.0&identifier=x',
      {
        token: tokens.alice,
        body: {},
      },
    );
    expect(res.status).toBe(404);
    expect((await config({ projectName: 'demo', value: { a: 1 } }, tokens.eve)).status).toBe(403);
  });
});

describe('a failing contributor', () => {
  it('is skipped (and its malformed actions dropped) instead of breaking the list', async () => {
    const res = await list({ projectName: 'demo' }, 'all');
    expect(res.status).toBe(200);
    expect(res.body.actions.every((a: any) => a.addonName === 'dcc')).toBe(true);
  });
});

describe('access and validation', () => {
  const token = 'a'.repeat(64);

  it('answers 401 without login on every route', async () => {
    const calls: [string, string, unknown][] = [
      ['POST', '/api/actions/list', {}],
      ['GET', '/api/actions/manage', undefined],
      ['POST', `/api/actions/config?${which('sync')}`, {}],
      ['POST', `/api/actions/execute?${which('sync')}`, {}],
      ['GET', `/api/actions/take/${token}`, undefined],
      ['POST', `/api/actions/abort/${token}`, {}],
    ];
    for (const [method, url, body] of calls) {
      const res = await core.request(method, url, { body });
      expect([url, res.status]).toEqual([url, 401]);
      expect(res.body).toEqual({ code: 401, detail: expect.any(String) });
    }
  });

  const locs = (res: { status: number; body: any }) => {
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(expect.any(String));
    return [...new Set(res.body.errors.map((e: any) => e.loc.join('.')))];
  };
  const call = (method: string, url: string, body?: unknown) =>
    core.request(method, url, { token: tokens.alice, body });

  it('answers 422 for bad input on list and manage', async () => {
    expect(locs(await call('POST', '/api/actions/list?mode=everything', {}))).toEqual(['query.mode']);
    expect(locs(await call('POST', '/api/actions/list', { entityType: 'shot' }))).toContain(
      'body.entityType',
    );
    expect(locs(await call('POST', '/api/actions/list', { entityIds: [1] }))).toContain('body.entityIds.0');
    expect(locs(await call('POST', '/api/actions/list', { projectName: 7 }))).toContain('body.projectName');
    expect(locs(await call('POST', '/api/actions/list', { formData: 'text' }))).toContain('body.formData');
    expect(locs(await call('POST', '/api/actions/list', [1]))).toEqual(['body']);
    // AYON takes any string as a variant, so an odd one meets the access check (managers only) rather than a 422.
    expect((await call('GET', '/api/actions/manage?variant=no%20spaces')).status).toBe(403);
  });

  it('answers 422 for bad input on config and execute', async () => {
    for (const route of ['config', 'execute']) {
      expect(locs(await call('POST', `/api/actions/${route}?addonName=dcc&addonVersion=2.1.0`, {}))).toEqual([
        'query.identifier',
      ]);
      // Any variant is valid input, as in AYON (an unknown one just has no settings of its own).
      expect((await call('POST', `/api/actions/${route}?${which('sync')}&variant=`, {})).status).toBe(200);
      // Any addon name is valid input, as in AYON: one that contributes no actions is not found.
      expect(
        (await call('POST', `/api/actions/${route}?addonName=DCC!&addonVersion=2.1.0&identifier=x`, {}))
          .status,
      ).toBe(404);
      expect(
        locs(await call('POST', `/api/actions/${route}?${which('sync')}`, { entitySubtypes: 'Compositing' })),
      ).toContain('body.entitySubtypes');
    }
    expect(locs(await call('POST', `/api/actions/config?${which('sync')}`, { value: 'text' }))).toContain(
      'body.value',
    );
    expect(locs(await call('POST', `/api/actions/config?${which('sync')}`, { value: [1, 2] }))).toContain(
      'body.value',
    );
  });

  it('answers 422 for tokens that are not 64 lowercase hex characters, and for bad abort bodies', async () => {
    for (const bad of ['abc', 'A'.repeat(64), 'g'.repeat(64), 'a'.repeat(65)]) {
      expect(locs(await call('GET', `/api/actions/take/${bad}`))).toEqual(['path.token']);
      expect(locs(await call('POST', `/api/actions/abort/${bad}`, {}))).toEqual(['path.token']);
    }
    expect(locs(await call('POST', `/api/actions/abort/${token}`, { message: 42 }))).toEqual([
      'body.message',
    ]);
    // AYON bounds no message: a long one passes, and this token, never handed out, is not found.
    expect((await call('POST', `/api/actions/abort/${token}`, { message: 'x'.repeat(2001) })).status).toBe(
      404,
    );
  });
});

describe('the OpenAPI document', () => {
  it('lists every route under the Actions tag', async () => {
    const doc = (await core.request('GET', '/openapi.json')).body;
    const routes = [
      ['post', '/api/actions/list'],
      ['get', '/api/actions/manage'],
      ['post', '/api/actions/config'],
      ['post', '/api/actions/execute'],
      ['get', '/api/actions/take/{token}'],
      ['post', '/api/actions/abort/{token}'],
    ];
    for (const [method, path] of routes)
      expect([path, doc.paths[path]?.[method]?.tags]).toEqual([path, ['Actions']]);
  });
});
