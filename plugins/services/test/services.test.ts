import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { bootTestCore, fixedUserSource, type TestCore } from '@pipewright/core/testing';
import { defineAddon } from '@pipewright/sdk';

const PASSWORD = 'correct horse battery';
const SERVICE_KEY = '0123456789abcdef0123456789abcdef';

// Users of every role, without the users addon; svc is the service user a service host runs as.
const userSource = fixedUserSource(
  'service-users',
  { alice: {}, boss: { isManager: true }, root: { isAdmin: true }, svc: { isService: true } },
  { password: PASSWORD, serviceKey: SERVICE_KEY },
);

// An addon describing two services: one with an image, one without.
const tracker = defineAddon({
  name: 'tracker',
  version: '1.4.0',
  title: 'Tracker sync (fixture)',
  services: { processor: { image: 'example/tracker-processor:1.4.0' }, leecher: {} },
});

let core: TestCore;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  core = await bootTestCore({
    addons: ['services', 'service-users', 'tracker'],
    extraAddons: [userSource, tracker],
  });
  for (const name of ['alice', 'boss', 'root']) {
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
    tokens[name] = res.body.token;
  }
});
afterAll(() => core.close());

const put = (
  name: string,
  body: Record<string, unknown>,
  auth: { token?: string; apiKey?: string } = { token: tokens.root },
) => core.request('PUT', `/api/services/${name}`, { ...auth, body });
const patch = (name: string, body: Record<string, unknown>, token = tokens.root) =>
  core.request('PATCH', `/api/services/${name}`, { token, body });
const heartbeat = (
  body: Record<string, unknown>,
  auth: { token?: string; apiKey?: string } = { apiKey: SERVICE_KEY },
) => core.request('POST', '/api/hosts/heartbeat', { ...auth, body });
const listServices = async () => {
  const res = await core.request('GET', '/api/services', { token: tokens.boss });
  expect(res.status).toBe(200);
  return res.body.services as any[];
};
const service = async (name: string) => (await listServices()).find((s) => s.name === name);
const spec = { addonName: 'tracker', addonVersion: '1.4.0', service: 'processor', hostname: 'ash-01' };

