import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, type TestCore } from '@pipewright/core/testing';
import { DEMO_DEFAULTS } from './addons.js';
import { PROJECT_USER, bootSettingsCore, createProjects } from './fixtures.js';

// Defaults, studio, project and site levels of one addon version: what is stored and what callers read.
let core: TestCore;
let admin: string;
let manager: string;
let artist: string;
let other: string;

beforeAll(async () => {
  const boot = await bootSettingsCore();
  core = boot.core;
  admin = await boot.login('root', { isAdmin: true });
  manager = await boot.login('boss', { isManager: true });
  artist = await boot.login('artie', PROJECT_USER);
  other = await boot.login('olive', PROJECT_USER);
  await createProjects(core, manager, 'alpha', 'beta');
});
afterAll(() => core.close());

const demo = '/api/addons/demo/1.0.0';
const get = async (url: string, token = manager) => {
  const res = await core.request('GET', url, { token });
  expect(res.status).toBe(200);
  return res.body;
};
const post = (url: string, body: unknown, token = manager) => core.request('POST', url, { token, body });
const raw = (suffix = '', query = '') => get(`${demo}/rawOverrides${suffix}${query}`, admin);
const events = () =>
  core.db
    .selectFrom('events')
    .selectAll()
    .where('topic', '=', 'settings.changed')
    .orderBy('creation_order')
    .execute();

describe('defaults', () => {
  it('builds the settings from the schema defaults, an object default winning over its properties', async () => {
    expect(await get(`${demo}/settings`, artist)).toEqual(DEMO_DEFAULTS);
    expect(await raw()).toEqual({});
  });

  it('answers the schema as JSON Schema titled after the addon', async () => {
    const schema = await get(`${demo}/schema`, artist);
    expect(schema).toMatchObject({
      type: 'object',
      title: 'Demo Addon',
      properties: { fps: { type: 'number', default: 25, minimum: 1 }, render: { type: 'object' } },
    });
    expect(await get(`${demo}/schema/alpha`, artist)).toEqual(schema);
    expect(await get(`${demo}/siteSettings/schema`, artist)).toMatchObject({
      title: 'Demo Addon',
      properties: { threads: { type: 'integer', default: 2 } },
    });
  });

  it('keeps versions apart: another version has its own defaults', async () => {
    expect(await get('/api/addons/demo/2.0.0/settings')).toEqual({ ...DEMO_DEFAULTS, fps: 24 });
  });
});

