import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { defineAddon } from '@pipewright/sdk';
import { eventsOf, fixture, seed } from './helpers.js';
import { systemRef } from '../src/api.js';
import type { SystemService } from '../src/api.js';

// The server configuration, with LOGIN_MESSAGE set so the login message default comes from the environment.
let core: TestCore;
let system: SystemService;
const tokens: Record<string, string> = {};

const consumer = defineAddon({
  name: 'config-consumer',
  version: '1.0.0',
  title: 'Config consumer (fixture)',
  deps: { system: systemRef },
  setup(ctx, deps) {
    system = deps.system;
  },
});

const DEFAULTS = {
  studioName: '',
  customization: { motd: 'Welcome to the farm', loginBackground: '', studioLogo: '', frontendFlags: [] },
  changelog: { enabled: true, url: '' },
  releases: { checkForUpdates: false, url: '' },
};

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png body'),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg body')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 0, 0, 0]), Buffer.from('WEBPVP8 data')]);

beforeAll(async () => {
  core = await bootTestCore({
    addons: ['system', 'config-consumer'],
    extraAddons: [fixture(consumer)],
    config: { loginMessage: 'Welcome to the farm' },
  });
  tokens.admin = await seed(core, 'root', { isAdmin: true });
  tokens.manager = await seed(core, 'boss', { isManager: true });
  tokens.artist = await seed(core, 'artie', {});
});
afterAll(() => core?.close());

const get = (url: string, token?: string) => core.request('GET', url, { token });
const post = (body: unknown, token = tokens.admin) => core.request('POST', '/api/config', { token, body });
const patch = (body: unknown, token = tokens.admin) => core.request('PATCH', '/api/config', { token, body });
const config = async () => (await get('/api/config', tokens.admin)).body;
const locs = (res: { status: number; body: any }) => {
  expect(res.status).toBe(422);
  return [...new Set(res.body.errors.map((e: any) => e.loc.join('.')))];
};

describe('GET /api/config/schema', () => {
  it('describes the configuration to logged-in users', async () => {
    expect((await get('/api/config/schema')).status).toBe(401);
    const res = await get('/api/config/schema', tokens.artist);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('object');
    expect(Object.keys(res.body.properties)).toEqual([
      'studioName',
      'customization',
      'changelog',
      'releases',
    ]);
    expect(Object.keys(res.body.properties.customization.properties)).toEqual([
      'motd',
      'loginBackground',
      'studioLogo',
      'frontendFlags',
    ]);
    expect(res.body.properties.customization.properties.motd.default).toBe('Welcome to the farm');
    expect(res.body.properties.studioName.title).toBe('Studio name');
  });
});

describe('GET /api/config', () => {
  it('is for administrators and answers the defaults before anything is set', async () => {
    expect((await get('/api/config')).status).toBe(401);
    expect((await get('/api/config', tokens.manager)).status).toBe(403);
    const res = await get('/api/config', tokens.admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULTS);
    expect((await get('/api/config/overrides', tokens.admin)).body).toEqual({});
  });
});

