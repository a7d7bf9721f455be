import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestCore } from '@pipewright/core/testing';
import { COMPLETE, bootWithLogins } from './fixtures.js';
import { bundlesRef } from '../src/api.js';

let core: TestCore;
let admin: string;
let manager: string;
let artist: string;

beforeAll(async () => {
  ({ core, admin, manager, artist } = await bootWithLogins());
  const res = await core.request('POST', '/api/projects', {
    token: manager,
    body: { name: 'demo', code: 'demo' },
  });
  if (res.status !== 201) throw new Error(`project: ${res.status} ${res.text}`);
});
afterAll(() => core.close());

const create = (body: Record<string, unknown>, token = admin, query = '') =>
  core.request('POST', `/api/bundles${query}`, { token, body });
const patch = (name: string, body: Record<string, unknown>, token = admin, query = '') =>
  core.request('PATCH', `/api/bundles/${name}${query}`, { token, body });
const list = async (query = '') => {
  const res = await core.request('GET', `/api/bundles${query}`, { token: artist });
  expect(res.status).toBe(200);
  return res.body;
};
const find = async (name: string, query = '?archived=true') =>
  (await list(query)).bundles.find((b: { name: string }) => b.name === name);
const events = (topic: string) =>
  core.db.selectFrom('events').selectAll().where('topic', '=', topic).orderBy('creation_order').execute();

describe('creating and listing', () => {
  it('creates a bundle and lists it exactly, with an event naming the admin', async () => {
    const res = await create({
      name: 'studio_v1',
      addons: { probe: '1.0.0', probe_child: '1.0.0' },
      ...COMPLETE,
    });
    expect(res.status).toBe(201);
    expect(res.text).toBe('');

    const body = await list();
    expect(body).toEqual({
      bundles: [
        {
          name: 'studio_v1',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          addons: { probe: '1.0.0', probe_child: '1.0.0' },
          installerVersion: '1.2.3',
          dependencyPackages: { windows: 'deps-win.zip', linux: 'deps-linux.zip', darwin: 'deps-mac.zip' },
          addonDevelopment: {},
          isProduction: false,
          isStaging: false,
          isArchived: false,
          isDev: false,
          isProject: false,
        },
      ],
      devBundles: [],
    });
    const [event] = await events('bundle.created');
    expect(event).toMatchObject({
      user_name: 'root',
      summary: { name: 'studio_v1', isProduction: false, isStaging: false, isDev: false },
      payload: { addons: { probe: '1.0.0', probe_child: '1.0.0' }, installerVersion: '1.2.3' },
    });
  });

  it('keeps a given creation time and lists the newest bundle first', async () => {
    expect((await create({ name: 'old.one', createdAt: '2020-01-02T03:04:05.000Z' })).status).toBe(201);
    const names = (await list()).bundles.map((b: { name: string }) => b.name);
    expect(names.indexOf('studio_v1')).toBeLessThan(names.indexOf('old.one'));
    expect((await find('old.one')).createdAt).toBe('2020-01-02T03:04:05.000Z');
  });

  it('refuses an existing name with 409', async () => {
    const res = await create({ name: 'studio_v1' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 409, detail: 'Bundle studio_v1 already exists' });
  });

  it('refuses addon versions the server does not have with 400, unless forced', async () => {
    const res = await create({ name: 'future', addons: { probe: '9.0.0' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 400,
      detail: 'Failed to validate bundle: probe: probe 9.0.0 is not installed',
    });
    expect(await find('future')).toBeUndefined();
    expect((await create({ name: 'future', addons: { probe: '9.0.0' } }, admin, '?force=true')).status).toBe(
      201,
    );
    expect((await find('future')).addons).toEqual({ probe: '9.0.0' });
  });

  it('reads "none" as a switched-off addon', async () => {
    expect((await create({ name: 'none_reader', addons: { probe_child: 'None' } })).status).toBe(201);
    expect((await find('none_reader')).addons).toEqual({ probe_child: null });
  });

  it('answers 422 for names, platforms and flags that break the schema', async () => {
    for (const name of ['bad name', 'slash/name', '-leading', 'trailing.', '', 'ünï', 'n'.repeat(501)]) {
      const res = await create({ name });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].loc).toEqual(['body', 'name']);
    }
    expect((await create({ name: 'x', dependencyPackages: { beos: 'deps.zip' } })).status).toBe(422);
    expect((await create({ name: 'x', isProduction: 'yes' })).status).toBe(422);
    expect((await create({ addons: {} })).status).toBe(422);
    expect((await core.request('GET', '/api/bundles?archived=maybe', { token: admin })).status).toBe(422);
    expect((await patch('studio_v1', { isArchived: 'no' })).status).toBe(422);
    expect(await find('x')).toBeUndefined();
  });

  it('takes any text as an addon version, as AYON does: one the server does not have fails the check', async () => {
    for (const version of ['latest', '1.x', '']) {
      const res = await create({ name: 'free_version', addons: { probe: version } });
      expect([res.status, res.body.detail]).toEqual([
        400,
        `Failed to validate bundle: probe: probe ${version} is not installed`,
      ]);
      expect((await patch('studio_v1', { addons: { probe: version } })).status).toBe(400);
    }
    expect(
      (await create({ name: 'free_version', addons: { probe: 'latest' } }, admin, '?force=true')).status,
    ).toBe(201);
    expect((await find('free_version')).addons).toEqual({ probe: 'latest' });
  });

  it('creates a bundle under the longest name an index key takes, and reads it back', async () => {
    const name = `b${'.x'.repeat(249)}_`;
    expect(name).toHaveLength(500);
    expect((await create({ name })).status).toBe(201);
    expect((await find(name)).name).toBe(name);
    expect((await patch(name, { isArchived: true })).status).toBe(204);
    expect((await find(name)).isArchived).toBe(true);
  });
});