describe('studio overrides', () => {
  it('stores only what differs from the defaults and announces the change', async () => {
    const body = { ...DEMO_DEFAULTS, fps: 30, render: { ...DEMO_DEFAULTS.render, samples: 8 } };
    const res = await post(`${demo}/settings`, body);
    expect(res.status).toBe(204);
    expect(await raw()).toEqual({ fps: 30, render: { samples: 8 } });
    expect(await get(`${demo}/settings`, artist)).toEqual(body);
    const [event] = await events();
    expect(event).toMatchObject({
      user_name: 'boss',
      project_name: null,
      summary: { addonName: 'demo', addonVersion: '1.0.0', variant: 'production', projectName: null },
    });
  });

  it('stores nothing for a value equal to the inherited one, and keeps keys the body leaves out', async () => {
    expect((await post(`${demo}/settings`, { label: 'studio', enabled: false })).status).toBe(204);
    expect(await raw()).toEqual({ fps: 30, render: { samples: 8 }, enabled: false });
    expect((await get(`${demo}/settings`)).fps).toBe(30);
  });

  it('replaces lists and dictionaries whole, and merges objects key by key', async () => {
    await post(`${demo}/settings`, {
      tags: ['x'],
      paths: { cache: '/cache' },
      profiles: [{ name: 'hero', level: 3 }],
      render: { output: { format: 'png' } },
    });
    const settings = await get(`${demo}/settings`);
    expect(settings.tags).toEqual(['x']);
    expect(settings.paths).toEqual({ cache: '/cache' });
    expect(settings.profiles).toEqual([{ name: 'hero', level: 3 }]);
    expect(settings.render).toEqual({ engine: 'arnold', samples: 8, output: { format: 'png', depth: 16 } });
    expect(await raw()).toEqual({
      fps: 30,
      enabled: false,
      tags: ['x'],
      paths: { cache: '/cache' },
      profiles: [{ name: 'hero', level: 3 }],
      render: { samples: 8, output: { format: 'png' } },
    });
  });

  it('refuses invalid values with 422 and the paths inside the settings, storing nothing', async () => {
    const before = await raw();
    const res = await post(`${demo}/settings`, { fps: 'fast', render: { samples: 0 }, tags: [1] });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/^Invalid settings: /);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['fps'], type: 'type' }),
        expect.objectContaining({ loc: ['render', 'samples'], type: 'minimum' }),
        expect.objectContaining({ loc: ['tags', 0], type: 'type' }),
      ]),
    );
    expect(await raw()).toEqual(before);
    const notObject = await core.request('POST', `${demo}/settings`, { token: manager, body: [1, 2] });
    expect(notObject.status).toBe(422);
  });

  it('keeps every change of saves made at the same time', async () => {
    const variant = '?variant=concurrent';
    const changes = [
      { fps: 12 },
      { label: 'l' },
      { enabled: false },
      { render: { engine: 'e' } },
      { tags: ['t'] },
    ];
    const answers = await Promise.all(changes.map((body) => post(`${demo}/settings${variant}`, body)));
    expect(answers.map((res) => res.status)).toEqual([204, 204, 204, 204, 204]);
    expect(await raw('', variant)).toEqual({
      fps: 12,
      label: 'l',
      enabled: false,
      render: { engine: 'e' },
      tags: ['t'],
    });
  });

  it('keeps variants apart', async () => {
    expect(await get(`${demo}/settings?variant=staging`)).toEqual(DEMO_DEFAULTS);
    await post(`${demo}/settings?variant=staging`, { label: 'staged' });
    expect((await get(`${demo}/settings?variant=staging`)).label).toBe('staged');
    expect((await get(`${demo}/settings`)).label).toBe('studio');
    expect(await raw('', '?variant=staging')).toEqual({ label: 'staged' });
  });
});

