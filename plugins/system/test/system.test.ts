import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { defineAddon } from '@pipewright/sdk';
import { RestartFlag } from '../src/restart.js';
import { SiteRegistry } from '../src/sites.js';
import { nicknameOf } from '../src/metrics.js';
import { createUser, eventsOf, fixture, seed } from './helpers.js';
import { systemRef } from '../src/api.js';
import type { SystemService } from '../src/api.js';

// The system addon with the users addon behind it, and one installed addon that uses the system service the way
// other addons would: it adds project metrics (one of them broken) and keeps the service for the tests.
let core: TestCore;
let system: SystemService;
const tokens: Record<string, string> = {};

const consumer = defineAddon({
  name: 'system-consumer',
  version: '1.0.0',
  title: 'System consumer (fixture)',
  deps: { system: systemRef },
  setup(ctx, deps) {
    system = deps.system;
    system.addProjectMetrics(async (name) => ({ folderCount: name.length }));
    system.addProjectMetrics(async () => {
      throw new Error('entity store unavailable');
    });
    // A collector cannot overwrite the fields the system addon owns.
    system.addProjectMetrics(async (_name, { saturated }) => ({ nickname: 'forged', detailed: saturated }));
  },
});

beforeAll(async () => {
  // POST /api/system/restart must not stop the test process, whatever the developer's environment says.
  delete process.env.PIPEWRIGHT_ALLOW_RESTART;
  core = await bootTestCore({ addons: ['system', 'system-consumer'], extraAddons: [fixture(consumer)] });
  tokens.admin = await seed(core, 'root', { isAdmin: true });
  tokens.manager = await seed(core, 'boss', { isManager: true });
  tokens.artist = await seed(core, 'artie', {});
  tokens.other = await seed(core, 'otto', {});
  await createUser(core, 'gus', { isGuest: true });
  await createUser(core, 'bot', { isService: true });
  await createUser(core, 'gone', {});
  await core.db.updateTable('users').set({ active: false }).where('name', '=', 'gone').execute();
});
afterAll(() => core?.close());

describe('GET /api/metrics', () => {
  it('is for managers', async () => {
    expect((await core.request('GET', '/api/metrics')).status).toBe(401);
    expect((await core.request('GET', '/api/metrics', { token: tokens.artist })).status).toBe(403);
    expect((await core.request('GET', '/api/metrics', { token: tokens.manager })).status).toBe(200);
    expect((await core.request('GET', '/api/metrics', { token: tokens.admin })).status).toBe(200);
  });

  it('refuses flags that are not booleans', async () => {
    const res = await core.request('GET', '/api/metrics?system=perhaps', { token: tokens.manager });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['query', 'system']);
    const saturated = await core.request('GET', '/api/metrics?saturated=2', { token: tokens.manager });
    expect(saturated.status).toBe(422);
    expect(saturated.body.errors[0].loc).toEqual(['query', 'saturated']);
  });

  it('reads flags as FastAPI does and ignores unknown query parameters', async () => {
    const yes = await core.request('GET', '/api/metrics?system=yes', { token: tokens.manager });
    expect(yes.status).toBe(200);
    expect(yes.body).toHaveProperty('system');
    const other = await core.request('GET', '/api/metrics?other=1', { token: tokens.manager });
    expect(other.status).toBe(200);
    expect(other.body).not.toHaveProperty('system');
  });

  it('counts users by role, active ones only for roles', async () => {
    const res = await core.request('GET', '/api/metrics', { token: tokens.manager });
    expect(res.body.userCounts).toEqual({
      total: 7,
      active: 6,
      inactive: 1,
      admins: 1,
      managers: 1,
      services: 1,
      guests: 1,
      artists: 2,
    });
    expect(res.body.version).toEqual(expect.any(String));
    expect(res.body.uptime).toBeGreaterThanOrEqual(0);
    expect(res.body.addons).toEqual(expect.arrayContaining([{ name: 'system', version: '1.0.0' }]));
    expect(res.body).not.toHaveProperty('system');
    expect(res.body).not.toHaveProperty('eventTopics');
  });

  it('lists projects with their events and averages only projects with at least 300 events', async () => {
    // Projects are the kernel's project schemas; the projects addon itself is not needed here.
    for (const name of ['alpha', 'beta', 'gamma'])
      await sql`CREATE SCHEMA ${sql.id(`project_${name}`)}`.execute(core.db);
    const burst = (project: string, count: number) =>
      core.events.emitMany(
        Array.from({ length: count }, () => ({ topic: 'entity.folder.created', project })),
      );
    await burst('Alpha', 300);
    await burst('gamma', 500);
    await burst('beta', 299);
    await burst('deleted_project', 1000);

    const res = await core.request('GET', '/api/metrics', { token: tokens.manager });
    expect(res.status).toBe(200);
    expect(res.body.projectCount).toBe(3);
    expect(res.body.projects).toEqual([
      { nickname: nicknameOf('alpha'), eventCount: 300, folderCount: 5, detailed: false },
      { nickname: nicknameOf('beta'), eventCount: 299, folderCount: 4, detailed: false },
      { nickname: nicknameOf('gamma'), eventCount: 500, folderCount: 5, detailed: false },
    ]);
    // beta stays under the threshold, deleted_project is no project: (300 + 500) / 2.
    expect(res.body.averageProjectEventCount).toBe(400);
    expect(res.body.eventCount).toBeGreaterThanOrEqual(2099);
  });

  it('adds project names and events per topic when saturated, machine facts with system', async () => {
    const res = await core.request('GET', '/api/metrics?saturated=true&system=true', {
      token: tokens.manager,
    });
    expect(res.status).toBe(200);
    expect(res.body.projects[0]).toEqual({
      nickname: nicknameOf('alpha'),
      name: 'alpha',
      eventCount: 300,
      folderCount: 5,
      detailed: true,
    });
    expect(res.body.eventTopics['entity.folder.created']).toBe(2099);
    expect(res.body.system).toMatchObject({
      platform: process.platform,
      nodeVersion: process.versions.node,
      database: core.database.kind,
      idleConnections: expect.any(Number),
      cpuCount: expect.any(Number),
    });
  });

  it('leaves the average out when no project is busy enough, as AYON leaves out what is none', async () => {
    await sql`DELETE FROM events WHERE topic = 'entity.folder.created'`.execute(core.db);
    const res = await core.request('GET', '/api/metrics', { token: tokens.manager });
    expect(res.body).not.toHaveProperty('averageProjectEventCount');
    for (const name of ['alpha', 'beta', 'gamma'])
      await sql`DROP SCHEMA ${sql.id(`project_${name}`)}`.execute(core.db);
    expect((await core.request('GET', '/api/metrics', { token: tokens.manager })).body.projects).toEqual([]);
  });
});