describe('who may do what', () => {
  it('lets any logged-in user list and check bundles, and nobody anonymous', async () => {
    expect((await core.request('GET', '/api/bundles')).status).toBe(401);
    expect((await core.request('POST', '/api/bundles/check', { body: { name: 'a' } })).status).toBe(401);
    expect((await core.request('GET', '/api/bundles', { token: artist })).status).toBe(200);
    const check = await core.request('POST', '/api/bundles/check', {
      token: artist,
      body: { name: 'a', ...COMPLETE },
    });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ success: true, issues: [] });
  });

  it('lets only admins write', async () => {
    for (const token of [artist, manager]) {
      expect(await create({ name: 'sneaky' }, token)).toMatchObject({ status: 403 });
      expect(await patch('studio_v1', { isStaging: true }, token)).toMatchObject({ status: 403 });
      expect(
        await core.request('POST', '/api/bundles/studio_v1', { token, body: { action: 'promote' } }),
      ).toMatchObject({ status: 403 });
      expect(await core.request('DELETE', '/api/bundles/studio_v1', { token })).toMatchObject({
        status: 403,
      });
    }
    for (const [method, url] of [
      ['POST', '/api/bundles'],
      ['PATCH', '/api/bundles/studio_v1'],
      ['POST', '/api/bundles/studio_v1'],
      ['DELETE', '/api/bundles/studio_v1'],
    ]) {
      expect((await core.request(method!, url!, { body: {} })).status).toBe(401);
    }
    expect(await find('sneaky')).toBeUndefined();
    expect((await find('studio_v1')).isStaging).toBe(false);
  });
});