describe('managing services', () => {
  it('assigns a service to a host, taking the image from the addon', async () => {
    expect(await listServices()).toEqual([]);
    expect((await put('proc-a', spec)).status).toBe(204);
    expect(await listServices()).toEqual([
      {
        name: 'proc-a',
        hostname: 'ash-01',
        addonName: 'tracker',
        addonVersion: '1.4.0',
        service: 'processor',
        shouldRun: true,
        isRunning: false,
        lastSeen: null,
        lastSeenDelta: null,
        data: {
          image: 'example/tracker-processor:1.4.0',
          env: {},
          volumes: null,
          ports: null,
          memLimit: null,
          user: null,
          storagePath: null,
        },
      },
    ]);
  });

  it('takes container settings as data or config, and shouldRun', async () => {
    const res = await put('leech.b', {
      ...spec,
      service: 'leecher',
      shouldRun: false,
      data: { image: 'example/leecher:2', env: { TRACKER_URL: 'https://tracker' }, volumes: ['/mnt:/mnt'] },
      config: { memLimit: '2g', ports: ['8080:80'] },
    });
    expect(res.status).toBe(204);
    expect(await service('leech.b')).toMatchObject({
      service: 'leecher',
      shouldRun: false,
      data: {
        image: 'example/leecher:2',
        env: { TRACKER_URL: 'https://tracker' },
        volumes: ['/mnt:/mnt'],
        ports: ['8080:80'],
        memLimit: '2g',
        user: null,
        storagePath: null,
      },
    });
    // A service the addon describes without an image has none unless the request names one.
    expect((await put('leech_c', { ...spec, service: 'leecher', hostname: 'ash-02' })).status).toBe(204);
    expect((await service('leech_c')).data.image).toBeNull();
  });

  it('refuses duplicates, unknown addons, versions and services', async () => {
    const duplicate = await put('proc-a', spec);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ code: 409, detail: 'Service proc-a already exists' });
    expect((await put('x1', { ...spec, addonName: 'nothing' })).status).toBe(404);
    expect((await put('x1', { ...spec, addonVersion: '9.9.9' })).status).toBe(404);
    const noService = await put('x1', { ...spec, service: 'transcoder' });
    expect(noService.status).toBe(404);
    expect(noService.body.detail).toBe('Addon tracker 1.4.0 has no service transcoder');
    expect(await service('x1')).toBeUndefined();
  });

  it('patches shouldRun and merges container settings', async () => {
    expect((await patch('leech.b', { shouldRun: true })).status).toBe(204);
    expect((await service('leech.b')).shouldRun).toBe(true);
    expect(
      (await patch('leech.b', { config: { memLimit: '4g', volumes: null }, data: { user: 'render' } }))
        .status,
    ).toBe(204);
    expect((await service('leech.b')).data).toEqual({
      image: 'example/leecher:2',
      env: { TRACKER_URL: 'https://tracker' },
      volumes: null,
      ports: ['8080:80'],
      memLimit: '4g',
      user: 'render',
      storagePath: null,
    });
    expect((await patch('leech.b', { shouldRun: false, data: { env: { A: '1' } } })).status).toBe(204);
    expect(await service('leech.b')).toMatchObject({
      shouldRun: false,
      data: { env: { A: '1' }, memLimit: '4g' },
    });
    // AYON 1.11.3's own fields: top-level settings (winning over config), snake_case too, and the host.
    const home = (await service('leech.b')).hostname;
    const moved = await patch('leech.b', {
      hostname: 'worker-07',
      ports: ['9090:90'],
      storage_path: '/mnt/cache',
      config: { ports: ['1:1'], user: 'farm' },
    });
    expect(moved.status).toBe(204);
    expect(await service('leech.b')).toMatchObject({
      hostname: 'worker-07',
      data: { ports: ['9090:90'], storagePath: '/mnt/cache', user: 'farm', memLimit: '4g' },
    });
    expect((await patch('leech.b', { hostname: home })).status).toBe(204);
    // An empty patch changes nothing.
    expect((await patch('leech.b', {})).status).toBe(204);
    expect((await service('leech.b')).shouldRun).toBe(false);
    expect((await patch('missing', { shouldRun: true })).status).toBe(404);
  });

  it('deletes, then answers 404', async () => {
    expect((await core.request('DELETE', '/api/services/leech_c', { token: tokens.root })).status).toBe(204);
    expect(await service('leech_c')).toBeUndefined();
    const again = await core.request('DELETE', '/api/services/leech_c', { token: tokens.root });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 404, detail: 'Service leech_c not found' });
  });

  it('lets admins and service users change services, managers only look', async () => {
    expect((await put('svc-made', spec, { apiKey: SERVICE_KEY })).status).toBe(204);
    expect((await core.request('DELETE', '/api/services/svc-made', { apiKey: SERVICE_KEY })).status).toBe(
      204,
    );
    expect((await put('x2', spec, { token: tokens.boss })).status).toBe(403);
    expect((await patch('proc-a', { shouldRun: false }, tokens.boss)).status).toBe(403);
    expect((await core.request('DELETE', '/api/services/proc-a', { token: tokens.boss })).status).toBe(403);
    expect((await core.request('GET', '/api/services', { token: tokens.alice })).status).toBe(403);
    expect((await core.request('GET', '/api/hosts', { token: tokens.alice })).status).toBe(403);
    expect((await put('x2', spec, { token: tokens.alice })).status).toBe(403);
    expect((await core.request('GET', '/api/hosts', { token: tokens.boss })).status).toBe(200);
  });
});

