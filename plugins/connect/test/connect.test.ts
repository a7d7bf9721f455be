import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, freePort, seedUser, type TestCore } from '@pipewright/core/testing';
import { ORG, startCloudStandIn, startSilentServer, type CloudStandIn } from './cloud-stand-in.js';
import { ynputCloudRef } from '../src/api.js';

// No internet here: a local HTTP server stands in for Ynput Cloud (cloud-stand-in.ts), and a port nothing listens
// on plays the cloud that cannot be reached. YNPUT_CLOUD_URL is read at each call, so a test points it where it wants.
let core: TestCore;
let cloud: CloudStandIn;
let admin: string;
let manager: string;
let artist: string;
let guest: string;
let instanceId: string;
const saved = { url: process.env.YNPUT_CLOUD_URL, timeout: process.env.YNPUT_CLOUD_TIMEOUT };
const NOT_CONNECTED =
  'This server is not connected to Ynput Cloud; an administrator can connect it with POST /api/connect';

const useCloud = (url: string) => {
  process.env.YNPUT_CLOUD_URL = url;
};
const closedPortUrl = async () => `http://127.0.0.1:${await freePort()}`;
const storedKey = async () =>
  (await core.request('GET', '/api/secrets/ynput_cloud_key', { token: admin })).body;
const meCalls = () => cloud.received.filter((r) => r.path === '/api/v1/me').length;

beforeAll(async () => {
  delete process.env.YNPUT_CLOUD_TIMEOUT;
  cloud = await startCloudStandIn();
  useCloud(cloud.url);
  core = await bootTestCore({ addons: ['connect'] });
  admin = await seedUser(core, 'root', { isAdmin: true });
  manager = await seedUser(core, 'boss', { isManager: true });
  artist = await seedUser(
    core,
    'artie',
    {},
    { attrib: { email: 'artie@studio.example', fullName: 'Artie Fox' } },
  );
  guest = await seedUser(core, 'visitor', { isGuest: true });
});
afterAll(async () => {
  await core.close();
  await cloud.close();
  for (const [variable, value] of [
    ['YNPUT_CLOUD_URL', saved.url],
    ['YNPUT_CLOUD_TIMEOUT', saved.timeout],
  ] as const) {
    if (value === undefined) delete process.env[variable];
    else process.env[variable] = value;
  }
});
afterEach(() => {
  cloud.mode = 'normal';
  useCloud(cloud.url);
  delete process.env.YNPUT_CLOUD_TIMEOUT;
});

describe('without a key', () => {
  it('answers who this server is, not connected, and why', async () => {
    const res = await core.request('GET', '/api/connect', { token: artist });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      instanceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      instanceName: null,
      orgId: null,
      orgName: null,
      orgTitle: null,
      managed: false,
      collectSaturatedMetrics: false,
      subscriptions: [],
      connected: false,
      detail: NOT_CONNECTED,
    });
    instanceId = res.body.instanceId;
    // Nothing asked the cloud: there is nothing to ask it with.
    expect(meCalls()).toBe(0);
  });

  it('answers feedback as unavailable, with the reason', async () => {
    const res = await core.request('GET', '/api/connect/feedback', { token: artist });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ available: false, detail: NOT_CONNECTED, data: null });
  });

  it('lets other addons know through the service that the cloud is not connected (403)', async () => {
    const service = core.services.get(ynputCloudRef) as { request(m: string, p: string): Promise<unknown> };
    await expect(service.request('GET', '/api/v1/licenses')).rejects.toMatchObject({
      status: 403,
      message: NOT_CONNECTED,
    });
  });
});

describe('who may do what', () => {
  it('refuses anonymous callers with 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/connect'],
      ['POST', '/api/connect'],
      ['DELETE', '/api/connect'],
      ['GET', '/api/connect/feedback'],
    ]) {
      const res = await core.request(method, url, method === 'POST' ? { body: { key: 'good-1' } } : {});
      expect([method, url, res.status]).toEqual([method, url, 401]);
    }
  });

  it('lets only admins store or forget the key (403 for managers and users)', async () => {
    for (const token of [manager, artist, guest]) {
      const post = await core.request('POST', '/api/connect', { token, body: { key: 'good-1' } });
      expect(post.status).toBe(403);
      expect(post.body).toEqual({ code: 403, detail: 'Administrators only' });
      expect((await core.request('DELETE', '/api/connect', { token })).status).toBe(403);
    }
    expect(cloud.received).toHaveLength(0);
    expect((await core.request('GET', '/api/secrets/ynput_cloud_key', { token: admin })).status).toBe(404);
  });

  it('refuses guests the cloud info (403) but lets every other user read it', async () => {
    const res = await core.request('GET', '/api/connect', { token: guest });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, detail: 'Guests cannot load Ynput Cloud information' });
    expect((await core.request('GET', '/api/connect', { token: manager })).status).toBe(200);
  });

  it('tells guests they cannot send feedback', async () => {
    const res = await core.request('GET', '/api/connect/feedback', { token: guest });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ available: false, detail: 'Guest users cannot send feedback', data: null });
  });
});

