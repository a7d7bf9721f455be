import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { addonRef, defineAddon, Forbidden, ValidationFailed } from '@pipewright/sdk';
import { bootTestCore, type TestCore } from '../src/testing.js';

// Request hooks answer a promise only when they wait: the core must still run them one after another, in setup
// order, whichever of them wait, and answer what any of them throws or rejects with.
const TRAIL = '/api/addons/hooks-second/1.0.0/trail';
const trails = new WeakMap<object, string[]>();
const trail = (request: object) => trails.get(request) ?? trails.set(request, []).get(request)!;

const first = defineAddon({
  name: 'hooks-first',
  title: 'First request hook (fixture)',
  version: '1.0.0',
  setup(ctx) {
    ctx.addRequestHook((request) => {
      if (request.headers['x-throw'] === 'first') throw new ValidationFailed([], 'first refused');
      if (request.headers['x-wait'] !== 'first') return void trail(request).push('first');
      return sleep(20).then(() => void trail(request).push('first (waited)'));
    });
  },
});

const second = defineAddon({
  name: 'hooks-second',
  title: 'Later request hooks (fixture)',
  version: '1.0.0',
  deps: { first: addonRef('hooks-first') },
  setup(ctx) {
    ctx.addRequestHook(async (request) => {
      if (request.headers['x-throw'] === 'second') throw new Forbidden('second refused');
      trail(request).push('second');
    });
    ctx.addRequestHook((request) => void trail(request).push('third'));
    ctx.app.get('/trail', { schema: { security: [] } }, async (request) => ({ trail: trail(request) }));
  },
});

describe('request hooks of the addons', () => {
  let core: TestCore;
  beforeAll(async () => {
    core = await bootTestCore({ addons: [], extraAddons: [first, second] });
  });
  afterAll(() => core.close());

  it('run in setup order whether a hook answers at once or waits', async () => {
    const direct = await core.request('GET', TRAIL);
    expect(direct.body).toEqual({ trail: ['first', 'second', 'third'] });
    const waited = await core.request('GET', TRAIL, { headers: { 'x-wait': 'first' } });
    expect(waited.body).toEqual({ trail: ['first (waited)', 'second', 'third'] });
  });

  it('answer the error a hook throws or rejects with, and the route does not run', async () => {
    const thrown = await core.request('GET', TRAIL, { headers: { 'x-throw': 'first' } });
    expect([thrown.status, thrown.body.detail]).toEqual([422, 'first refused']);
    const rejected = await core.request('GET', TRAIL, { headers: { 'x-throw': 'second' } });
    expect([rejected.status, rejected.body]).toEqual([403, { code: 403, detail: 'second refused' }]);
  });
});