describe('GET /api/metrics/system', () => {
  const scrape = (token?: string) => core.request('GET', '/api/metrics/system', { token });

  it('is for managers', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape(tokens.artist)).status).toBe(403);
  });

  it('answers the Prometheus text format', async () => {
    await core.request('GET', '/api/no/such/route', { token: tokens.manager });
    await core.request('GET', '/api/system/restartRequired', { token: tokens.artist });
    const res = await scrape(tokens.manager);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const lines = res.text.trimEnd().split('\n');
    for (const line of lines) {
      expect(line).toMatch(
        /^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*",?)*\})? -?[0-9.e+-]+|NaN)$/,
      );
    }
    const value = (prefix: string) => {
      const line = lines.find((l) => l.startsWith(prefix));
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    expect(value('process_resident_memory_bytes ')).toBeGreaterThan(0);
    expect(value('pipewright_uptime_seconds ')).toBeGreaterThanOrEqual(0);
    expect(value('nodejs_eventloop_lag_p99_seconds ')).toBeGreaterThanOrEqual(0);
    expect(
      value(`pipewright_db_pool_idle_connections{database="${core.database.kind}"} `),
    ).toBeGreaterThanOrEqual(0);
    expect(
      value('pipewright_http_requests_total{method="GET",route="/api/system/restartRequired",status="200"} '),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value('pipewright_http_requests_total{method="GET",route="unmatched",status="404"} '),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value('pipewright_http_requests_total{method="GET",route="/api/metrics/system",status="401"} '),
    ).toBe(1);
    expect(res.text).toContain('# TYPE pipewright_http_requests_total counter');
    expect(
      value(
        'pipewright_http_request_duration_seconds_count{method="GET",route="/api/metrics/system",status="403"} ',
      ),
    ).toBe(1);
  });
});