describe('hosts and heartbeats', () => {
  beforeAll(async () => {
    await put('proc-b', spec);
    await put('proc-other', { ...spec, hostname: 'ash-09' });
    await patch('leech.b', { shouldRun: false });
  });

  it('records the host, marks the services it runs and answers those it should run', async () => {
    const res = await heartbeat({
      hostname: 'ash-01',
      health: { cpu: 12.5, mem: 40 },
      services: ['proc-a', 'leech.b', 'proc-other'],
    });
    expect(res.status).toBe(200);
    // Only the host's own services that should run: leech.b is stopped, proc-other lives on another host.
    expect(res.body.services.map((s: any) => s.name)).toEqual(['proc-a', 'proc-b']);
    expect(res.body.services[0]).toMatchObject({ name: 'proc-a', isRunning: true, hostname: 'ash-01' });

    const hosts = await core.request('GET', '/api/hosts', { token: tokens.boss });
    expect(hosts.body).toEqual({
      hosts: [{ name: 'ash-01', lastSeen: expect.any(String), health: { cpu: 12.5, mem: 40 } }],
    });
    expect(Date.now() - Date.parse(hosts.body.hosts[0].lastSeen)).toBeLessThan(60_000);

    const a = await service('proc-a');
    expect(a.isRunning).toBe(true);
    expect(a.lastSeenDelta).toBeGreaterThanOrEqual(0);
    expect(a.lastSeenDelta).toBeLessThan(60);
    expect(Date.parse(a.lastSeen)).toBeGreaterThan(Date.now() - 60_000);
    // Listed but assigned here and stopped: reported running all the same (it is still up until the host stops it).
    expect((await service('leech.b')).isRunning).toBe(true);
    // Not listed: not running, never seen.
    expect(await service('proc-b')).toMatchObject({ isRunning: false, lastSeen: null });
    // Another host's service is not marked by this host's report.
    expect(await service('proc-other')).toMatchObject({ isRunning: false, lastSeen: null });
  });

  it('marks a service no longer reported as stopped, keeping when it was last seen', async () => {
    const before = (await service('proc-a')).lastSeen;
    const res = await heartbeat({ hostname: 'ash-01', health: { cpu: 99, mem: 1 }, services: ['proc-b'] });
    expect(res.status).toBe(200);
    expect(await service('proc-a')).toMatchObject({ isRunning: false, lastSeen: before });
    expect((await service('proc-b')).isRunning).toBe(true);
    const hosts = await core.request('GET', '/api/hosts', { token: tokens.root });
    expect(hosts.body.hosts[0].health).toEqual({ cpu: 99, mem: 1 });
    // An empty list (or none) stops them all.
    await heartbeat({ hostname: 'ash-01', health: { cpu: 0, mem: 0 } });
    expect((await service('proc-b')).isRunning).toBe(false);
  });

  it('reports a service of a silent host as not running', async () => {
    await heartbeat({ hostname: 'ash-01', health: { cpu: 1, mem: 1 }, services: ['proc-a'] });
    await sql`UPDATE services SET last_seen = now() - interval '5 minutes' WHERE name = 'proc-a'`.execute(
      core.db,
    );
    const a = await service('proc-a');
    expect(a.isRunning).toBe(false);
    expect(a.lastSeenDelta).toBeGreaterThan(290);
  });

  it('forgets hosts silent for a day', async () => {
    await sql`INSERT INTO hosts (name, last_seen) VALUES ('old-host', now() - interval '2 days')`.execute(
      core.db,
    );
    const hosts = await core.request('GET', '/api/hosts', { token: tokens.root });
    expect(hosts.body.hosts.map((h: any) => h.name)).toEqual(['ash-01']);
    await heartbeat({ hostname: 'ash-02', health: { cpu: 5, mem: 5 } });
    const left = await core.db.selectFrom('hosts').select('name').orderBy('name').execute();
    expect(left.map((h) => h.name)).toEqual(['ash-01', 'ash-02']);
  });

  it('accepts heartbeats from service users and admins only', async () => {
    const beat = { hostname: 'ash-03', health: { cpu: 1, mem: 2 } };
    expect((await heartbeat(beat, { token: tokens.root })).status).toBe(200);
    expect((await heartbeat(beat, { token: tokens.boss })).status).toBe(403);
    expect((await heartbeat(beat, { token: tokens.alice })).status).toBe(403);
    // Newer service hosts may send fields this server does not know; they are ignored.
    expect((await heartbeat({ ...beat, version: '1.2.0' })).status).toBe(200);
  });
});

