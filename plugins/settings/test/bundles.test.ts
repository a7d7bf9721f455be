import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, type TestCore } from '@pipewright/core/testing';
import { DEMO_DEFAULTS } from './addons.js';
import { PROJECT_USER, bootSettingsCore, createBundle, createProjects } from './fixtures.js';

// Settings read and moved by bundle: GET /api/settings, the deprecated listings, migrateSettingsByBundle, the
// promotion of a staging bundle and a production bundle moving an addon to another version.
let core: TestCore;
let admin: string;
let manager: string;
let artist: string;

const demo1 = '/api/addons/demo/1.0.0';
const demo2 = '/api/addons/demo/2.0.0';

const get = async (url: string, token = artist) => {
  const res = await core.request('GET', url, { token });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.text}`);
  return res.body;
};
const save = async (url: string, body: unknown) => {
  const res = await core.request('POST', url, { token: manager, body });
  if (res.status !== 204) throw new Error(`POST ${url}: ${res.status} ${res.text}`);
};
const raw = (url: string) => get(url, admin);
const item = (body: any, name: string) => body.addons.find((a: any) => a.name === name);

beforeAll(async () => {
  const boot = await bootSettingsCore();
  core = boot.core;
  admin = await boot.login('root', { isAdmin: true });
  manager = await boot.login('boss', { isManager: true });
  artist = await boot.login('artie', PROJECT_USER);
  await createProjects(core, manager, 'alpha', 'beta');
  // ghost 9.9.9 is named but not installed: the bundle is forced through the check.
  await createBundle(
    core,
    admin,
    { name: 'prod1', addons: { demo: '1.0.0', plain: '1.0.0', ghost: '9.9.9' }, isProduction: true },
    true,
  );
  await createBundle(core, admin, {
    name: 'stage2',
    addons: { demo: '2.0.0', plain: '1.0.0' },
    isStaging: true,
  });
  await createBundle(core, admin, {
    name: 'dev_artie',
    addons: { demo: '2.0.0' },
    isDev: true,
    activeUser: 'artie',
  });
  await createBundle(core, admin, {
    name: 'proj_alpha',
    addons: { demo: '2.0.0', plain: '__disable__' },
    isProject: true,
  });

  await save(`${demo1}/settings`, { fps: 30 });
  await save(`${demo1}/settings/alpha`, { render: { samples: 12 } });
  await save(`${demo2}/settings?variant=staging`, { label: 'staging' });
  await save(`${demo2}/settings?variant=dev_artie`, { label: 'mine' });
});
afterAll(() => core.close());

describe('GET /api/settings', () => {
  it('answers the settings of every addon of the production bundle', async () => {
    const body = await get('/api/settings');
    expect(body.bundleName).toBe('prod1');
    expect(body.inheritedAddons).toEqual([]);
    expect(body.projectName).toBeUndefined();
    expect(body.addons.map((a: any) => a.title)).toEqual(['Demo Addon', 'ghost', 'Plain (no settings)']);
    expect(item(body, 'demo')).toEqual({
      name: 'demo',
      version: '1.0.0',
      title: 'Demo Addon',
      hasSettings: true,
      hasProjectSettings: true,
      hasProjectSiteSettings: true,
      hasSiteSettings: true,
      hasStudioOverrides: true,
      hasProjectOverrides: false,
      hasProjectSiteOverrides: false,
      settings: { ...DEMO_DEFAULTS, fps: 30 },
      isBroken: false,
    });
    expect(item(body, 'plain')).toEqual({
      name: 'plain',
      version: '1.0.0',
      title: 'Plain (no settings)',
      hasSettings: false,
      hasProjectSettings: false,
      hasProjectSiteSettings: false,
      hasSiteSettings: false,
      settings: {},
      isBroken: false,
    });
    expect(item(body, 'ghost')).toMatchObject({ version: '9.9.9', settings: {}, isBroken: false });
  });

  it('follows the variant to its bundle, or the bundle named', async () => {
    const staging = await get('/api/settings?variant=staging');
    expect(staging.bundleName).toBe('stage2');
    expect(item(staging, 'demo').settings).toEqual({ ...DEMO_DEFAULTS, fps: 24, label: 'staging' });
    const named = await get('/api/settings?bundle_name=stage2');
    expect(named.bundleName).toBe('stage2');
    expect(item(named, 'demo').settings).toEqual({ ...DEMO_DEFAULTS, fps: 24 });
    const dev = await get('/api/settings?variant=dev_artie');
    expect(dev.bundleName).toBe('dev_artie');
    expect(item(dev, 'demo').settings.label).toBe('mine');
  });

  it('reads an empty project_name as none, as AYON does', async () => {
    const studio = await get('/api/settings?variant=staging');
    const empty = await get('/api/settings?variant=staging&project_name=');
    expect(empty.projectName ?? null).toBe(null);
    expect(item(empty, 'demo').settings).toEqual(item(studio, 'demo').settings);
  });

  it('leaves the values out in summary mode', async () => {
    const body = await get('/api/settings?summary=true');
    expect(item(body, 'demo')).toMatchObject({ hasSettings: true, hasStudioOverrides: true, settings: {} });
  });

  it('answers project settings, with the caller\u2019s site overrides and site settings for a site', async () => {
    await core.request('POST', `${demo1}/settings/alpha?site_id=ws-1`, {
      token: artist,
      body: { siteRoot: '/w' },
    });
    await core.request('PUT', `${demo1}/siteSettings?site_id=ws-1`, { token: artist, body: { threads: 6 } });
    const project = await get('/api/settings?project_name=alpha');
    expect(project.projectName).toBe('alpha');
    expect(item(project, 'demo')).toMatchObject({
      hasStudioOverrides: true,
      hasProjectOverrides: true,
      hasProjectSiteOverrides: false,
      settings: { fps: 30, render: { ...DEMO_DEFAULTS.render, samples: 12 }, siteRoot: '/mnt' },
    });
    expect(item(project, 'demo').siteSettings).toBeUndefined();
    const site = await get('/api/settings?project_name=alpha&site_id=ws-1');
    expect(item(site, 'demo')).toMatchObject({
      hasProjectSiteOverrides: true,
      settings: { fps: 30, siteRoot: '/w' },
      siteSettings: { cacheDir: '/tmp/cache', threads: 6 },
    });
    // Another user on the same site sees none of it.
    const theirs = await get('/api/settings?project_name=alpha&site=ws-1', manager);
    expect(item(theirs, 'demo')).toMatchObject({
      settings: { siteRoot: '/mnt' },
      siteSettings: { threads: 2 },
    });
  });

  it('uses a project bundle, named or chosen by the project', async () => {
    const named = await get('/api/settings?project_name=alpha&project_bundle_name=proj_alpha');
    expect(named.bundleName).toBe('proj_alpha');
    expect(named.inheritedAddons).toEqual(['ghost']);
    expect(named.addons.map((a: any) => `${a.name} ${a.version}`)).toEqual(['demo 2.0.0', 'ghost 9.9.9']);
    const chosen = await core.request('POST', '/api/projects/alpha/bundles', {
      token: manager,
      body: { production: 'proj_alpha' },
    });
    expect(chosen.status).toBe(204);
    expect((await get('/api/settings?project_name=alpha')).bundleName).toBe('proj_alpha');
    expect((await get('/api/settings?project_name=beta')).bundleName).toBe('prod1');
    await core.request('POST', '/api/projects/alpha/bundles', { token: manager, body: { production: null } });
    expect((await get('/api/settings?project_name=alpha')).bundleName).toBe('prod1');
  });

  it('answers 404 for a bundle, dev variant or project that does not exist', async () => {
    for (const query of [
      'bundle_name=nope',
      'variant=dev_nobody',
      'project_name=nowhere',
      'project_bundle_name=prod1',
    ]) {
      // A manager: a user without access to a project is refused with 403 whether it exists or not.
      const res = await core.request('GET', `/api/settings?${query}`, { token: manager });
      expect(res.status).toBe(404);
    }
    // AYON bounds no limit, and it changes nothing here.
    expect((await core.request('GET', '/api/settings?limit=0', { token: artist })).status).toBe(200);
  });
});

describe('deprecated listings', () => {
  it('answers settings and versions of the variant\u2019s addons that have settings', async () => {
    expect(await get('/api/settings/addons')).toEqual({
      settings: { demo: { ...DEMO_DEFAULTS, fps: 30 } },
      versions: { demo: '1.0.0' },
    });
    const project = await get('/api/settings/addons?project=alpha');
    expect(project.settings.demo.render.samples).toBe(12);
    expect((await get('/api/settings/addons?variant=staging')).versions).toEqual({ demo: '2.0.0' });
    expect(
      (await core.request('GET', '/api/settings/addons?variant=dev_artie', { token: artist })).status,
    ).toBe(422);
  });

  it('answers the caller\u2019s site settings of the variant\u2019s addons', async () => {
    expect(await get('/api/settings/addons/siteSettings?site=ws-1')).toEqual({
      settings: { demo: { cacheDir: '/tmp/cache', threads: 6 } },
      versions: { demo: '1.0.0' },
    });
    expect((await get('/api/settings/addons/siteSettings')).settings.demo.threads).toBe(2);
  });
});

describe('POST /api/migrateSettingsByBundle', () => {
  const migrate = (body: Record<string, unknown>, token = admin) =>
    core.request('POST', '/api/migrateSettingsByBundle', { token, body });

  it('copies the studio overrides from one addon version and variant to another, without projects if asked', async () => {
    const res = await migrate({
      sourceBundle: 'prod1',
      targetBundle: 'stage2',
      sourceVariant: 'production',
      targetVariant: 'staging',
      withProjects: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    // The target's own overrides are replaced: label 'staging' is gone.
    expect(await raw(`${demo2}/rawOverrides?variant=staging`)).toEqual({ fps: 30 });
    expect(await raw(`${demo2}/rawOverrides/alpha?variant=staging`)).toEqual({});
    expect((await get(`${demo2}/settings/alpha?variant=staging&site_id=ws-1`)).siteRoot).toBe('/mnt');
    const events = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'settings.changed')
      .where('description', 'like', '%migrated%')
      .execute();
    expect(events.map((e) => e.summary)).toEqual([
      { addonName: 'demo', addonVersion: '2.0.0', variant: 'staging', projectName: null },
    ]);
  });

  it('copies project overrides too by default, and removes the target\u2019s where the source has none', async () => {
    await save(`${demo2}/settings/beta?variant=staging`, { label: 'beta staging' });
    const res = await migrate({
      sourceBundle: 'prod1',
      targetBundle: 'stage2',
      sourceVariant: 'production',
      targetVariant: 'staging',
    });
    expect(res.status).toBe(200);
    expect(await raw(`${demo2}/rawOverrides/alpha?variant=staging`)).toEqual({ render: { samples: 12 } });
    expect(await raw(`${demo2}/rawOverrides/beta?variant=staging`)).toEqual({});
    expect((await get(`${demo2}/settings/alpha?variant=staging`)).fps).toBe(30);
    // A user's site overrides in the project follow to the other version.
    expect((await get(`${demo2}/settings/alpha?variant=staging&site_id=ws-1`)).siteRoot).toBe('/w');
    // The source is untouched.
    expect(await raw(`${demo1}/rawOverrides`)).toEqual({ fps: 30 });
  });

  it('refuses a dev variant that is not its own bundle, unknown bundles and non-admins', async () => {
    const bad = await migrate({
      sourceBundle: 'prod1',
      targetBundle: 'stage2',
      sourceVariant: 'production',
      targetVariant: 'dev_artie',
    });
    expect(bad.status).toBe(400);
    const missing = await migrate({
      sourceBundle: 'nope',
      targetBundle: 'stage2',
      sourceVariant: 'production',
      targetVariant: 'staging',
    });
    expect(missing.status).toBe(404);
    const body = {
      sourceBundle: 'prod1',
      targetBundle: 'stage2',
      sourceVariant: 'production',
      targetVariant: 'staging',
    };
    expect((await migrate(body, manager)).status).toBe(403);
    expect((await migrate(body, artist)).status).toBe(403);
    expect((await migrate({ sourceBundle: 'prod1' })).status).toBe(422);
  });
});

describe('POST /api/addons (deprecated): copying one addon between variants', () => {
  it('copies the addon from the staging bundle\u2019s version to the production bundle\u2019s, and nothing else', async () => {
    // Put back afterwards what this test changes, for the tests that follow.
    const before = {
      production: await raw(`${demo1}/rawOverrides`),
      staging: await raw(`${demo2}/rawOverrides?variant=staging`),
    };
    await save(`${demo2}/settings?variant=staging`, { label: 'from staging' });
    const stagingRaw = await raw(`${demo2}/rawOverrides?variant=staging`);
    const plainBefore = await raw('/api/addons/plain/1.0.0/rawOverrides');
    const copy = { addonName: 'demo', copyFrom: 'staging', copyTo: 'production' };
    const res = await core.request('POST', '/api/addons', { token: admin, body: { copyVariant: copy } });
    expect(res.status).toBe(204);
    expect(await raw(`${demo1}/rawOverrides`)).toEqual(stagingRaw);
    expect(await raw('/api/addons/plain/1.0.0/rawOverrides')).toEqual(plainBefore);

    const asManager = await core.request('POST', '/api/addons', {
      token: manager,
      body: { copyVariant: copy },
    });
    expect(asManager.status).toBe(403);
    const bad = await core.request('POST', '/api/addons', {
      token: admin,
      body: { copyVariant: { ...copy, copyTo: 'dev' } },
    });
    expect(bad.status).toBe(422);

    for (const [url, body] of [
      [`${demo1}/rawOverrides`, before.production],
      [`${demo2}/rawOverrides?variant=staging`, before.staging],
    ]) {
      expect((await core.request('PUT', url as string, { token: admin, body })).status).toBe(204);
    }
  });
});

describe('promoting the staging bundle', () => {
  it('makes the staging overrides of its addon versions the production ones, studio-wide and per project', async () => {
    // Production of 2.0.0 has overrides of its own that staging does not: they are replaced or removed.
    await save(`${demo2}/settings`, { enabled: false });
    await save(`${demo2}/settings/beta`, { tags: ['old'] });
    await save(`${demo2}/settings?variant=staging`, { label: 'promoted' });
    const res = await core.request('POST', '/api/bundles/stage2', {
      token: admin,
      body: { action: 'promote' },
    });
    expect(res.status).toBe(204);
    expect(await raw(`${demo2}/rawOverrides`)).toEqual({ fps: 30, label: 'promoted' });
    expect(await raw(`${demo2}/rawOverrides/alpha`)).toEqual({ render: { samples: 12 } });
    expect(await raw(`${demo2}/rawOverrides/beta`)).toEqual({});
    expect(await raw(`${demo2}/rawOverrides?variant=staging`)).toEqual({ fps: 30, label: 'promoted' });
    const now = await get('/api/settings');
    expect(now.bundleName).toBe('stage2');
    expect(item(now, 'demo')).toMatchObject({ version: '2.0.0', settings: { fps: 30, label: 'promoted' } });
  });

  it('carries production overrides to the version a production bundle moves to, where it has none', async () => {
    await save(`${demo2}/settings/beta`, { label: 'beta' });
    await save(`${demo1}/settings?variant=production`, { fps: 31 });
    const res = await core.request('PATCH', '/api/bundles/stage2', {
      token: admin,
      body: { addons: { demo: '1.0.0' } },
    });
    expect(res.status).toBe(204);
    // beta had nothing for 1.0.0: it gets 2.0.0's; the studio overrides of 1.0.0 were there already and stay.
    await eventually(async () => (await raw(`${demo1}/rawOverrides/beta`)).label === 'beta');
    expect(await raw(`${demo1}/rawOverrides`)).toEqual({ fps: 31 });
    expect(await raw(`${demo1}/rawOverrides/alpha`)).toEqual({ render: { samples: 12 } });
  });
});
