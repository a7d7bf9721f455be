import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';

let core: TestCore;
beforeAll(async () => {
  core = await bootTestCore({ addons: ['onboarding'], config: { loginMessage: 'Welcome to the studio' } });
});
afterAll(() => core.close());

const initialize = (body: object) => core.request('POST', '/api/onboarding/initialize', { body });

describe('a fresh server', () => {
  it('tells anonymous callers only the login message, the API version and that no administrator exists', async () => {
    const res = await core.request('GET', '/api/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      motd: 'Welcome to the studio',
      version: '1.11.3',
      noAdminUser: true,
      passwordRecoveryAvailable: false,
    });
  });

  it('validates the first administrator form with 422', async () => {
    const missing = await initialize({ adminName: 'admin' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      expect.objectContaining({ loc: ['body', 'adminPassword'], type: 'required' }),
    ]);
    const bad = await initialize({
      adminName: 'bad name',
      adminPassword: 'short enough?',
      adminEmail: 'nope',
    });
    // The e-mail is free text, as in AYON; the name becomes a user name.
    expect(bad.body.errors.map((e: any) => e.loc.join('.')).sort()).toEqual(['body.adminName']);
    // The password rule (PASSWORD_MIN_LENGTH, 8 unless configured) is checked once the form is well formed.
    const short = await initialize({ adminName: 'admin', adminPassword: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([
      { loc: ['body', 'adminPassword'], msg: 'must NOT have fewer than 8 characters', type: 'minLength' },
    ]);
    expect((await core.request('GET', '/api/info?full=perhaps')).status).toBe(422);
  });

  it('creates exactly one administrator when two people submit the form at once, and logs them in', async () => {
    // Full name and e-mail are free text, as in AYON.
    const attrib = { adminFullName: `Ada ${'A'.repeat(1000)}`, adminEmail: 'ada at the studio' };
    const [a, b] = await Promise.all([
      initialize({ adminName: 'admin', adminPassword: 'first admin pass', ...attrib }),
      initialize({ adminName: 'other', adminPassword: 'second admin pass', ...attrib }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect(loser.body).toEqual({
      code: 409,
      detail: 'The server is already initialized: an administrator exists',
    });
    expect(winner.body).toEqual({
      detail: expect.stringMatching(/^Logged in as /),
      error: null,
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      user: expect.objectContaining({ data: { isAdmin: true } }),
      redirectUrl: null,
    });
    const me = await core.request('GET', '/api/users/me', { token: winner.body.token });
    expect(me.body.data.isAdmin).toBe(true);
    expect(me.body.attrib).toMatchObject({ fullName: attrib.adminFullName, email: attrib.adminEmail });
  });
});

describe('an initialized server', () => {
  let token: string;
  // Either of the two forms above may have won the race: the administrator is whichever did.
  let adminName: string;
  beforeAll(async () => {
    const login = await core.request('POST', '/api/auth/login', {
      body: { name: 'admin', password: 'first admin pass' },
    });
    adminName = login.status === 200 ? 'admin' : 'other';
    token =
      login.status === 200
        ? login.body.token
        : (
            await core.request('POST', '/api/auth/login', {
              body: { name: 'other', password: 'second admin pass' },
            })
          ).body.token;
  });

  it('refuses another initialize', async () => {
    expect((await initialize({ adminName: 'late', adminPassword: 'late admin pass' })).status).toBe(409);
  });

  it('reports the administrator, uptime and the wizard to a logged-in admin', async () => {
    const anonymous = await core.request('GET', '/api/info');
    expect(anonymous.body).toEqual({
      motd: 'Welcome to the studio',
      version: '1.11.3',
      noAdminUser: false,
      passwordRecoveryAvailable: false,
    });
    const info = await core.request('GET', '/api/info', { token });
    expect(info.body).toMatchObject({
      noAdminUser: false,
      onboarding: true,
      user: { data: { isAdmin: true } },
    });
    expect(info.body.uptime).toBeGreaterThan(0);
    expect(info.body.addons).toBeUndefined();
    const full = await core.request('GET', '/api/info?full=true', { token });
    expect(full.body.addons).toEqual({
      auth: '1.0.0',
      users: '1.0.0',
      attributes: '1.0.0',
      events: '1.0.0',
      system: '1.0.0',
      onboarding: '1.0.0',
    });
  });

  it("gives a logged-in caller what AYON's web app reads: attributes, the caller's sites, sign-on options", async () => {
    const anonymous = await core.request('GET', '/api/info');
    for (const field of ['attributes', 'sites', 'ssoOptions', 'disableChangelog'])
      expect(anonymous.body[field]).toBeUndefined();
    const site = (id: string, hostname: string) => ({
      'x-ayon-site-id': id,
      'x-ayon-platform': 'linux',
      'x-ayon-hostname': hostname,
      'x-ayon-version': '1.3.2',
    });
    // The launcher's request registers its site; the site a request comes from is listed first.
    await core.request('GET', '/api/info', { token, headers: site('quiet-green-fox', 'ws-01') });
    const info = await core.request('GET', '/api/info', { token, headers: site('brave-red-owl', 'ws-02') });
    expect(info.status).toBe(200);
    expect(info.body.sites).toEqual([
      { id: 'brave-red-owl', platform: 'linux', hostname: 'ws-02', version: '1.3.2', users: [adminName] },
      { id: 'quiet-green-fox', platform: 'linux', hostname: 'ws-01', version: '1.3.2', users: [adminName] },
    ]);
    expect(info.body.ssoOptions).toEqual([]);
    expect(info.body.disableChangelog).toBe(false);
    const fullName = info.body.attributes.find((a: any) => a.name === 'fullName');
    expect(fullName).toMatchObject({ scope: ['user'], builtin: true, data: { type: 'string' } });
    // The definitions of GET /api/attributes, without what is none: AYON's /api/info leaves it out.
    const definitions = (await core.request('GET', '/api/attributes', { token })).body.attributes;
    expect(definitions.find((a: any) => a.name === 'fullName').data.regex).toBeNull();
    expect(info.body.attributes).toEqual(
      definitions.map(({ data, ...rest }: any) => ({
        ...rest,
        data: Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null)),
      })),
    );
    expect(JSON.stringify(info.body.attributes)).not.toContain('null');
  });

  it('lets an administrator dismiss and restart the wizard, nobody else', async () => {
    expect((await core.request('POST', '/api/onboarding/abort', { token })).status).toBe(204);
    expect((await core.request('GET', '/api/info', { token })).body.onboarding).toBe(false);
    expect((await core.request('POST', '/api/onboarding/restart', { token })).status).toBe(204);
    expect((await core.request('GET', '/api/info', { token })).body.onboarding).toBe(true);
    expect((await core.request('POST', '/api/onboarding/abort')).status).toBe(401);
    await core.request('PUT', '/api/users/artist', { token, body: { password: 'artist password' } });
    const artist = (
      await core.request('POST', '/api/auth/login', { body: { name: 'artist', password: 'artist password' } })
    ).body.token;
    expect((await core.request('POST', '/api/onboarding/restart', { token: artist })).status).toBe(403);
    expect((await core.request('GET', '/api/info', { token: artist })).body.onboarding).toBe(false);
  });
});

describe('password recovery on the login page', () => {
  it('is offered only when the server has a mail server and knows its public address', async () => {
    const offered = async (config: object) => {
      const server = await bootTestCore({ addons: ['onboarding'], config });
      try {
        return (await server.request('GET', '/api/info')).body.passwordRecoveryAvailable;
      } finally {
        await server.close();
      }
    };
    const mail = { smtpUrl: 'smtp://127.0.0.1:2525', mailFrom: 'Studio <pipeline@studio.test>' };
    expect(await offered({ ...mail, publicUrl: 'https://pipewright.studio.test' })).toBe(true);
    expect(await offered({ ...mail, publicUrl: null })).toBe(false);
    expect(await offered({ smtpUrl: null, publicUrl: 'https://pipewright.studio.test' })).toBe(false);
  });
});

describe('a server configured with PASSWORD_MIN_LENGTH=0', () => {
  it("takes AYON's usual throwaway admin/admin", async () => {
    const lax = await bootTestCore({
      addons: ['onboarding'],
      config: { passwordMinLength: 0, loginMessage: null },
    });
    try {
      // Without a login message there is no motd at all: AYON's /api/info leaves out what is none.
      expect((await lax.request('GET', '/api/info')).body).not.toHaveProperty('motd');
      const res = await lax.request('POST', '/api/onboarding/initialize', {
        body: { adminName: 'admin', adminPassword: 'admin' },
      });
      expect(res.status).toBe(200);
      const login = await lax.request('POST', '/api/auth/login', {
        body: { name: 'admin', password: 'admin' },
      });
      expect(login.body.user.name).toBe('admin');
    } finally {
      await lax.close();
    }
  });
});