describe('access and validation', () => {
  it('answers 401 without login on every route', async () => {
    const calls: [string, string, unknown][] = [
      ['GET', '/api/services', undefined],
      ['PUT', '/api/services/proc-z', spec],
      ['PATCH', '/api/services/proc-a', { shouldRun: false }],
      ['DELETE', '/api/services/proc-a', undefined],
      ['GET', '/api/hosts', undefined],
      ['POST', '/api/hosts/heartbeat', { hostname: 'h', health: { cpu: 1, mem: 1 } }],
    ];
    for (const [method, url, body] of calls) {
      const res = await core.request(method, url, { body });
      expect([url, res.status, res.body]).toEqual([url, 401, { code: 401, detail: expect.any(String) }]);
    }
    expect(await service('proc-a')).toBeDefined();
  });

  const locs = (res: { status: number; body: any }) => {
    expect(res.status).toBe(422);
    return [...new Set(res.body.errors.map((e: any) => e.loc.join('.')))];
  };

  it('answers 422 for bad input on PUT', async () => {
    // Any service name is valid, as in AYON (a new service is named by the path).
    expect((await put('-dash%20name', spec)).status).toBe(204);
    expect((await core.request('DELETE', '/api/services/-dash%20name', { token: tokens.root })).status).toBe(
      204,
    );
    const { addonName: _omitted, ...noAddon } = spec;
    expect(locs(await put('x3', noAddon))).toEqual(['body.addonName']);
    expect(locs(await put('x3', { ...spec, shouldRun: 'yes' }))).toEqual(['body.shouldRun']);
    // Any host name, as in AYON, up to what its index can hold.
    expect(locs(await put('x3', { ...spec, hostname: 'h'.repeat(501) }))).toEqual(['body.hostname']);
    expect(locs(await put('x3', { ...spec, data: { memLimit: 5 } }))).toEqual(['body.data.memLimit']);
    expect(locs(await put('x3', { ...spec, config: { ports: '80:80' } }))).toContain('body.config.ports');
    expect(await service('x3')).toBeUndefined();
  });

  it('answers 422 for bad input on PATCH and DELETE', async () => {
    // Any service name is valid, as in AYON: one that names no service is not found.
    expect((await patch('bad%20name', {})).status).toBe(404);
    expect(locs(await patch('proc-a', { shouldRun: 'no' }))).toContain('body.shouldRun');
    expect(locs(await patch('proc-a', { data: { env: 'A=1' } }))).toContain('body.data.env');
    expect(locs(await patch('proc-a', { hostname: 'h'.repeat(501) }))).toEqual(['body.hostname']);
    expect(locs(await patch('proc-a', { ports: '80:80' }))).toEqual(['body.ports']);
    // Unknown keys are ignored, as AYON's models ignore them.
    expect((await patch('proc-a', { image: 'elsewhere/x:1', colour: 'red' })).status).toBe(204);
    expect((await service('proc-a'))?.data.image).not.toBe('elsewhere/x:1');
    expect((await core.request('DELETE', '/api/services/bad%20name', { token: tokens.root })).status).toBe(
      404,
    );
  });

  it('answers 422 for bad heartbeats: cpu and mem from 0 to 100, a host name, a list of names', async () => {
    const health = { cpu: 1, mem: 1 };
    expect(locs(await heartbeat({ hostname: 'h', health: { cpu: 101, mem: 1 } }))).toEqual([
      'body.health.cpu',
    ]);
    expect(locs(await heartbeat({ hostname: 'h', health: { cpu: 1, mem: -1 } }))).toEqual([
      'body.health.mem',
    ]);
    expect(locs(await heartbeat({ hostname: 'h', health: { cpu: '50', mem: 1 } }))).toEqual([
      'body.health.cpu',
    ]);
    expect(locs(await heartbeat({ health }))).toEqual(['body.hostname']);
    expect(locs(await heartbeat({ hostname: 'h' }))).toEqual(['body.health']);
    expect(locs(await heartbeat({ hostname: 'h'.repeat(501), health }))).toEqual(['body.hostname']);
    expect(locs(await heartbeat({ hostname: 'h', health, services: 'proc-a' }))).toEqual(['body.services']);
    // Any service name, as in AYON: one that names no service changes nothing.
    expect((await heartbeat({ hostname: 'h', health, services: ['bad name'] })).status).toBe(200);
    // Bounds are inclusive.
    expect((await heartbeat({ hostname: 'h', health: { cpu: 100, mem: 0 } })).status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('lists every route under the Services tag', async () => {
    const doc = (await core.request('GET', '/openapi.json')).body;
    const routes = [
      ['get', '/api/services'],
      ['put', '/api/services/{name}'],
      ['patch', '/api/services/{service_name}'],
      ['delete', '/api/services/{name}'],
      ['get', '/api/hosts'],
      ['post', '/api/hosts/heartbeat'],
    ];
    for (const [method, path] of routes)
      expect([path, doc.paths[path]?.[method]?.tags]).toEqual([path, ['Services']]);
  });
});