describe('POST /api/config', () => {
  it('replaces the configuration; fields left out take their defaults', async () => {
    const res = await post({ studioName: 'Acme VFX', customization: { frontendFlags: ['beta-ui'] } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await config()).toEqual({
      ...DEFAULTS,
      studioName: 'Acme VFX',
      customization: { ...DEFAULTS.customization, frontendFlags: ['beta-ui'] },
    });
    expect((await get('/api/config/overrides', tokens.admin)).body).toEqual({
      studioName: 'Acme VFX',
      customization: { frontendFlags: ['beta-ui'] },
    });
    const [event] = await eventsOf(core, 'server.config_changed');
    expect(event).toMatchObject({ user_name: 'root' });

    // A value equal to its default is no override.
    expect((await post({ studioName: 'Acme VFX', changelog: { enabled: true } })).status).toBe(204);
    expect((await get('/api/config/overrides', tokens.admin)).body).toEqual({ studioName: 'Acme VFX' });
  });

  it('is for administrators', async () => {
    expect((await core.request('POST', '/api/config', { body: {} })).status).toBe(401);
    expect((await post({}, tokens.manager)).status).toBe(403);
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    expect(locs(await post({ studioName: 42 }))).toEqual(['body.studioName']);
    expect(locs(await post({ studioName: 'Acme VFX', releases: { checkForUpdates: 'yes' } }))).toEqual([
      'body.releases.checkForUpdates',
    ]);
    expect(locs(await post({ customization: { frontendFlags: ['a', 'a'] } }))).toEqual([
      'body.customization.frontendFlags',
    ]);
    expect(locs(await post({ changelog: { url: 'javascript:alert(1)' } }))).toEqual(['body.changelog.url']);
    expect(locs(await post([]))).toEqual(['body']);
    const notJson = await core.request('POST', '/api/config', {
      token: tokens.admin,
      body: '{"studioName":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(422);
    expect((await config()).studioName).toBe('Acme VFX');
  });

  it('ignores fields it does not know, as AYON does', async () => {
    // POST replaces the whole configuration, so the known fields are sent again.
    expect(
      (await post({ studioName: 'Acme VFX', surprise: true, customization: { nonsense: 1 } })).status,
    ).toBe(204);
    expect((await get('/api/config/overrides', tokens.admin)).body).toEqual({ studioName: 'Acme VFX' });
  });
});

describe('PATCH /api/config', () => {
  it('merges objects key by key and keeps the rest', async () => {
    expect(
      (await patch({ customization: { frontendFlags: ['x'] }, releases: { checkForUpdates: true } })).status,
    ).toBe(204);
    const after = await config();
    expect(after.studioName).toBe('Acme VFX');
    expect(after.customization).toEqual({ ...DEFAULTS.customization, frontendFlags: ['x'] });
    expect(after.releases).toEqual({ checkForUpdates: true, url: '' });
  });

  it('restores a default with null', async () => {
    expect((await patch({ studioName: null, releases: null })).status).toBe(204);
    expect((await get('/api/config/overrides', tokens.admin)).body).toEqual({
      customization: { frontendFlags: ['x'] },
    });
  });

  it('refuses a result that breaks the schema, located as sent, and changes nothing', async () => {
    expect(locs(await patch({ changelog: { enabled: 'yes' } }))).toEqual(['body.changelog.enabled']);
    expect(locs(await patch({ customization: { motd: 1 } }))).toEqual(['body.customization.motd']);
    expect(locs(await patch({ customization: 'flat' }))).toEqual(['body.customization']);
    expect(locs(await patch(['studioName']))).toEqual(['body']);
    expect((await get('/api/config/overrides', tokens.admin)).body).toEqual({
      customization: { frontendFlags: ['x'] },
    });
  });

  it('ignores fields it does not know, as AYON does', async () => {
    expect((await patch({ surprise: true, customization: { nonsense: 1 } })).status).toBe(204);
    expect((await get('/api/config/overrides', tokens.admin)).body).toEqual({
      customization: { frontendFlags: ['x'] },
    });
  });

  it('is for administrators', async () => {
    expect((await core.request('PATCH', '/api/config', { body: {} })).status).toBe(401);
    expect((await patch({ studioName: 'Mine' }, tokens.artist)).status).toBe(403);
    expect((await get('/api/config/overrides', tokens.manager)).status).toBe(403);
    expect((await get('/api/config/overrides')).status).toBe(401);
  });
});

describe('GET /api/config/value/{key}', () => {
  it('answers public keys to anyone, others to logged-in users', async () => {
    await patch({ studioName: 'Acme VFX' });
    const name = await get('/api/config/value/studioName');
    expect(name.status).toBe(200);
    expect(name.headers['content-type']).toMatch(/^application\/json/);
    expect(name.body).toBe('Acme VFX');
    expect((await get('/api/config/value/customization.motd')).body).toBe('Welcome to the farm');
    expect((await get('/api/config/value/customization')).body.frontendFlags).toEqual(['x']);

    expect((await get('/api/config/value/changelog')).status).toBe(401);
    const changelog = await get('/api/config/value/changelog', tokens.artist);
    expect(changelog.status).toBe(200);
    expect(changelog.body).toEqual({ enabled: true, url: '' });
    expect((await get('/api/config/value/changelog.enabled', tokens.artist)).body).toBe(true);
  });

  it('answers 404 for any key the configuration does not have, however odd', async () => {
    expect((await get('/api/config/value/noSuchKey', tokens.artist)).status).toBe(404);
    expect((await get('/api/config/value/studioName.length')).status).toBe(404);
    expect((await get('/api/config/value/customization.toString')).status).toBe(404);
    expect((await get('/api/config/value/constructor', tokens.artist)).status).toBe(404);
    expect((await get('/api/config/value/customization.__proto__')).status).toBe(404);
    for (const key of ['a..b', 'studio_name', '%20', '.', 'k'.repeat(500)]) {
      expect([key, (await get(`/api/config/value/${key}`, tokens.artist)).status]).toEqual([key, 404]);
    }
  });

  it('does not tell anonymous callers which private keys exist', async () => {
    const existing = await get('/api/config/value/changelog');
    const missing = await get('/api/config/value/noSuchKey');
    expect([existing.status, missing.status]).toEqual([401, 401]);
    expect(missing.body).toEqual(existing.body);
  });
});

describe('configuration images', () => {
  const put = (fileType: string, body: unknown, token = tokens.admin, contentType = 'image/png') =>
    core.request('PUT', `/api/config/files/${fileType}`, {
      token,
      body,
      headers: typeof body === 'string' || Buffer.isBuffer(body) ? { 'content-type': contentType } : {},
    });
  const fetchImage = (fileType: string) =>
    core.app.inject({ method: 'GET', url: `/api/config/files/${fileType}` });
  const stored = async () => {
    const dir = join(core.config.dataDir, 'server-config');
    return existsSync(dir) ? (await readdir(dir)).sort() : [];
  };

  it('answers 404 while no image is set', async () => {
    const res = await get('/api/config/files/login_background');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, detail: 'No login_background image is set' });
  });

  it('takes an upload from administrators only', async () => {
    expect((await put('login_background', PNG, '')).status).toBe(401);
    expect((await put('login_background', PNG, tokens.manager)).status).toBe(403);
  });

  it('stores an image and serves it to anyone with its content type', async () => {
    expect((await put('login_background', PNG)).status).toBe(204);
    const res = await fetchImage('login_background');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(PNG)).toBe(true);
    const name = (await config()).customization.loginBackground;
    expect(name).toMatch(/^login_background-[0-9a-f]{16}\.png$/);
    expect(res.headers.etag).toBe(`"${name}"`);
    expect(await stored()).toEqual([name]);
  });

  it('judges the format by the bytes, whatever the content type says, and replaces the old file', async () => {
    const before = (await config()).customization.loginBackground;
    expect((await put('login_background', JPEG, tokens.admin, 'application/octet-stream')).status).toBe(204);
    const res = await fetchImage('login_background');
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(JPEG)).toBe(true);
    const after = (await config()).customization.loginBackground;
    expect(after).not.toBe(before);
    expect(await stored()).toEqual([after]);
  });

  it('keeps the two image types apart', async () => {
    expect((await get('/api/config/files/studio_logo')).status).toBe(404);
    expect((await put('studio_logo', WEBP, tokens.admin, 'image/webp')).status).toBe(204);
    const logo = await fetchImage('studio_logo');
    expect(logo.headers['content-type']).toBe('image/webp');
    expect((await fetchImage('login_background')).headers['content-type']).toBe('image/jpeg');
  });

  it('refuses what is not a supported image with 422', async () => {
    const problem = async (res: { status: number; body: any }) => {
      expect(res.status).toBe(422);
      expect(res.body.errors[0].loc).toEqual(['body']);
      return res.body.errors[0].type;
    };
    expect(
      await problem(await put('login_background', Buffer.from('GIF?no'), tokens.admin, 'image/gif')),
    ).toBe('unsupported_image');
    expect(
      await problem(await put('login_background', '<svg onload="alert(1)"/>', tokens.admin, 'image/svg+xml')),
    ).toBe('unsupported_image');
    expect(await problem(await put('login_background', Buffer.alloc(0)))).toBe('empty_image');
    expect(await problem(await put('login_background', { image: 'base64' }))).toBe('raw_body_expected');
    expect(await problem(await put('login_background', PNG, tokens.admin, 'text/plain'))).toBe(
      'raw_body_expected',
    );
    expect((await fetchImage('login_background')).headers['content-type']).toBe('image/jpeg');
  });

  it('refuses other file types with 422', async () => {
    const upload = await put('avatar', PNG);
    expect(upload.status).toBe(422);
    expect(upload.body.errors[0].loc).toEqual(['path', 'file_type']);
    const read = await get('/api/config/files/avatar');
    expect(read.status).toBe(422);
    expect(read.body.errors[0].loc).toEqual(['path', 'file_type']);
  });

  it('refuses an image over the size limit without failing', async () => {
    const huge = Buffer.concat([PNG, Buffer.alloc(16 * 1024 * 1024)]);
    expect((await put('studio_logo', huge)).status).toBe(413);
  });

  it('goes back to the built-in image when the setting is cleared, and removes the file', async () => {
    const logo = (await config()).customization.studioLogo;
    expect((await patch({ customization: { studioLogo: '' } })).status).toBe(204);
    expect((await get('/api/config/files/studio_logo')).status).toBe(404);
    expect(await stored()).not.toContain(logo);
    // Restoring all defaults clears the background too.
    expect((await post({})).status).toBe(204);
    expect((await get('/api/config/files/login_background')).status).toBe(404);
    expect(await stored()).toEqual([]);
  });

  it('takes any text as an image name, as AYON does, but serves and removes only stored images', async () => {
    expect((await put('login_background', PNG)).status).toBe(204);
    const [uploaded] = await stored();
    expect((await patch({ customization: { loginBackground: '../../etc/passwd' } })).status).toBe(204);
    expect((await config()).customization.loginBackground).toBe('../../etc/passwd');
    expect((await get('/api/config/files/login_background')).status).toBe(404);
    // The uploaded image is no longer pointed at, so it went; the odd name named no file of ours.
    expect(await stored()).not.toContain(uploaded);
    expect((await patch({ customization: { loginBackground: '' } })).status).toBe(204);
    expect(await stored()).toEqual([]);
  });
});

describe('free text, as AYON takes it', () => {
  it('stores a studio name and a login message of any length and characters', async () => {
    const studioName = `Acme\tVFX ${'s'.repeat(5000)}`;
    const motd = 'm'.repeat(50_000);
    expect((await patch({ studioName, customization: { motd } })).status).toBe(204);
    expect(await config()).toMatchObject({ studioName, customization: { motd } });
    expect((await get('/api/config/value/studioName')).body).toBe(studioName);
    expect((await post({})).status).toBe(204);
  });
});

describe('the system service', () => {
  it('gives other addons the configuration with defaults', async () => {
    await patch({ studioName: 'Service Studio' });
    const current = await system.serverConfig();
    expect(current.studioName).toBe('Service Studio');
    expect(current.customization.motd).toBe('Welcome to the farm');
  });
});
