import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestCore } from '@pipewright/core/testing';
import { COMPLETE, bootWithLogins, witnessControl } from './fixtures.js';

// Promotion with its hooks, the compatibility check, and the production bundle switching addons at run time.
let core: TestCore;
let admin: string;
let artist: string;

beforeAll(async () => {
  ({ core, admin, artist } = await bootWithLogins());
});
afterAll(() => core.close());
beforeEach(() => {
  witnessControl.fail = false;
});

const create = (body: Record<string, unknown>, query = '') =>
  core.request('POST', `/api/bundles${query}`, { token: admin, body });
const patch = (name: string, body: Record<string, unknown>, query = '') =>
  core.request('PATCH', `/api/bundles/${name}${query}`, { token: admin, body });
const act = (name: string, body: unknown, token = admin) =>
  core.request('POST', `/api/bundles/${name}`, { token, body });
const roles = async () => {
  const res = await core.request('GET', '/api/bundles', { token: artist });
  return { production: res.body.productionBundle, staging: res.body.stagingBundle };
};
const witnessed = () => core.db.selectFrom('witness_promotions').selectAll().execute();
const check = async (body: Record<string, unknown>) => {
  const res = await core.request('POST', '/api/bundles/check', { token: artist, body });
  expect(res.status).toBe(200);
  return res.body;
};
const hello = (addon: string) => core.request('GET', `/api/addons/${addon}/1.0.0/hello`, { token: artist });

describe('promoting staging to production', () => {
  it('refuses a bundle that is not staging (400), a missing one (404), other actions (422)', async () => {
    expect((await create({ name: 'live', isProduction: true, ...COMPLETE })).status).toBe(201);
    expect((await create({ name: 'candidate', addons: { probe: '1.0.0' }, ...COMPLETE })).status).toBe(201);

    const res = await act('candidate', { action: 'promote' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, detail: 'Only staging bundles can be promoted' });
    expect((await act('live', { action: 'promote' })).status).toBe(400);
    expect((await act('ghost', { action: 'promote' })).status).toBe(404);

    const other = await act('candidate', { action: 'demote' });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].loc).toEqual(['body', 'action']);
    expect((await act('candidate', {})).status).toBe(422);
    expect((await act('candidate', { action: 'promote' }, artist)).status).toBe(403);
    expect(await roles()).toEqual({ production: 'live', staging: undefined });
    expect(await witnessed()).toEqual([]);
  });

  it('makes staging the production bundle, running the hooks in the same transaction', async () => {
    expect((await patch('candidate', { isStaging: true })).status).toBe(204);
    const res = await act('candidate', { action: 'promote' });
    expect(res.status).toBe(204);
    expect(await roles()).toEqual({ production: 'candidate', staging: 'candidate' });
    // The hook saw the promoted bundle, and the service inside the transaction already named it production.
    expect(await witnessed()).toEqual([{ bundle: 'candidate', production: 'candidate' }]);
    const [event] = (
      await core.db.selectFrom('events').selectAll().where('topic', '=', 'bundle.updated').execute()
    ).slice(-1);
    expect(event).toMatchObject({
      user_name: 'root',
      summary: { name: 'candidate', changedFields: ['isProduction'], isProduction: true },
    });
  });

  it('rolls the promotion back when a hook fails', async () => {
    expect((await create({ name: 'next', isStaging: true, ...COMPLETE })).status).toBe(201);
    witnessControl.fail = true;
    const res = await act('next', { action: 'promote' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 409, detail: 'The witness refuses this promotion' });
    expect(await roles()).toEqual({ production: 'candidate', staging: 'next' });
    expect(await witnessed()).toEqual([{ bundle: 'candidate', production: 'candidate' }]);
  });

  it('refuses archived bundles', async () => {
    expect((await create({ name: 'shelved' })).status).toBe(201);
    expect((await patch('shelved', { isArchived: true })).status).toBe(204);
    const res = await act('shelved', { action: 'promote' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Archived bundles cannot be modified');
  });
});