describe('production and staging', () => {
  it('keeps one production bundle: creating or patching another moves the role', async () => {
    expect((await create({ name: 'prod_a', isProduction: true })).status).toBe(201);
    expect((await list()).productionBundle).toBe('prod_a');
    expect((await create({ name: 'prod_b', isProduction: true })).status).toBe(201);
    expect((await list()).productionBundle).toBe('prod_b');
    expect((await find('prod_a')).isProduction).toBe(false);

    expect((await patch('prod_a', { isProduction: true })).status).toBe(204);
    const body = await list();
    expect(body.productionBundle).toBe('prod_a');
    expect(
      body.bundles.filter((b: { isProduction: boolean }) => b.isProduction).map((b: any) => b.name),
    ).toEqual(['prod_a']);
  });

  it('keeps one staging bundle the same way', async () => {
    expect((await create({ name: 'stage_a', isStaging: true })).status).toBe(201);
    expect((await patch('studio_v1', { isStaging: true })).status).toBe(204);
    const body = await list();
    expect(body.stagingBundle).toBe('studio_v1');
    expect(body.bundles.filter((b: { isStaging: boolean }) => b.isStaging).map((b: any) => b.name)).toEqual([
      'studio_v1',
    ]);
    const [last] = (await events('bundle.updated')).slice(-1);
    expect(last).toMatchObject({
      user_name: 'root',
      summary: { name: 'studio_v1', changedFields: ['isStaging'], isStaging: true, isProduction: false },
    });
  });

  it('refuses to archive the production or staging bundle (400) and archives others', async () => {
    const res = await patch('prod_a', { isArchived: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, detail: 'Cannot archive bundle that is production or staging' });
    expect((await patch('studio_v1', { isArchived: true })).status).toBe(400);
    expect((await find('prod_a')).isArchived).toBe(false);

    expect((await patch('stage_a', { isArchived: true })).status).toBe(204);
    expect((await list()).bundles.map((b: { name: string }) => b.name)).not.toContain('stage_a');
    expect((await find('stage_a', '?archived=true')).isArchived).toBe(true);
    // Unsetting the role and archiving in one patch is fine.
    expect((await patch('prod_b', { isProduction: true })).status).toBe(204);
    expect((await patch('prod_b', { isProduction: false, isArchived: true })).status).toBe(204);
    expect(await find('prod_b')).toMatchObject({ isProduction: false, isArchived: true });
    expect((await list()).productionBundle).toBeUndefined();
  });

  it('refuses to delete the production or staging bundle, deletes others, 404 when missing', async () => {
    expect((await patch('prod_a', { isProduction: true })).status).toBe(204);
    const production = await core.request('DELETE', '/api/bundles/prod_a', { token: admin });
    expect(production.status).toBe(400);
    expect(production.body.detail).toBe('Bundle prod_a is the production bundle and cannot be deleted');
    expect((await core.request('DELETE', '/api/bundles/studio_v1', { token: admin })).status).toBe(400);

    expect((await core.request('DELETE', '/api/bundles/stage_a', { token: admin })).status).toBe(204);
    expect(await find('stage_a')).toBeUndefined();
    const again = await core.request('DELETE', '/api/bundles/stage_a', { token: admin });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 404, detail: 'Bundle stage_a not found' });
    expect(await events('bundle.deleted')).toEqual([
      expect.objectContaining({ user_name: 'root', summary: { name: 'stage_a' } }),
    ]);
    expect((await patch('stage_a', { isDev: true })).status).toBe(404);
  });

  it('answers the service by variant', async () => {
    const service = core.services.get(bundlesRef);
    expect((await service.forVariant('production'))?.name).toBe('prod_a');
    expect((await service.forVariant('staging'))?.name).toBe('studio_v1');
    expect(await service.forVariant('prod_b')).toBeNull(); // not a dev bundle
    expect(await service.forVariant('nothing')).toBeNull();
    expect(await service.get('studio_v1')).toMatchObject({
      name: 'studio_v1',
      addons: { probe: '1.0.0', probe_child: '1.0.0' },
      installerVersion: '1.2.3',
      isStaging: true,
      activeUser: null,
      createdAt: expect.any(Date),
    });
  });
});

describe('patching', () => {
  it('changes addon versions, switches addons off, and reports the version changes in the event', async () => {
    expect((await create({ name: 'moving', addons: { probe: '1.0.0' } })).status).toBe(201);
    expect((await patch('moving', { addons: { probe: '1.5.0' } })).status).toBe(400);
    expect(
      (await patch('moving', { addons: { probe: '1.5.0', probe_child: '1.0.0' } }, admin, '?force=true'))
        .status,
    ).toBe(204);
    expect((await find('moving')).addons).toEqual({ probe: '1.5.0', probe_child: '1.0.0' });
    const [event] = (await events('bundle.updated')).slice(-1);
    expect(event.payload.versionChanges).toEqual([
      { addonName: 'probe', fromVersion: '1.0.0', toVersion: '1.5.0' },
    ]);

    expect((await patch('moving', { addons: { probe_child: null } }, admin, '?force=true')).status).toBe(204);
    expect((await find('moving')).addons).toEqual({ probe: '1.5.0', probe_child: null });
  });

  it('replaces dependency packages; the installer and development paths change only on dev bundles', async () => {
    expect(
      (
        await patch('moving', {
          dependencyPackages: { linux: 'new-linux.zip' },
          installerVersion: '9.9.9',
          activeUser: 'root',
          addonDevelopment: { probe: { enabled: true, path: '/x' } },
        })
      ).status,
    ).toBe(204);
    const moving = await find('moving');
    expect(moving.dependencyPackages).toEqual({ linux: 'new-linux.zip' });
    expect(moving.installerVersion).toBeUndefined();
    expect(moving.activeUser).toBeUndefined();
    expect(moving.addonDevelopment).toEqual({});
  });

  it('answers 404 for any name no bundle has, however odd, as AYON does', async () => {
    for (const name of ['no%20such%20bundle!', 'ünï', 'n'.repeat(501), '-leading']) {
      expect((await patch(name, { isArchived: true })).status).toBe(404);
      expect((await core.request('DELETE', `/api/bundles/${name}`, { token: admin })).status).toBe(404);
      const promote = await core.request('POST', `/api/bundles/${name}`, {
        token: admin,
        body: { action: 'promote' },
      });
      expect(promote.status).toBe(404);
    }
  });

  it('answers 404 for a missing bundle', async () => {
    const res = await patch('ghost', { isStaging: true });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, detail: 'Bundle ghost not found' });
  });
});