describe('bad input', () => {
  it.each([
    [{}, ['body', 'key'], 'required'],
    [{ key: 42 }, ['body', 'key'], 'type'],
    // A key no HTTP header can carry could never be sent to the cloud.
    [{ key: 'line\nbreak' }, ['body', 'key'], 'value_error'],
    [{ key: ' padded ' }, ['body', 'key'], 'value_error'],
    [{ key: 'good-\u20ac' }, ['body', 'key'], 'value_error'],
  ])('answers 422 to POST /api/connect with %j', async (body, loc, type) => {
    const res = await core.request('POST', '/api/connect', { token: admin, body });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ loc, type }));
    expect(cloud.received).toHaveLength(0);
  });

  it('answers 422 to a body that is not JSON', async () => {
    const res = await core.request('POST', '/api/connect', {
      token: admin,
      body: '{"key":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
  });

  it('answers 422 to authorize without an origin_url', async () => {
    const missing = await core.request('GET', '/api/connect/authorize');
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toContainEqual(expect.objectContaining({ loc: ['query', 'origin_url'] }));
  });

  it('answers 422 to feedback with a force that is not a boolean', async () => {
    const res = await core.request('GET', '/api/connect/feedback?force=maybe', { token: artist });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ loc: ['query', 'force'] }));
  });
});

describe('with the cloud reachable', () => {
  it('verifies a key with the cloud, stores it as a secret and answers the cloud info', async () => {
    const res = await core.request('POST', '/api/connect', {
      token: admin,
      body: { key: 'good-studio-key' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ instanceId, ...ORG, connected: true });

    const call = cloud.received.at(-1)!;
    expect(call).toMatchObject({ method: 'GET', path: '/api/v1/me' });
    expect(call.headers['x-ynput-cloud-key']).toBe('good-studio-key');
    expect(call.headers['x-ynput-cloud-instance']).toBe(instanceId);
    expect(call.headers['x-ynput-server-version']).toBe('1.11.3');

    expect(await storedKey()).toEqual({ name: 'ynput_cloud_key', value: 'good-studio-key' });
    // Encrypted by the secrets addon: the key is nowhere in the database in plain text.
    const rows = await core.db.selectFrom('secrets').selectAll().execute();
    const cloudRows = await core.db.selectFrom('ynput_cloud_connection').selectAll().execute();
    expect(JSON.stringify([rows, cloudRows])).not.toContain('good-studio-key');
  });

  it('answers GET from what the cloud confirmed minutes ago, without asking again', async () => {
    const before = meCalls();
    const res = await core.request('GET', '/api/connect', { token: artist });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ instanceId, ...ORG, connected: true });
    expect(meCalls()).toBe(before);
  });

  it('asks the cloud again once what it confirmed is older than ten minutes', async () => {
    await core.db
      .updateTable('ynput_cloud_connection')
      .set({ verified_at: new Date(Date.now() - 11 * 60 * 1000) })
      .execute();
    const before = meCalls();
    const res = await core.request('GET', '/api/connect', { token: admin });
    expect(res.body).toEqual({ instanceId, ...ORG, connected: true });
    expect(meCalls()).toBe(before + 1);
  });

  it('refuses a key the cloud refuses, and keeps the key stored before', async () => {
    // Any text goes to the cloud, as AYON sends it: an empty key or one with spaces is the cloud's to refuse.
    for (const key of ['stolen-key', '', 'two words', 'k'.repeat(10_000)]) {
      const res = await core.request('POST', '/api/connect', { token: admin, body: { key } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: 403,
        detail: `Ynput Cloud at ${cloud.url} refused this key; nothing was stored`,
      });
    }
    expect((await storedKey()).value).toBe('good-studio-key');
  });

  it('verifies feedback for the caller with the cloud, then reuses it unless forced', async () => {
    const feedbackCalls = () => cloud.received.filter((r) => r.path === '/api/v2/feedback');
    const first = await core.request('GET', '/api/connect/feedback', { token: artist });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      available: true,
      detail: null,
      data: { userHash: 'h-123', organization: 'ayon' },
    });
    expect(feedbackCalls()).toHaveLength(1);
    expect(feedbackCalls()[0].body).toEqual({
      name: 'artie',
      email: 'artie@studio.example',
      fullName: 'Artie Fox',
      avatarUrl: null,
      level: 'user',
      serverVersion: '1.11.3',
    });

    expect((await core.request('GET', '/api/connect/feedback', { token: artist })).body.available).toBe(true);
    expect(feedbackCalls()).toHaveLength(1);
    const forced = await core.request('GET', '/api/connect/feedback?force=true', { token: artist });
    expect(forced.body.available).toBe(true);
    expect(feedbackCalls()).toHaveLength(2);

    await core.request('GET', '/api/connect/feedback', { token: admin });
    expect(feedbackCalls().at(-1)!.body).toMatchObject({ name: 'root', email: null, level: 'admin' });
  });

  it('lets other addons call the cloud as this server through the ynputCloud service', async () => {
    const service = core.services.get(ynputCloudRef) as {
      request(m: string, p: string, o?: object): Promise<unknown>;
    };
    const answer = await service.request('GET', '/api/v1/licenses', { query: { refresh: 'true' } });
    expect(answer).toEqual({ licenses: [expect.objectContaining({ id: 'lic-1' })] });
    expect(cloud.received.at(-1)).toMatchObject({ path: '/api/v1/licenses', query: { refresh: 'true' } });
    expect(cloud.received.at(-1)!.headers['x-ynput-cloud-key']).toBe('good-studio-key');
  });
});