describe('checking a bundle', () => {
  it('reports missing and broken versions and missing dependencies as errors', async () => {
    expect(
      await check({
        name: 'mixed',
        addons: { probe: '9.9.9', cracked: '1.0.0', probe_child: '1.0.0', auth: '1.0.0' },
        ...COMPLETE,
      }),
    ).toEqual({
      success: false,
      issues: [
        {
          severity: 'error',
          addon: 'probe',
          message: 'probe 9.9.9 is not installed',
          requiredAddon: 'probe',
        },
        {
          severity: 'error',
          addon: 'cracked',
          message: 'cracked 1.0.0 is broken: could not be loaded: SyntaxError: Unexpected token',
          requiredAddon: 'cracked',
        },
      ],
    });
    expect(await check({ name: 'off', addons: { probe: null, probe_child: '1.0.0' }, ...COMPLETE })).toEqual({
      success: false,
      issues: [
        {
          severity: 'error',
          addon: 'probe_child',
          message: 'probe is required, but the bundle switches it off',
          requiredAddon: 'probe',
        },
      ],
    });
  });

  it('warns about what the launcher lacks and about addons a switched-off dependency stops', async () => {
    expect(
      await check({ name: 'thin', addons: { probe: null }, dependencyPackages: { windows: 'deps-win.zip' } }),
    ).toEqual({
      success: true,
      issues: [
        {
          severity: 'warning',
          addon: 'probe_child',
          message: 'probe_child needs probe, which the bundle switches off: probe_child will not run',
          requiredAddon: 'probe',
        },
        {
          severity: 'warning',
          message: 'Bundle thin has no installer version: desktop launchers cannot set it up',
        },
        { severity: 'warning', message: 'Bundle thin has no dependency package for linux' },
        { severity: 'warning', message: 'Bundle thin has no dependency package for darwin' },
      ],
    });
  });

  it('refuses to switch off what bundles need to be changed back', async () => {
    expect((await check({ name: 'lock', addons: { auth: null }, ...COMPLETE })).issues).toContainEqual({
      severity: 'error',
      addon: 'auth',
      message: 'auth cannot be switched off: the server needs it to change bundles',
      requiredAddon: 'auth',
    });
    const res = await patch('candidate', { addons: { bundles: null } }, '?force=true');
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(
      'The production bundle cannot switch off bundles: the server needs it to change bundles',
    );
  });

  it('answers 422 for a body that breaks the schema', async () => {
    const res = await core.request('POST', '/api/bundles/check', { token: artist, body: { addons: {} } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'name']);
  });
});

describe('the production bundle switches addons at run time', () => {
  it('answers 404 for an addon it switches off, at once, and answers again when switched back', async () => {
    expect(await hello('probe')).toMatchObject({ status: 200, body: { addon: 'probe' } });
    expect(await hello('probe_child')).toMatchObject({ status: 200, body: { addon: 'probe_child' } });

    expect((await patch('candidate', { addons: { probe: null, probe_child: null } })).status).toBe(204);
    expect((await hello('probe')).status).toBe(404);
    expect((await hello('probe_child')).status).toBe(404);

    expect((await patch('candidate', { addons: { probe: '1.0.0' } })).status).toBe(204);
    expect(await hello('probe')).toMatchObject({ status: 200, body: { addon: 'probe' } });
    // Still switched off by the bundle.
    expect((await hello('probe_child')).status).toBe(404);
  });

  it('follows the role: a new production bundle applies its own addons, promotion too', async () => {
    expect(
      (await create({ name: 'quiet', isProduction: true, addons: { probe: null }, ...COMPLETE })).status,
    ).toBe(201);
    expect((await hello('probe')).status).toBe(404);
    // Staging bundle "next" says nothing about probe: promoting it switches probe on again.
    expect((await act('next', { action: 'promote' })).status).toBe(204);
    expect((await hello('probe')).status).toBe(200);
    expect((await hello('probe_child')).status).toBe(200);
  });

  it('lets an addon the current production bundle blocks come back in a new bundle', async () => {
    expect((await patch('next', { addons: { probe: null } }, '?force=true')).status).toBe(204);
    expect((await hello('probe_child')).status).toBe(404);
    // probe_child is blocked now, not broken: a bundle that switches probe on again may name it.
    expect(
      await check({ name: 'revive', addons: { probe: '1.0.0', probe_child: '1.0.0' }, ...COMPLETE }),
    ).toEqual({ success: true, issues: [] });
    expect((await patch('next', { addons: { probe: '1.0.0', probe_child: '1.0.0' } })).status).toBe(204);
    expect((await hello('probe_child')).status).toBe(200);
  });
});