describe('dev bundles', () => {
  it('belong to one user each: a second dev bundle for the same user is refused with 409', async () => {
    const res = await create({
      name: 'dev_artie',
      isDev: true,
      activeUser: 'artie',
      addons: { probe: '1.0.0' },
      addonDevelopment: { probe: { enabled: true, path: '/home/artie/probe' } },
    });
    expect(res.status).toBe(201);
    expect(await find('dev_artie')).toMatchObject({
      isDev: true,
      activeUser: 'artie',
      addonDevelopment: { probe: { enabled: true, path: '/home/artie/probe' } },
    });
    expect((await list()).devBundles).toEqual(['dev_artie']);

    const second = await create({ name: 'dev_two', isDev: true, activeUser: 'artie' });
    expect(second.status).toBe(409);
    expect(second.body.detail).toBe('User artie already has the dev bundle dev_artie');
    expect((await create({ name: 'dev_two', isDev: true })).status).toBe(201);
    expect((await patch('dev_two', { activeUser: 'artie' })).status).toBe(409);
    expect((await patch('dev_two', { activeUser: 'root', installerVersion: '2.0.0' })).status).toBe(204);
    expect(await find('dev_two')).toMatchObject({ activeUser: 'root', installerVersion: '2.0.0' });

    // The dev bundle gives its user up, then another can take them.
    expect((await patch('dev_artie', { activeUser: null })).status).toBe(204);
    expect((await patch('dev_two', { activeUser: 'artie' })).status).toBe(204);
    expect((await find('dev_artie')).activeUser).toBeUndefined();
  });

  it('are found by name as a settings variant', async () => {
    const service = core.services.get(bundlesRef);
    expect(await service.forVariant('dev_two')).toMatchObject({
      name: 'dev_two',
      isDev: true,
      activeUser: 'artie',
    });
  });

  it('lose their user when they stop being dev bundles', async () => {
    expect((await patch('dev_two', { isDev: false })).status).toBe(204);
    expect(await find('dev_two')).toMatchObject({ isDev: false });
    expect((await find('dev_two')).activeUser).toBeUndefined();
  });
});

describe('project bundles', () => {
  it('accepts project bundles but never as production, staging or dev', async () => {
    const res = await create({ name: '__project__demo', isProject: true, addons: { probe: '__inherit__' } });
    expect(res.status).toBe(201);
    expect(await find('__project__demo')).toMatchObject({
      isProject: true,
      addons: { probe: '__inherit__' },
    });
    for (const flag of ['isProduction', 'isStaging', 'isDev']) {
      expect((await create({ name: '__project__x', isProject: true, [flag]: true })).status).toBe(400);
      expect((await patch('__project__demo', { [flag]: true })).status).toBe(400);
    }
  });

  it('stores the project choice in the project data (deprecated route), for managers', async () => {
    const post = (body: unknown, token = manager, project = 'demo') =>
      core.request('POST', `/api/projects/${project}/bundles`, { token, body });
    const data = async () => (await core.request('GET', '/api/projects/demo', { token: manager })).body.data;

    expect((await post({ production: '__project__demo' })).status).toBe(204);
    expect((await data()).bundle).toEqual({ production: '__project__demo' });
    expect((await post({ staging: '__project__demo' })).status).toBe(204);
    expect((await data()).bundle).toEqual({ production: '__project__demo', staging: '__project__demo' });
    expect((await post({ production: null })).status).toBe(204);
    expect((await data()).bundle).toEqual({ staging: '__project__demo' });
    expect((await post({})).status).toBe(204);
    expect((await data()).bundle).toEqual({ staging: '__project__demo' });

    expect((await post({ production: 'x' }, artist)).status).toBe(403);
    expect((await post({ production: 'x' }, admin, 'nowhere')).status).toBe(404);
    expect((await post({ production: 7 })).status).toBe(422);
    expect((await post({ production: 'x' }, admin, 'bad-project')).status).toBe(422);
    expect((await core.request('POST', '/api/projects/demo/bundles', { body: {} })).status).toBe(401);
    expect((await data()).bundle).toEqual({ staging: '__project__demo' });
    // Any name is kept as sent, as AYON keeps it in the project's data.
    expect((await post({ production: 'Studio bundle #2' })).status).toBe(204);
    expect((await data()).bundle).toEqual({ production: 'Studio bundle #2', staging: '__project__demo' });
  });
});