describe('with the cloud out of reach', () => {
  it('answers GET as not connected, naming the cloud URL and the reason', async () => {
    const url = await closedPortUrl();
    useCloud(url);
    const res = await core.request('GET', '/api/connect', { token: artist });
    expect(res.status).toBe(200);
    // What the stand-in confirmed belongs to another cloud URL: nothing of it is passed off as this cloud's.
    expect(res.body).toMatchObject({ instanceId, orgName: null, connected: false });
    expect(res.body.detail).toMatch(new RegExp(`^Ynput Cloud at ${url} cannot be reached: .*ECONNREFUSED`));
  });

  it('shows what the cloud confirmed before, marked as such, when the same cloud fails now', async () => {
    await core.db
      .updateTable('ynput_cloud_connection')
      .set({ verified_at: new Date(Date.now() - 60 * 60 * 1000) })
      .execute();
    cloud.mode = 'failing';
    const res = await core.request('GET', '/api/connect', { token: artist });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...ORG, instanceId, connected: false });
    expect(res.body.detail).toMatch(
      new RegExp(
        `^Ynput Cloud at ${cloud.url} answered HTTP 503 to GET /api/v1/me; showing what it confirmed at `,
      ),
    );
  });

  it('says so when the cloud now refuses the stored key, and keeps the key for the admin to replace', async () => {
    cloud.mode = 'refusing';
    const res = await core.request('GET', '/api/connect', { token: artist });
    expect(res.body.connected).toBe(false);
    expect(res.body.detail).toBe(
      `Ynput Cloud at ${cloud.url} refused the key (HTTP 401); an administrator must connect again with a valid key`,
    );
    expect((await storedKey()).value).toBe('good-studio-key');
  });

  it('gives up on a cloud that does not answer within YNPUT_CLOUD_TIMEOUT seconds', async () => {
    const silent = await startSilentServer();
    try {
      useCloud(silent.url);
      process.env.YNPUT_CLOUD_TIMEOUT = '0.3';
      const started = Date.now();
      const res = await core.request('GET', '/api/connect', { token: artist });
      expect(res.body.connected).toBe(false);
      expect(res.body.detail).toBe(`Ynput Cloud at ${silent.url} cannot be reached: no answer within 0.3 s`);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await silent.close();
    }
  });

  it('answers feedback as unavailable with the reason', async () => {
    const url = await closedPortUrl();
    useCloud(url);
    const res = await core.request('GET', '/api/connect/feedback?force=true', { token: artist });
    expect(res.status).toBe(200);
    expect(res.body.available).toBe(false);
    expect(res.body.data).toBeNull();
    expect(res.body.detail).toMatch(new RegExp(`^Ynput Cloud at ${url} cannot be reached: `));
  });

  it('answers 502 to other addons calling the cloud through the service', async () => {
    const url = await closedPortUrl();
    useCloud(url);
    const service = core.services.get(ynputCloudRef) as { request(m: string, p: string): Promise<unknown> };
    await expect(service.request('GET', '/api/v1/licenses')).rejects.toMatchObject({
      status: 502,
      message: expect.stringMatching(new RegExp(`^Ynput Cloud at ${url} cannot be reached: `)),
    });
  });

  it('stores a key offline, says it is not verified, and verifies it once the cloud is back', async () => {
    const url = await closedPortUrl();
    useCloud(url);
    const res = await core.request('POST', '/api/connect', {
      token: admin,
      body: { key: 'good-offline-key' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ instanceId, connected: false, orgName: null, subscriptions: [] });
    expect(res.body.detail).toMatch(
      new RegExp(`^The key is stored but not verified: Ynput Cloud at ${url} cannot be reached: `),
    );
    expect((await storedKey()).value).toBe('good-offline-key');

    useCloud(cloud.url);
    const back = await core.request('GET', '/api/connect', { token: artist });
    expect(back.body).toEqual({ instanceId, ...ORG, connected: true });
    expect(cloud.received.at(-1)!.headers['x-ynput-cloud-key']).toBe('good-offline-key');
  });

  it('answers 503 naming YNPUT_CLOUD_URL when it is not an http(s) URL', async () => {
    useCloud('ftp://cloud.example');
    const res = await core.request('GET', '/api/connect', { token: artist });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: 503,
      detail: 'YNPUT_CLOUD_URL is not an http(s) URL: "ftp://cloud.example"',
    });
  });
});

