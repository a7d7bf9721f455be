import { stat, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type PipewrightServer } from '@pipewright/core';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// The users addon is the user source: the rules differ for admins, managers and everyone else.
let core: TestCore;
let admin: string;
let manager: string;
let artist: string;
const VALUE = 'sk-live-7f3a9c1e-very-secret';

beforeAll(async () => {
  core = await bootTestCore({ addons: ['secrets', 'users'] });
  admin = await seedUser(core, 'root', { isAdmin: true });
  manager = await seedUser(core, 'boss', { isManager: true });
  artist = await seedUser(core, 'artie', { accessGroups: { demo: ['artist'] } });
});
afterAll(() => core.close());

const put = (name: string, value: unknown, token = admin) =>
  core.request('PUT', `/api/secrets/${name}`, { token, body: { value } });

/** A second server on the first one's database, with its own data directory or environment. */
async function secondServer(options: { dataDir?: string; envKey?: string } = {}): Promise<PipewrightServer> {
  const previous = process.env.PIPEWRIGHT_SECRETS_KEY;
  if (options.envKey) process.env.PIPEWRIGHT_SECRETS_KEY = options.envKey;
  try {
    return await createServer({
      config: { ...core.config, dataDir: options.dataDir ?? core.config.dataDir },
      // The first core owns the database; the second must not close it.
      database: { ...core.database, close: async () => undefined },
      only: ['secrets', 'users'],
    });
  } finally {
    if (previous === undefined) delete process.env.PIPEWRIGHT_SECRETS_KEY;
    else process.env.PIPEWRIGHT_SECRETS_KEY = previous;
  }
}

const adminGet = (server: PipewrightServer, name: string) =>
  server.app.inject({
    method: 'GET',
    url: `/api/secrets/${name}`,
    headers: { authorization: `Bearer ${admin}` },
  });

describe('storing secrets', () => {
  it('round-trips a value for an admin and emits an event without it', async () => {
    expect((await put('ftrack_key', VALUE)).status).toBe(204);
    const res = await core.request('GET', '/api/secrets/ftrack_key', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'ftrack_key', value: VALUE });

    const events = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'secret.updated')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      user_name: 'root',
      payload: { secretName: 'ftrack_key', created: true },
    });
    expect(JSON.stringify(events)).not.toContain(VALUE);
  });

  it('never keeps the value in plain text', async () => {
    const row = await core.db
      .selectFrom('secrets')
      .selectAll()
      .where('name', '=', 'ftrack_key')
      .executeTakeFirstOrThrow();
    expect(row.value_encrypted).not.toContain(VALUE);
    expect(row.value_encrypted).not.toContain(Buffer.from(VALUE).toString('base64'));
    expect(row.value_encrypted).toMatch(/^v1\./);
    // A fresh IV each time: writing the same value again stores different text.
    await put('ftrack_key', VALUE);
    const again = await core.db
      .selectFrom('secrets')
      .selectAll()
      .where('name', '=', 'ftrack_key')
      .executeTakeFirstOrThrow();
    expect(again.value_encrypted).not.toBe(row.value_encrypted);
  });

  it('replaces a value, accepts an AYON-style body with the name, and handles unicode', async () => {
    const res = await core.request('PUT', '/api/secrets/ftrack_key', {
      token: admin,
      body: { name: 'ftrack_key', value: 'clé ✓ 🔑' },
    });
    expect(res.status).toBe(204);
    expect((await core.request('GET', '/api/secrets/ftrack_key', { token: admin })).body.value).toBe(
      'clé ✓ 🔑',
    );
    // Like every text the API takes, a value may not hold NUL characters (refused where JSON is read).
    const nul = await put('nul_char', 'a\u0000b');
    expect([nul.status, nul.body.errors[0].loc]).toEqual([422, ['body', 'value']]);
    expect((await core.request('GET', '/api/secrets/nul_char', { token: admin })).status).toBe(404);
    expect((await put('empty', '')).status).toBe(204);
    expect((await core.request('GET', '/api/secrets/empty', { token: admin })).body).toEqual({
      name: 'empty',
      value: '',
    });
  });

  it('deletes, then answers 404', async () => {
    expect((await core.request('DELETE', '/api/secrets/empty', { token: admin })).status).toBe(204);
    expect((await core.request('DELETE', '/api/secrets/empty', { token: admin })).status).toBe(404);
    expect((await core.request('GET', '/api/secrets/empty', { token: admin })).status).toBe(404);
    expect((await core.request('GET', '/api/secrets/empty', { token: manager })).status).toBe(404);
    const deleted = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'secret.deleted')
      .execute();
    expect(deleted.map((e) => e.payload.secretName).sort()).toEqual(['empty']);
    expect(deleted.every((e) => Object.keys(e.payload).join() === 'secretName')).toBe(true);
  });
});