describe('the restart-required flag', () => {
  const get = (token?: string) => core.request('GET', '/api/system/restartRequired', { token });
  const post = (body: unknown, token = tokens.admin) =>
    core.request('POST', '/api/system/restartRequired', { token, body });

  it('is clear at first, and readable by any logged-in user', async () => {
    expect((await get()).status).toBe(401);
    const res = await get(tokens.artist);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ required: false, reason: null });
  });

  it('is set and cleared by administrators only', async () => {
    expect((await post({ required: true, reason: 'x' }, tokens.manager)).status).toBe(403);
    expect(
      (await core.request('POST', '/api/system/restartRequired', { body: { required: true } })).status,
    ).toBe(401);

    expect((await post({ required: true, reason: 'New attribute scope' })).status).toBe(204);
    expect((await get(tokens.artist)).body).toEqual({ required: true, reason: 'New attribute scope' });
    const [event] = await eventsOf(core, 'server.restart_required');
    expect(event).toMatchObject({
      user_name: 'root',
      summary: { required: true, reason: 'New attribute scope' },
    });

    expect((await post({ required: false, reason: 'ignored when clearing' })).status).toBe(204);
    expect((await get(tokens.artist)).body).toEqual({ required: false, reason: null });
  });

  it('refuses bad bodies with 422', async () => {
    const locs = async (body: unknown) => {
      const res = await post(body);
      expect(res.status).toBe(422);
      // A nullable field reports each branch it failed; one location each is what matters.
      return [...new Set(res.body.errors.map((e: any) => e.loc.join('.')))];
    };
    expect(await locs({ required: 'yes' })).toEqual(['body.required']);
    expect(await locs({ reason: 'no flag' })).toEqual(['body.required']);
    expect(await locs({ required: true, reason: 42 })).toEqual(['body.reason']);
    expect(await locs([true])).toEqual(['body']);
    expect((await get(tokens.artist)).body).toEqual({ required: false, reason: null });
  });

  it('takes a reason of any length, as AYON does', async () => {
    const reason = 'r'.repeat(20_000);
    expect((await post({ required: true, reason })).status).toBe(204);
    expect((await get(tokens.artist)).body).toEqual({ required: true, reason });
    expect((await post({ required: false })).status).toBe(204);
  });

  it('ignores fields it does not know, as AYON does', async () => {
    expect((await post({ required: false, extra: 1 })).status).toBe(204);
    expect((await get(tokens.artist)).body).toEqual({ required: false, reason: null });
  });

  it('can be raised by other addons through the system service', async () => {
    await system.requireRestart('Addon installed');
    expect(await system.restartStatus()).toEqual({ required: true, reason: 'Addon installed' });
    expect((await get(tokens.artist)).body).toEqual({ required: true, reason: 'Addon installed' });
  });

  it('is cleared by a process that started after it was raised, not by an older one', async () => {
    const flag = new RestartFlag(core.db, core.events);
    await flag.set(true, 'schema change');
    expect(await flag.clearIfRaisedBefore(new Date(Date.now() - 60_000))).toBe(false);
    expect((await flag.status()).required).toBe(true);
    expect(await flag.clearIfRaisedBefore(new Date(Date.now() + 1000))).toBe(true);
    expect(await flag.status()).toEqual({ required: false, reason: null });
  });
});

describe('POST /api/system/restart', () => {
  it('is for administrators', async () => {
    expect((await core.request('POST', '/api/system/restart')).status).toBe(401);
    expect((await core.request('POST', '/api/system/restart', { token: tokens.manager })).status).toBe(403);
  });

  it('records the request as an event and keeps running when restarts are not allowed', async () => {
    const heard: string[] = [];
    const stop = core.events.subscribe(
      'server.restart_requested',
      (message) => void heard.push(message.user ?? ''),
    );
    try {
      const res = await core.request('POST', '/api/system/restart', { token: tokens.admin });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard).toEqual(['root']);
      const events = await eventsOf(core, 'server.restart_requested');
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ user_name: 'root', description: 'Server restart requested by root' });
      // Still serving.
      expect((await core.request('GET', '/api/system/restartRequired', { token: tokens.admin })).status).toBe(
        200,
      );
    } finally {
      stop();
    }
  });
});