describe('authorize', () => {
  it('redirects (307) a browser to the cloud, with the way back and the instance id', async () => {
    const origin = 'https://pipeline.studio.example/settings/connect?tab=cloud&x=1';
    const res = await core.request('GET', `/api/connect/authorize?origin_url=${encodeURIComponent(origin)}`);
    expect(res.status).toBe(307);
    const location = new URL(String(res.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${cloud.url}/api/v1/connect`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      instance_redirect: origin,
      instance_id: instanceId,
    });
  });

  it('needs no answer from the cloud: the browser goes there, not this server', async () => {
    const url = await closedPortUrl();
    useCloud(`${url}/`);
    const before = cloud.received.length;
    const res = await core.request('GET', '/api/connect/authorize?origin_url=http://localhost:5000/');
    expect(res.status).toBe(307);
    expect(String(res.headers.location)).toBe(
      `${url}/api/v1/connect?instance_redirect=http%3A%2F%2Flocalhost%3A5000%2F&instance_id=${instanceId}`,
    );
    expect(cloud.received).toHaveLength(before);
  });

  it('hands any origin_url to the cloud as it is, as AYON does: the cloud decides where it sends the browser', async () => {
    for (const origin of ['javascript:alert(1)', '', `https://studio.example/${'p'.repeat(5000)}`]) {
      const res = await core.request(
        'GET',
        `/api/connect/authorize?origin_url=${encodeURIComponent(origin)}`,
      );
      expect(res.status).toBe(307);
      expect(new URL(String(res.headers.location)).searchParams.get('instance_redirect')).toBe(origin);
    }
  });
});

describe('forgetting the key', () => {
  it('forgets the key and what the cloud said (204), and answers not connected from then on', async () => {
    const res = await core.request('DELETE', '/api/connect', { token: admin });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await core.request('GET', '/api/secrets/ynput_cloud_key', { token: admin })).status).toBe(404);
    const row = await core.db.selectFrom('ynput_cloud_connection').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      instance_id: instanceId,
      info: null,
      key_fingerprint: null,
      verified_at: null,
    });

    const info = await core.request('GET', '/api/connect', { token: artist });
    expect(info.body).toMatchObject({ instanceId, connected: false, orgName: null, detail: NOT_CONNECTED });
    const feedback = await core.request('GET', '/api/connect/feedback', { token: artist });
    expect(feedback.body).toEqual({ available: false, detail: NOT_CONNECTED, data: null });
  });

  it('answers 204 when there is no key to forget', async () => {
    expect((await core.request('DELETE', '/api/connect', { token: admin })).status).toBe(204);
  });
});