describe('who sees what', () => {
  beforeAll(async () => {
    await put('aws.token-2', 'aws value');
  });

  it('shows admins names and values, managers names only', async () => {
    const asAdmin = await core.request('GET', '/api/secrets', { token: admin });
    expect(asAdmin.body).toEqual([
      { name: 'aws.token-2', value: 'aws value' },
      { name: 'ftrack_key', value: 'clé ✓ 🔑' },
    ]);
    const asManager = await core.request('GET', '/api/secrets', { token: manager });
    expect(asManager.status).toBe(200);
    expect(asManager.body).toEqual([{ name: 'aws.token-2' }, { name: 'ftrack_key' }]);
    expect(asManager.text).not.toContain('aws value');
    const one = await core.request('GET', '/api/secrets/aws.token-2', { token: manager });
    expect(one.body).toEqual({ name: 'aws.token-2' });
  });

  it('keeps normal users and anonymous callers out', async () => {
    expect((await core.request('GET', '/api/secrets', { token: artist })).status).toBe(403);
    expect((await core.request('GET', '/api/secrets/ftrack_key', { token: artist })).status).toBe(403);
    expect((await core.request('GET', '/api/secrets')).status).toBe(401);
    expect((await put('x_key', 'v', artist)).status).toBe(403);
    expect((await core.request('DELETE', '/api/secrets/ftrack_key', { token: artist })).status).toBe(403);
  });

  it('lets only admins write', async () => {
    expect((await put('x_key', 'v', manager)).status).toBe(403);
    expect((await core.request('DELETE', '/api/secrets/ftrack_key', { token: manager })).status).toBe(403);
    expect((await core.request('GET', '/api/secrets/x_key', { token: admin })).status).toBe(404);
  });
});

describe('validation', () => {
  it("answers names outside AYON's name rule with 422", async () => {
    for (const name of ['.hidden', '-dash', 'white%20space', 'sl%2Fash']) {
      const res = await put(name, 'v');
      expect(res.status).toBe(422);
      expect(res.body.errors[0].loc).toEqual(['path', 'secret_name']);
    }
    expect((await core.request('GET', '/api/secrets/-dash', { token: admin })).status).toBe(422);
    expect((await put('_ok.name-1', 'v')).status).toBe(204);
  });

  it('takes names of any length, as AYON does, up to what its index takes to store one', async () => {
    const long = 'a'.repeat(500);
    expect((await put(long, 'v')).status).toBe(204);
    expect((await core.request('GET', `/api/secrets/${long}`, { token: admin })).body).toEqual({
      name: long,
      value: 'v',
    });
    expect((await core.request('DELETE', `/api/secrets/${long}`, { token: admin })).status).toBe(204);
    const longer = `${long}b`;
    const refused = await put(longer, 'v');
    expect([refused.status, refused.body.errors?.[0]?.loc]).toEqual([422, ['path', 'secret_name']]);
    // Looking up or deleting a name nobody stored is not found, whatever its length.
    expect((await core.request('GET', `/api/secrets/${longer}`, { token: admin })).status).toBe(404);
    expect((await core.request('DELETE', `/api/secrets/${longer}`, { token: admin })).status).toBe(404);
  });

  it('answers bad bodies with 422: missing value, not a string', async () => {
    const locs = async (body: unknown) => {
      const res = await core.request('PUT', '/api/secrets/body_check', { token: admin, body });
      expect(res.status).toBe(422);
      return res.body.errors.map((e: any) => e.loc.join('.'));
    };
    expect(await locs({})).toEqual(['body.value']);
    expect(await locs({ value: 42 })).toEqual(['body.value']);
  });

  it('stores a value of any length, as AYON does, the empty one too', async () => {
    for (const value of ['é'.repeat(200 * 1024), '']) {
      expect((await put('body_check', value)).status).toBe(204);
      expect((await core.request('GET', '/api/secrets/body_check', { token: admin })).body.value).toBe(value);
    }
  });
});