describe('the override map, pins and removal', () => {
  it('lists the studio overrides keyed by form field, in AYON\u2019s shape', async () => {
    const map = await get(`${demo}/overrides`);
    expect(map.root_fps).toEqual({ path: ['fps'], value: 30, level: 'studio', inGroup: null });
    expect(map.root_render).toEqual({ path: ['render'], type: 'branch', level: 'studio', inGroup: null });
    expect(map.root_render_samples).toEqual({
      path: ['render', 'samples'],
      value: 8,
      level: 'studio',
      inGroup: null,
    });
    expect(map.root_render_output_format).toMatchObject({ value: 'png', level: 'studio' });
    expect(map.root_tags).toEqual({ path: ['tags'], type: 'list', level: 'studio', inGroup: null });
    expect(map.root_tags_0).toEqual({ path: ['tags', '0'], value: 'x', level: 'default', inGroup: ['tags'] });
    expect(map.root_profiles_0_name).toEqual({
      path: ['profiles', '0', 'name'],
      value: 'hero',
      level: 'studio',
      inGroup: ['profiles'],
    });
    expect(map.root_label).toBeUndefined();
    expect(map.root_render_engine).toBeUndefined();
  });

  it('pins the current value, which then stays overridden when saved again', async () => {
    expect((await post(`${demo}/overrides`, { action: 'pin', path: ['label'] })).status).toBe(204);
    expect((await raw()).label).toBe('studio');
    await post(`${demo}/settings`, { label: 'studio' });
    expect((await raw()).label).toBe('studio');
    // Pinning a key inside an object pins that key only.
    await post(`${demo}/overrides`, { action: 'pin', path: ['render', 'engine'] });
    expect((await raw()).render).toEqual({ samples: 8, engine: 'arnold', output: { format: 'png' } });
  });

  it('pins and unpins through the editor\u2019s __pinned_fields__ and __unpinned_fields__', async () => {
    await post(`${demo}/settings`, {
      __pinned_fields__: [['limits', 'low']],
      __unpinned_fields__: [['label']],
    });
    const stored = await raw();
    expect(stored.limits).toEqual({ low: 1 });
    expect(stored.label).toBeUndefined();
  });

  it('removes one override, dropping objects left empty, back to the inherited value', async () => {
    await post(`${demo}/overrides`, { action: 'delete', path: ['limits', 'low'] });
    expect((await raw()).limits).toBeUndefined();
    await post(`${demo}/overrides`, { action: 'delete', path: ['render', 'samples'] });
    expect((await get(`${demo}/settings`)).render.samples).toBe(4);
    // Removing what is not overridden changes nothing, and neither does an empty path (pinned or removed).
    expect((await post(`${demo}/overrides`, { action: 'delete', path: ['nothing', 'here'] })).status).toBe(
      204,
    );
    const before = await raw();
    for (const action of ['delete', 'pin'])
      expect((await post(`${demo}/overrides`, { action, path: [] })).status).toBe(204);
    expect(await raw()).toEqual(before);
  });

  it('refuses to pin a path the schema does not have', async () => {
    const res = await post(`${demo}/overrides`, { action: 'pin', path: ['render', 'nope'] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'path']);
    expect((await post(`${demo}/overrides`, { action: 'move', path: ['fps'] })).status).toBe(422);
  });

  it('removes every override of a level with DELETE', async () => {
    const res = await core.request('DELETE', `${demo}/overrides`, { token: manager });
    expect(res.status).toBe(204);
    expect(await raw()).toEqual({});
    expect(await get(`${demo}/settings`)).toEqual(DEMO_DEFAULTS);
    expect(await raw('', '?variant=staging')).toEqual({ label: 'staged' });
  });
});

describe('raw overrides', () => {
  it('stores and answers exactly what an admin puts', async () => {
    const res = await core.request('PUT', `${demo}/rawOverrides`, {
      token: admin,
      body: { fps: 50, render: { engine: 'cycles' } },
    });
    expect(res.status).toBe(204);
    expect(await raw()).toEqual({ fps: 50, render: { engine: 'cycles' } });
    expect((await get(`${demo}/settings`)).render).toEqual({ ...DEMO_DEFAULTS.render, engine: 'cycles' });
  });
});

