import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestCore } from '@pipewright/core/testing';
import { bootSettingsCore, createBundle, createProjects } from './fixtures.js';

// Who may do what: everyone logged in reads studio settings, a project's settings only those with access to the
// project; managers change studio and project settings, admins the raw overrides and migrations, and a user changes
// only their own site's settings, in a project they may open.
let core: TestCore;
let admin: string;
let manager: string;
let artist: string;
let outsider: string;
let serviceKey: string;

beforeAll(async () => {
  const boot = await bootSettingsCore();
  core = boot.core;
  admin = await boot.login('root', { isAdmin: true });
  manager = await boot.login('boss', { isManager: true });
  artist = await boot.login('artie', { accessGroups: { alpha: ['artist'] } });
  // A normal user of another project only.
  outsider = await boot.login('otto', { accessGroups: { beta: ['artist'] } });
  // Service users (farm workers, pipeline services) log in with an API key.
  await boot.login('farm', { isService: true });
  const key = await core.request('POST', '/api/users/farm/apikeys', {
    token: admin,
    body: { label: 'farm' },
  });
  serviceKey = key.body.key;
  await createProjects(core, manager, 'alpha', 'beta');
  await createBundle(core, admin, { name: 'prod', addons: { demo: '1.0.0' }, isProduction: true });
});
afterAll(() => core.close());

const demo = '/api/addons/demo/1.0.0';
const call = (method: string, url: string, token?: string, body?: unknown) =>
  core.request(method, url, { token, body });

const migration = {
  sourceBundle: 'a',
  targetBundle: 'b',
  sourceVariant: 'production',
  targetVariant: 'staging',
};

describe('anonymous callers', () => {
  it.each([
    ['GET', `${demo}/settings`],
    ['GET', `${demo}/schema`],
    ['GET', `${demo}/settings/alpha`],
    ['GET', `${demo}/siteSettings`],
    ['GET', '/api/settings'],
    ['GET', '/api/settings/addons'],
    ['POST', `${demo}/settings`],
    ['PUT', `${demo}/siteSettings?site_id=ws-1`],
    ['POST', '/api/migrateSettingsByBundle'],
  ])('are refused with 401: %s %s', async (method, url) => {
    const res = await call(method, url, undefined, method === 'GET' ? undefined : {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, detail: 'Not logged in' });
  });
});

describe('normal users', () => {
  it('read settings, schemas and project overrides', async () => {
    for (const url of [
      `${demo}/settings`,
      `${demo}/schema`,
      `${demo}/settings/alpha`,
      `${demo}/schema/alpha`,
      `${demo}/overrides/alpha`,
      `${demo}/siteSettings/schema`,
    ]) {
      expect((await call('GET', url, artist)).status).toBe(200);
    }
  });

  it.each([
    ['POST', `${demo}/settings`, { fps: 2 }],
    ['GET', `${demo}/overrides`, undefined],
    ['POST', `${demo}/overrides`, { action: 'pin', path: ['fps'] }],
    ['DELETE', `${demo}/overrides`, undefined],
    ['POST', `${demo}/settings/alpha`, { fps: 2 }],
    ['POST', `${demo}/overrides/alpha`, { action: 'pin', path: ['fps'] }],
    ['DELETE', `${demo}/overrides/alpha`, undefined],
    ['GET', `${demo}/rawOverrides`, undefined],
    ['PUT', `${demo}/rawOverrides`, { fps: 2 }],
    ['GET', `${demo}/rawOverrides/alpha`, undefined],
    ['PUT', `${demo}/rawOverrides/alpha`, { fps: 2 }],
    ['POST', '/api/migrateSettingsByBundle', migration],
  ])('are refused with 403: %s %s', async (method, url, body) => {
    const res = await call(method, url, artist, body);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(403);
  });

  it('change their own site overrides and site settings', async () => {
    expect((await call('POST', `${demo}/settings/alpha?site_id=ws-1`, artist, { fps: 2 })).status).toBe(204);
    expect(
      (await call('POST', `${demo}/overrides/alpha?site_id=ws-1`, artist, { action: 'pin', path: ['label'] }))
        .status,
    ).toBe(204);
    expect((await call('PUT', `${demo}/siteSettings?site_id=ws-1`, artist, { threads: 3 })).status).toBe(204);
    expect((await call('DELETE', `${demo}/overrides/alpha?site_id=ws-1`, artist)).status).toBe(204);
    // Nothing of it reached the project level.
    expect(await (await call('GET', `${demo}/rawOverrides/alpha`, admin)).body).toEqual({});
  });
});