describe('sites', () => {
  const from = (site: string, extra: Record<string, string> = {}) => ({
    'x-ayon-site-id': site,
    'x-ayon-platform': 'linux',
    'x-ayon-hostname': 'ws-01',
    'x-ayon-version': '1.2.3',
    ...extra,
  });
  const touch = (token: string | undefined, headers: Record<string, string>) =>
    core.request('GET', '/api/system/restartRequired', { token, headers });
  const list = async (token: string, query = '') => {
    const res = await core.request('GET', `/api/system/sites${query}`, { token });
    expect(res.status).toBe(200);
    return res.body as any[];
  };

  it('registers the site of a logged-in request, with its details and users', async () => {
    await touch(tokens.artist, from('brave-red-fox'));
    await touch(tokens.other, from('brave-red-fox', { 'x-ayon-version': '1.2.4' }));
    await touch(
      tokens.other,
      from('calm-blue-owl', { 'x-ayon-platform': 'Windows', 'x-ayon-hostname': 'ws-02' }),
    );
    const sites = await list(tokens.manager);
    expect(sites).toEqual([
      {
        id: 'brave-red-fox',
        platform: 'linux',
        hostname: 'ws-01',
        version: '1.2.4',
        users: ['artie', 'otto'],
        lastSeen: expect.any(String),
      },
      {
        id: 'calm-blue-owl',
        platform: 'windows',
        hostname: 'ws-02',
        version: '1.2.3',
        users: ['otto'],
        lastSeen: expect.any(String),
      },
    ]);
  });

  it('ignores anonymous requests and malformed site ids', async () => {
    await touch(undefined, from('anonymous-site'));
    await touch(tokens.artist, from('has spaces'));
    await touch(tokens.artist, from('x'.repeat(200)));
    const ids = (await list(tokens.manager)).map((site) => site.id);
    expect(ids).toEqual(['brave-red-fox', 'calm-blue-owl']);
  });

  it('shows managers every site and others only the sites they worked from', async () => {
    expect((await list(tokens.artist)).map((site) => site.id)).toEqual(['brave-red-fox']);
    expect((await list(tokens.other)).map((site) => site.id)).toEqual(['brave-red-fox', 'calm-blue-owl']);
    expect((await core.request('GET', '/api/system/sites')).status).toBe(401);
  });

  it('filters by platform and hostname', async () => {
    expect((await list(tokens.manager, '?platform=windows')).map((site) => site.id)).toEqual([
      'calm-blue-owl',
    ]);
    expect((await list(tokens.manager, '?hostname=ws-01')).map((site) => site.id)).toEqual(['brave-red-fox']);
    expect(await list(tokens.manager, '?platform=darwin')).toEqual([]);
    // Any hostname, as in AYON: an unknown one matches nothing, an empty one filters nothing.
    expect(await list(tokens.manager, `?hostname=${'h'.repeat(1000)}`)).toEqual([]);
    expect((await list(tokens.manager, '?hostname=')).length).toBe(2);
    const bad = await core.request('GET', '/api/system/sites?platform=amiga', { token: tokens.manager });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['query', 'platform']);
  });

  it('writes a site seen again with the same details at most once a minute', async () => {
    let now = 1_000_000;
    const registry = new SiteRegistry(core.db, () => now);
    const request = { headers: from('quiet-grey-cat'), user: { name: 'artie' } } as any;
    const lastSeen = async () =>
      (
        await core.db
          .selectFrom('sites')
          .select('last_seen')
          .where('id', '=', 'quiet-grey-cat')
          .executeTakeFirst()
      )?.last_seen;
    await registry.seen(request);
    const first = await lastSeen();
    expect(first).toBeDefined();
    await core.db.deleteFrom('sites').where('id', '=', 'quiet-grey-cat').execute();
    now += 30_000;
    await registry.seen(request);
    expect(await lastSeen()).toBeUndefined();
    // Another user on the same site is news, and so is the same one a minute later.
    await registry.seen({ ...request, user: { name: 'otto' } });
    expect(await lastSeen()).toBeDefined();
    now += 31_000;
    await registry.seen(request);
    const row = await core.db
      .selectFrom('sites')
      .select('users')
      .where('id', '=', 'quiet-grey-cat')
      .executeTakeFirst();
    expect(row?.users).toEqual(['otto', 'artie']);
  });

  it('deletes a site (managers), 404 when unknown, 422 for a malformed id', async () => {
    const del = (id: string, token?: string) => core.request('DELETE', `/api/system/sites/${id}`, { token });
    expect((await del('calm-blue-owl')).status).toBe(401);
    expect((await del('calm-blue-owl', tokens.artist)).status).toBe(403);
    const res = await del('calm-blue-owl', tokens.manager);
    expect(res.status).toBe(204);
    expect((await del('calm-blue-owl', tokens.manager)).status).toBe(404);
    expect((await del('-bad-', tokens.manager)).status).toBe(422);
    expect((await list(tokens.manager)).map((site) => site.id)).not.toContain('calm-blue-owl');
    // A deleted site registers again with its next request.
    await touch(tokens.other, from('calm-blue-owl'));
    expect((await list(tokens.manager)).map((site) => site.id)).toContain('calm-blue-owl');
  });
});

describe('the API description', () => {
  it('lists every route of the addon under its tag', async () => {
    const res = await core.request('GET', '/openapi.json');
    const paths = res.body.paths;
    for (const [path, method] of [
      ['/api/metrics', 'get'],
      ['/api/metrics/system', 'get'],
      ['/api/system/restartRequired', 'get'],
      ['/api/system/restartRequired', 'post'],
      ['/api/system/restart', 'post'],
      ['/api/system/sites', 'get'],
      ['/api/system/sites/{site_id}', 'delete'],
      ['/api/config', 'get'],
      ['/api/config', 'post'],
      ['/api/config', 'patch'],
      ['/api/config/schema', 'get'],
      ['/api/config/overrides', 'get'],
      ['/api/config/value/{key}', 'get'],
      ['/api/config/files/{file_type}', 'get'],
      ['/api/config/files/{file_type}', 'put'],
    ]) {
      expect(paths[path]?.[method]?.tags).toEqual([
        path.startsWith('/api/config') ? 'Configuration' : 'System',
      ]);
    }
  });
});