describe('project overrides', () => {
  it('lays project overrides over the studio ones and stores the difference from the studio values', async () => {
    const res = await post(`${demo}/settings/alpha`, {
      fps: 50,
      render: { samples: 16, output: { format: 'tif' } },
      tags: ['p'],
    });
    expect(res.status).toBe(204);
    // fps 50 equals the studio value: nothing stored for it.
    expect(await raw('/alpha')).toEqual({ render: { samples: 16, output: { format: 'tif' } }, tags: ['p'] });
    const settings = await get(`${demo}/settings/alpha`, artist);
    expect(settings.render).toEqual({ engine: 'cycles', samples: 16, output: { format: 'tif', depth: 16 } });
    expect(settings.tags).toEqual(['p']);
    expect(settings.fps).toBe(50);
    // The studio and other projects are untouched.
    expect((await get(`${demo}/settings`)).tags).toEqual(['a', 'b']);
    expect((await get(`${demo}/settings/beta`)).render.samples).toBe(4);
    const last = (await events()).at(-1);
    expect(last).toMatchObject({
      project_name: 'alpha',
      summary: { projectName: 'alpha', variant: 'production' },
    });
  });

  it('follows studio changes for what the project does not override', async () => {
    await core.request('PUT', `${demo}/rawOverrides`, {
      token: admin,
      body: { fps: 60, render: { engine: 'redshift' } },
    });
    const settings = await get(`${demo}/settings/alpha`);
    expect(settings.fps).toBe(60);
    expect(settings.render.engine).toBe('redshift');
    expect(settings.render.samples).toBe(16);
  });

  it('lists studio and project overrides together, the project\u2019s over the studio\u2019s', async () => {
    const map = await get(`${demo}/overrides/alpha`, artist);
    expect(map.root_fps).toMatchObject({ value: 60, level: 'studio' });
    expect(map.root_render).toMatchObject({ type: 'branch', level: 'project' });
    expect(map.root_render_engine).toMatchObject({ value: 'redshift', level: 'studio' });
    expect(map.root_render_samples).toMatchObject({ value: 16, level: 'project' });
    expect(map.root_tags).toMatchObject({ type: 'list', level: 'project' });
  });

  it('pins, removes and clears project overrides', async () => {
    await post(`${demo}/overrides/alpha`, { action: 'pin', path: ['fps'] });
    expect((await raw('/alpha')).fps).toBe(60);
    await post(`${demo}/overrides/alpha`, { action: 'delete', path: ['tags'] });
    expect((await raw('/alpha')).tags).toBeUndefined();
    expect((await core.request('DELETE', `${demo}/overrides/alpha`, { token: manager })).status).toBe(204);
    expect(await raw('/alpha')).toEqual({});
    expect(await get(`${demo}/settings/alpha`)).toEqual(await get(`${demo}/settings`));
  });

  it('answers 404 for a project that does not exist', async () => {
    const res = await core.request('GET', `${demo}/settings/nowhere`, { token: manager });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, detail: 'Project nowhere not found' });
    expect((await post(`${demo}/settings/nowhere`, { fps: 2 })).status).toBe(404);
  });
});

describe('site overrides inside a project', () => {
  it('lets a user override project settings for their own site only', async () => {
    await post(`${demo}/settings/alpha`, { siteRoot: '/projects' });
    const res = await post(
      `${demo}/settings/alpha?site_id=ws-1`,
      { siteRoot: '/Volumes/alpha', fps: 60 },
      artist,
    );
    expect(res.status).toBe(204);
    expect(await raw('/alpha', '?site_id=ws-1')).toEqual({}); // the admin's own site has nothing
    const mine = await get(`${demo}/settings/alpha?site=ws-1`, artist);
    expect(mine.siteRoot).toBe('/Volumes/alpha');
    expect((await get(`${demo}/settings/alpha`, artist)).siteRoot).toBe('/projects');
    expect((await get(`${demo}/settings/alpha?site_id=ws-1`, other)).siteRoot).toBe('/projects');
    expect((await get(`${demo}/settings/alpha?site_id=ws-2`, artist)).siteRoot).toBe('/projects');
    const stored = await core.db
      .selectFrom('settings_overrides')
      .select('data')
      .where('site_id', '=', 'ws-1')
      .where('user_name', '=', 'artie')
      .executeTakeFirstOrThrow();
    expect(stored.data).toEqual({ siteRoot: '/Volumes/alpha' });
  });

  it('lists the site overrides over the project ones and removes them', async () => {
    const map = await get(`${demo}/overrides/alpha?site_id=ws-1`, artist);
    expect(map.root_siteRoot).toMatchObject({ value: '/Volumes/alpha', level: 'site' });
    const site = `${demo}/overrides/alpha?site_id=ws-1`;
    expect((await core.request('DELETE', site, { token: artist })).status).toBe(204);
    expect((await get(`${demo}/settings/alpha?site_id=ws-1`, artist)).siteRoot).toBe('/projects');
  });
});

