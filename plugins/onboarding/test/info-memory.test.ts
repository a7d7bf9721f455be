import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';

// GET /api/info remembers what it reads (it is polled by every client); a change must show in the next answer.
let core: TestCore;
let token: string;
beforeAll(async () => {
  core = await bootTestCore({ addons: ['onboarding'] });
  const res = await core.request('POST', '/api/onboarding/initialize', {
    body: { adminName: 'admin', adminPassword: 'admin password' },
  });
  token = res.body.token;
});
afterAll(() => core.close());

const info = async () => (await core.request('GET', '/api/info', { token })).body;

describe('GET /api/info after a change', () => {
  it("shows the caller's own user as changed at once", async () => {
    expect((await info()).user.attrib.fullName).toBeFalsy();
    const patched = await core.request('PATCH', '/api/users/admin', {
      token,
      body: { attrib: { fullName: 'Ada Admin' } },
    });
    expect(patched.status).toBeLessThan(300);
    expect((await info()).user.attrib.fullName).toBe('Ada Admin');
  });

  it('shows the onboarding flag as changed at once when the wizard is dismissed and restarted', async () => {
    await core.request('POST', '/api/onboarding/restart', { token });
    expect((await info()).onboarding).toBe(true);
    await core.request('POST', '/api/onboarding/abort', { token });
    expect((await info()).onboarding).toBe(false);
    await core.request('POST', '/api/onboarding/restart', { token });
    expect((await info()).onboarding).toBe(true);
  });
});
