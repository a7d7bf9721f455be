import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyRequest } from 'fastify';
import { Type, defineAddon, requireUser } from '@pipewright/sdk';
import { authRef } from '@pipewright/plugin-auth/api';
import { bootTestCore, fixedUserSource, type TestCore } from '../src/testing.js';

// A route declares who may call it (config.access) and the core refuses the others: after the input is checked, as
// AYON's handlers check it, so a bad body answers 422 whoever sends it, and a refused caller 403.
const PASSWORD = 'route access';
const BASE = '/api/addons/gated/1.0.0';

const gated = defineAddon({
  name: 'gated',
  version: '1.0.0',
  title: 'Routes of three access levels (fixture)',
  deps: { auth: authRef },
  setup(ctx) {
    const body = Type.Object({ n: Type.Integer() });
    const answer = async (request: FastifyRequest) => ({ caller: requireUser(request).name });
    ctx.app.post('/anyone', { schema: { body } }, answer);
    ctx.app.post('/managers', { config: { access: 'manager' }, schema: { body } }, answer);
    ctx.app.post('/admins', { config: { access: 'admin' }, schema: { body } }, answer);
  },
});

let core: TestCore;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  const users = fixedUserSource(
    'gate-users',
    { ada: {}, mona: { isManager: true }, root: { isAdmin: true } },
    { password: PASSWORD },
  );
  core = await bootTestCore({ addons: ['auth'], extraAddons: [users, gated] });
  for (const name of ['ada', 'mona', 'root'])
    tokens[name] = (
      await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } })
    ).body.token;
});
afterAll(() => core?.close());

const call = (route: string, token: string | undefined, body: unknown = { n: 1 }) =>
  core.request('POST', `${BASE}/${route}`, { token, body });

describe('routes that declare their access level', () => {
  it('admit exactly the callers of their level', async () => {
    const status = async (route: string) =>
      Promise.all(['ada', 'mona', 'root'].map(async (name) => (await call(route, tokens[name])).status));
    expect(await status('anyone')).toEqual([200, 200, 200]);
    expect(await status('managers')).toEqual([403, 200, 200]);
    expect(await status('admins')).toEqual([403, 403, 200]);
    expect((await call('admins', tokens.root)).body).toEqual({ caller: 'root' });
  });

  it("refuse in AYON's shape, anonymous callers with 401", async () => {
    expect((await call('managers', tokens.ada)).body).toEqual({ code: 403, detail: 'Managers only' });
    expect((await call('admins', tokens.mona)).body).toEqual({ code: 403, detail: 'Administrators only' });
    expect((await call('admins', undefined)).status).toBe(401);
  });

  it('check the input first, as AYON does', async () => {
    expect((await call('admins', tokens.ada, { n: 'one' })).status).toBe(422);
  });
});