describe('the key', () => {
  it('is a 0600 file under the data directory', async () => {
    const path = join(core.config.dataDir, 'secrets.key');
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe('600');
    expect((await readFile(path, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('survives a restart: a second server on the same database and data directory still decrypts', async () => {
    const second = await secondServer();
    try {
      const res = await adminGet(second, 'ftrack_key');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'ftrack_key', value: 'clé ✓ 🔑' });
    } finally {
      await second.close();
    }
  });

  it('reports values written with another key as unreadable, not as an error, and lets an admin replace them', async () => {
    const otherDir = await mkdtemp(join(tmpdir(), 'pipewright-secrets-other-'));
    const second = await secondServer({ dataDir: otherDir });
    try {
      const res = await adminGet(second, 'ftrack_key');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        name: 'ftrack_key',
        value: null,
        detail: expect.stringContaining('cannot be decrypted'),
      });
      const list = await second.app.inject({
        method: 'GET',
        url: '/api/secrets',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().find((s: any) => s.name === 'aws.token-2')).toEqual({
        name: 'aws.token-2',
        value: null,
        detail: expect.any(String),
      });
      // Writing with the new key makes that secret readable there (and unreadable for the first server).
      const fixed = await second.app.inject({
        method: 'PUT',
        url: '/api/secrets/aws.token-2',
        headers: { authorization: `Bearer ${admin}` },
        payload: { value: 'rotated' },
      });
      expect(fixed.statusCode).toBe(204);
      expect((await adminGet(second, 'aws.token-2')).json()).toEqual({
        name: 'aws.token-2',
        value: 'rotated',
      });
    } finally {
      await second.close();
      await rm(otherDir, { recursive: true, force: true });
    }
    expect((await core.request('GET', '/api/secrets/aws.token-2', { token: admin })).body.value).toBeNull();
  });

  it('takes PIPEWRIGHT_SECRETS_KEY over the file when set', async () => {
    const otherDir = await mkdtemp(join(tmpdir(), 'pipewright-secrets-env-'));
    const fileKey = (await readFile(join(core.config.dataDir, 'secrets.key'), 'utf8')).trim();
    const second = await secondServer({ dataDir: otherDir, envKey: fileKey.toUpperCase() });
    try {
      expect((await adminGet(second, 'ftrack_key')).json()).toEqual({
        name: 'ftrack_key',
        value: 'clé ✓ 🔑',
      });
      // With the key from the environment no key file is written.
      await expect(stat(join(otherDir, 'secrets.key'))).rejects.toThrow();
    } finally {
      await second.close();
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('detects a value moved onto another name', async () => {
    const source = await core.db
      .selectFrom('secrets')
      .select('value_encrypted')
      .where('name', '=', 'ftrack_key')
      .executeTakeFirstOrThrow();
    await core.db
      .updateTable('secrets')
      .set({ value_encrypted: source.value_encrypted })
      .where('name', '=', 'body_check')
      .execute();
    const res = await core.request('GET', '/api/secrets/body_check', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.value).toBeNull();
  });
});