describe('site settings', () => {
  it('answers the defaults until the user saves some for a site', async () => {
    expect(await get(`${demo}/siteSettings?site_id=ws-1`, artist)).toEqual({
      cacheDir: '/tmp/cache',
      threads: 2,
    });
    expect(await get(`${demo}/siteSettings`, artist)).toEqual({ cacheDir: '/tmp/cache', threads: 2 });
  });

  it('saves per site and user, storing the difference from the defaults', async () => {
    const res = await core.request('PUT', `${demo}/siteSettings?site_id=ws-1`, {
      token: artist,
      body: { threads: 8 },
    });
    expect(res.status).toBe(204);
    expect(await get(`${demo}/siteSettings?site_id=ws-1`, artist)).toEqual({
      cacheDir: '/tmp/cache',
      threads: 8,
    });
    expect((await get(`${demo}/siteSettings?site_id=ws-1`, other)).threads).toBe(2);
    expect((await get(`${demo}/siteSettings?site_id=ws-2`, artist)).threads).toBe(2);
    const stored = await core.db
      .selectFrom('settings_overrides')
      .select('data')
      .where('site_id', '=', 'ws-1')
      .where('project_name', '=', '')
      .executeTakeFirstOrThrow();
    expect(stored.data).toEqual({ threads: 8 });
    // The whole value is sent: keys left out go back to their defaults.
    await core.request('PUT', `${demo}/siteSettings?site=ws-1`, {
      token: artist,
      body: { cacheDir: '/fast' },
    });
    expect(await get(`${demo}/siteSettings?site_id=ws-1`, artist)).toEqual({ cacheDir: '/fast', threads: 2 });
  });

  it('refuses invalid site settings and a missing site with 422', async () => {
    const bad = await core.request('PUT', `${demo}/siteSettings?site_id=ws-1`, {
      token: artist,
      body: { threads: 0 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['threads']);
    const noSite = await core.request('PUT', `${demo}/siteSettings`, { token: artist, body: { threads: 3 } });
    expect(noSite.status).toBe(422);
    expect(noSite.body.errors[0].loc).toEqual(['query', 'site_id']);
  });
});

describe('addons without settings, unknown addons and projects', () => {
  it('answers {} for an addon without settings, and refuses to save any', async () => {
    expect(await get('/api/addons/plain/1.0.0/settings')).toEqual({});
    expect(await get('/api/addons/plain/1.0.0/schema')).toEqual({});
    expect(await get('/api/addons/plain/1.0.0/overrides')).toEqual({});
    expect(
      (await core.request('GET', '/api/addons/plain/1.0.0/settings/alpha', { token: manager })).status,
    ).toBe(404);
    const res = await post('/api/addons/plain/1.0.0/settings', { a: 1 });
    expect(res.status).toBe(400);
  });

  it('answers 404 for an addon or version the server does not know', async () => {
    for (const url of [
      '/api/addons/nope/1.0.0/settings',
      '/api/addons/demo/9.9.9/settings',
      '/api/addons/demo/9.9.9/schema',
    ]) {
      const res = await core.request('GET', url, { token: manager });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(404);
    }
    expect((await post('/api/addons/demo/9.9.9/settings', { fps: 3 })).status).toBe(404);
    expect((await core.request('GET', '/api/addons/nope/1.0.0/rawOverrides', { token: admin })).status).toBe(
      404,
    );
    expect((await core.request('GET', '/api/addons/nope/1.0.0/siteSettings', { token: artist })).status).toBe(
      404,
    );
  });
});

describe('deleted projects and users', () => {
  it('forgets a project\u2019s overrides when the project is deleted', async () => {
    await post(`${demo}/settings/beta`, { label: 'beta' });
    expect(await raw('/beta')).toEqual({ label: 'beta' });
    expect((await core.request('DELETE', '/api/projects/beta', { token: manager })).status).toBe(204);
    await eventually(async () => {
      const rows = await core.db
        .selectFrom('settings_overrides')
        .select('data')
        .where('project_name', '=', 'beta')
        .execute();
      return rows.length === 0;
    });
  });
});
