import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { defineAddon } from '@pipewright/sdk';
import { greetingsRef } from '../src/api.js';
import addon from '../src/index.js';

// Another addon using this one's service through its reference, as any dependant would.
const neighbour = defineAddon({
  name: 'neighbour',
  version: '0.1.0',
  title: 'Neighbour',
  deps: { greetings: greetingsRef },
  setup(ctx, { greetings }) {
    ctx.app.get('/greet-bob', async () => greetings.greet('bob'));
  },
});

// The core with just this addon (and the internal addons it depends on), on a throwaway embedded database.
const ADMIN = { name: 'admin', password: 'a strong password' };
const BASE = `/api/addons/${addon.name}/${addon.version}`;
let core: TestCore;
let token: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['onboarding'], extraAddons: [addon, neighbour] });
  await core.request('POST', '/api/onboarding/initialize', {
    body: { adminName: ADMIN.name, adminPassword: ADMIN.password },
  });
  token = (await core.request('POST', '/api/auth/login', { body: ADMIN })).body.token;
});
afterAll(() => core?.close());

describe(addon.title, () => {
  it('greets the caller with the greeting from its settings and counts the visits', async () => {
    expect((await core.request('GET', `${BASE}/hello`, { token })).body).toEqual({
      message: 'Hello, admin',
      visits: 1,
    });
    const saved = await core.request('POST', `${BASE}/settings`, { token, body: { greeting: 'Welcome' } });
    expect(saved.status).toBe(204);
    expect((await core.request('GET', `${BASE}/hello`, { token })).body).toEqual({
      message: 'Welcome, admin',
      visits: 2,
    });
  });

  it('offers its greetings to other addons through its service reference', async () => {
    const res = await core.request('GET', '/api/addons/neighbour/0.1.0/greet-bob', { token });
    // In the studio's words, as saved by the test above.
    expect(res.body).toEqual({ message: 'Welcome, bob', visits: 1 });
  });

  it('asks callers to log in', async () => {
    expect((await core.request('GET', `${BASE}/hello`)).status).toBe(401);
  });
});