describe('users without access to the project', () => {
  it.each([
    ['GET', `${demo}/settings/alpha`, undefined],
    ['GET', `${demo}/settings/alpha?site_id=ws-1`, undefined],
    ['GET', `${demo}/overrides/alpha`, undefined],
    ['GET', `${demo}/overrides/alpha?site_id=ws-1`, undefined],
    ['GET', `${demo}/schema/alpha`, undefined],
    ['POST', `${demo}/settings/alpha?site_id=ws-1`, { fps: 2 }],
    ['POST', `${demo}/overrides/alpha?site_id=ws-1`, { action: 'pin', path: ['label'] }],
    ['DELETE', `${demo}/overrides/alpha?site_id=ws-1`, undefined],
    ['GET', '/api/settings?project_name=alpha', undefined],
    ['GET', '/api/settings?project_name=alpha&site_id=ws-1', undefined],
    ['GET', '/api/settings/addons?project=alpha', undefined],
    // A project that does not exist answers the same: names cannot be probed.
    ['GET', `${demo}/settings/nowhere`, undefined],
  ])('are refused with 403: %s %s', async (method, url, body) => {
    const res = await call(method, url, outsider, body);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, detail: expect.stringContaining('access') });
  });

  it('still read the studio settings, and their own project\u2019s', async () => {
    expect((await call('POST', `${demo}/settings/alpha`, manager, { label: 'alpha only' })).status).toBe(204);
    expect((await call('GET', `${demo}/settings`, outsider)).status).toBe(200);
    expect((await call('GET', `${demo}/settings/beta`, outsider)).body.label).not.toBe('alpha only');
    expect((await call('GET', `${demo}/settings/alpha`, artist)).body.label).toBe('alpha only');
    const all = await call('GET', '/api/settings?project_name=beta', outsider);
    expect(all.status).toBe(200);
    expect(all.body.projectName).toBe('beta');
    // The same settings as before, for those who may see them.
    const seen = await call('GET', '/api/settings?project_name=alpha', artist);
    expect(seen.body.addons.find((a: { name: string }) => a.name === 'demo')?.settings.label).toBe(
      'alpha only',
    );
    expect((await call('DELETE', `${demo}/overrides/alpha`, manager)).status).toBe(204);
  });
});

describe('managers', () => {
  it('change studio and project settings and read the override maps', async () => {
    expect((await call('POST', `${demo}/settings`, manager, { fps: 2 })).status).toBe(204);
    expect((await call('POST', `${demo}/settings/alpha`, manager, { fps: 3 })).status).toBe(204);
    expect((await call('GET', `${demo}/overrides`, manager)).status).toBe(200);
    expect((await call('DELETE', `${demo}/overrides/alpha`, manager)).status).toBe(204);
  });

  it('are refused the raw overrides and migrations (403)', async () => {
    expect((await call('GET', `${demo}/rawOverrides`, manager)).status).toBe(403);
    expect((await call('PUT', `${demo}/rawOverrides/alpha`, manager, {})).status).toBe(403);
    expect((await call('POST', '/api/migrateSettingsByBundle', manager, migration)).status).toBe(403);
  });

  it('are refused before the addon is looked up, so nothing is probed', async () => {
    expect((await call('GET', '/api/addons/nope/1.0.0/rawOverrides', manager)).status).toBe(403);
    expect((await call('POST', '/api/addons/nope/1.0.0/settings', artist, {})).status).toBe(403);
  });
});

describe('admins and service users', () => {
  it('read and write the raw overrides', async () => {
    expect((await call('PUT', `${demo}/rawOverrides`, admin, { label: 'raw' })).status).toBe(204);
    const asService = (url: string) => core.request('GET', url, { apiKey: serviceKey });
    expect((await asService(`${demo}/rawOverrides`)).body).toEqual({ label: 'raw' });
    expect((await asService(`${demo}/settings`)).body.label).toBe('raw');
  });
});
