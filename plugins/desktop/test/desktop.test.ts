import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, fixedUserSource, type TestCore } from '@pipewright/core/testing';
import { UrlDownloads } from '../src/downloads.js';
import { DesktopFiles } from '../src/files.js';

const PASSWORD = 'correct horse battery';
const SERVICE_KEY = '0123456789abcdef0123456789abcdef';
const INSTALLERS = '/api/desktop/installers';
const PACKAGES = '/api/desktop/dependencyPackages';

// root administers, alice is an artist, svc is the service user a launcher or a deploy script logs in as.
const userSource = fixedUserSource(
  'desktop-users',
  { root: { isAdmin: true }, boss: { isManager: true }, alice: {}, svc: { isService: true } },
  { password: PASSWORD, serviceKey: SERVICE_KEY },
);

let core: TestCore;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  core = await bootTestCore({ addons: ['desktop', 'desktop-users'], extraAddons: [userSource] });
  for (const name of ['root', 'boss', 'alice']) {
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.status} ${res.text}`);
    tokens[name] = res.body.token;
  }
});
afterAll(() => core?.close());

const digest = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('hex');
const desktopDir = (area: string) => join(core.config.dataDir, 'desktop', area);

function installer(filename: string, extra: Record<string, unknown> = {}) {
  return {
    filename,
    version: '1.2.3',
    platform: 'linux',
    pythonVersion: '3.11',
    pythonModules: { requests: '2.31.0', pyside6: { windows: '6.5', linux: '6.6' } },
    runtimePythonModules: { certifi: '2024.2.2' },
    ...extra,
  };
}

function dependencyPackage(filename: string, extra: Record<string, unknown> = {}) {
  return {
    filename,
    installerVersion: '1.2.3',
    platform: 'windows',
    sourceAddons: { core: '1.0.0', ftrack: null },
    pythonModules: { pymongo: '4.6.1' },
    ...extra,
  };
}

const register = (base: string, body: unknown, token = tokens.root, query = '') =>
  core.request('POST', `${base}${query}`, { token, body });

async function upload(
  base: string,
  filename: string,
  bytes: Buffer,
  auth: { token?: string; apiKey?: string } = { token: tokens.root },
  contentType: string | null = 'application/octet-stream',
) {
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.apiKey) headers['x-api-key'] = auth.apiKey;
  const res = await core.app.inject({ method: 'PUT', url: `${base}/${filename}`, headers, payload: bytes });
  return { status: res.statusCode, body: res.body ? safeJson(res.body) : undefined };
}

async function download(
  base: string,
  filename: string,
  auth: { token?: string; apiKey?: string } = { token: tokens.root },
) {
  const headers: Record<string, string> = {};
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth.apiKey) headers['x-api-key'] = auth.apiKey;
  return core.app.inject({ method: 'GET', url: `${base}/${filename}`, headers });
}

function safeJson(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function listed(base: string, filename: string, query = '') {
  const res = await core.request('GET', `${base}${query}`, { token: tokens.alice });
  expect(res.status).toBe(200);
  const items = (res.body.installers ?? res.body.packages) as Record<string, any>[];
  return items.find((item) => item.filename === filename);
}

describe('installers: register, upload, list, download, patch, delete', () => {
  const bytes = randomBytes(3 * 1024 * 1024 + 17);
  const filename = 'AYON-1.2.3-linux.tar.gz';

  it('registers the metadata of an installer (201, no event without a url)', async () => {
    const res = await register(
      INSTALLERS,
      installer(filename, {
        size: bytes.length,
        checksum: digest('md5', bytes).toUpperCase(),
        sources: [{ type: 'http', url: 'https://downloads.example.com/AYON-1.2.3-linux.tar.gz' }],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ eventId: null });
  });

  it('lists it without the server as a source, and refuses its download, until the file is uploaded', async () => {
    const item = await listed(INSTALLERS, filename);
    expect(item).toEqual({
      filename,
      version: '1.2.3',
      platform: 'linux',
      size: bytes.length,
      checksum: digest('md5', bytes),
      checksumAlgorithm: 'md5',
      sources: [{ type: 'http', url: 'https://downloads.example.com/AYON-1.2.3-linux.tar.gz' }],
      pythonVersion: '3.11',
      pythonModules: { requests: '2.31.0', pyside6: { windows: '6.5', linux: '6.6' } },
      runtimePythonModules: { certifi: '2024.2.2' },
    });
    const res = await download(INSTALLERS, filename, { token: tokens.alice });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe(`Installer ${filename} has not been uploaded to the server`);
  });

  it('takes the file as a raw body and lists the server as its first source, once', async () => {
    expect((await upload(INSTALLERS, filename, bytes)).status).toBe(204);
    // Uploading the same file again replaces it; the server is still listed once.
    expect((await upload(INSTALLERS, filename, bytes)).status).toBe(204);
    const item = await listed(INSTALLERS, filename);
    expect(item).toMatchObject({
      size: bytes.length,
      checksum: digest('md5', bytes),
      checksumAlgorithm: 'md5',
    });
    expect(item!.sources).toEqual([
      { type: 'server' },
      { type: 'http', url: 'https://downloads.example.com/AYON-1.2.3-linux.tar.gz' },
    ]);
    expect(await readdir(desktopDir('installers'))).toEqual([filename]);
    expect(await readdir(join(core.config.dataDir, 'desktop', '.incoming'))).toEqual([]);
  });

  it('filters the list by version and platform', async () => {
    expect(await listed(INSTALLERS, filename, '?version=1.2.3&platform=linux')).toBeDefined();
    expect(await listed(INSTALLERS, filename, '?version=9.9.9')).toBeUndefined();
    expect(await listed(INSTALLERS, filename, '?platform=darwin')).toBeUndefined();
  });

  it('gives every logged-in user the file back byte for byte, as an attachment', async () => {
    const res = await download(INSTALLERS, filename, { token: tokens.alice });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    // The launcher logging in with a service user's API key downloads too.
    const bySvc = await download(INSTALLERS, filename, { apiKey: SERVICE_KEY });
    expect(bySvc.statusCode).toBe(200);
    expect(digest('sha256', bySvc.rawPayload)).toBe(digest('sha256', bytes));
  });

  it('resumes a download from a byte range', async () => {
    const res = await core.app.inject({
      method: 'GET',
      url: `${INSTALLERS}/${filename}`,
      headers: { authorization: `Bearer ${tokens.alice}`, range: 'bytes=1000-1999' },
    });
    expect(res.statusCode).toBe(206);
    expect(res.rawPayload.equals(bytes.subarray(1000, 2000))).toBe(true);
  });

  it('replaces the sources with PATCH; the server stays listed while it has the file', async () => {
    const res = await core.request('PATCH', `${INSTALLERS}/${filename}`, {
      token: tokens.root,
      body: {
        sources: [
          { type: 'server' },
          { type: 'url', url: 'https://mirror.example.com/a.tar.gz' },
          { type: 'http', url: 'https://other.example.com/a.tar.gz' },
        ],
      },
    });
    expect(res.status).toBe(204);
    const item = await listed(INSTALLERS, filename);
    expect(item!.sources).toEqual([
      { type: 'server' },
      { type: 'http', url: 'https://mirror.example.com/a.tar.gz' },
      { type: 'http', url: 'https://other.example.com/a.tar.gz' },
    ]);
  });

  it('deletes the record and the file', async () => {
    expect((await core.request('DELETE', `${INSTALLERS}/${filename}`, { token: tokens.root })).status).toBe(
      204,
    );
    expect(existsSync(join(desktopDir('installers'), filename))).toBe(false);
    expect(await listed(INSTALLERS, filename)).toBeUndefined();
    expect((await download(INSTALLERS, filename)).statusCode).toBe(404);
    const again = await core.request('DELETE', `${INSTALLERS}/${filename}`, { token: tokens.root });
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe(`Installer ${filename} not found`);
  });
});

describe('dependency packages', () => {
  const bytes = randomBytes(2 * 1024 * 1024);
  const filename = 'ayon_2403_windows.zip';

  it('round-trips a package declared with a sha256 checksum', async () => {
    const res = await register(
      PACKAGES,
      dependencyPackage(filename, { checksum: digest('sha256', bytes), checksumAlgorithm: 'sha256' }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ eventId: null });
    expect(await listed(PACKAGES, filename)).toEqual({
      filename,
      installerVersion: '1.2.3',
      platform: 'windows',
      checksum: digest('sha256', bytes),
      checksumAlgorithm: 'sha256',
      // Addons without a version were not part of the build (as AYON stores them).
      sourceAddons: { core: '1.0.0' },
      pythonModules: { pymongo: '4.6.1' },
      sources: [],
    });
    expect((await upload(PACKAGES, filename, bytes)).status).toBe(204);
    const item = await listed(PACKAGES, filename);
    expect(item).toMatchObject({ size: bytes.length, sources: [{ type: 'server' }] });
    const got = await download(PACKAGES, filename, { token: tokens.alice });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-disposition']).toBe(`attachment; filename="${filename}"`);
    expect(got.rawPayload.equals(bytes)).toBe(true);
  });

  it('fills in size and checksum from the upload when none were declared', async () => {
    const other = randomBytes(64 * 1024);
    expect((await register(PACKAGES, dependencyPackage('no_checksum.zip'))).status).toBe(201);
    expect((await upload(PACKAGES, 'no_checksum.zip', other)).status).toBe(204);
    expect(await listed(PACKAGES, 'no_checksum.zip')).toMatchObject({
      size: other.length,
      checksum: digest('md5', other),
      checksumAlgorithm: 'md5',
    });
    // Nothing was declared, so another file may replace it (the body is raw bytes whatever the content type says).
    const replacement = Buffer.from('{"not": "parsed as JSON"}');
    expect(
      (await upload(PACKAGES, 'no_checksum.zip', replacement, undefined, 'application/json')).status,
    ).toBe(204);
    expect(await listed(PACKAGES, 'no_checksum.zip')).toMatchObject({
      size: replacement.length,
      checksum: digest('md5', replacement),
    });
    expect((await download(PACKAGES, 'no_checksum.zip')).rawPayload.equals(replacement)).toBe(true);
    // An algorithm named without a checksum is the one the upload is hashed with.
    expect(
      (await register(PACKAGES, dependencyPackage('sha1_only.zip', { checksumAlgorithm: 'sha1' }))).status,
    ).toBe(201);
    expect((await upload(PACKAGES, 'sha1_only.zip', other, undefined, null)).status).toBe(204);
    expect(await listed(PACKAGES, 'sha1_only.zip')).toMatchObject({
      checksum: digest('sha1', other),
      checksumAlgorithm: 'sha1',
    });
  });

  it('patches sources and deletes', async () => {
    const res = await core.request('PATCH', `${PACKAGES}/${filename}`, {
      token: tokens.root,
      body: { sources: [{ type: 'http', url: 'https://example.com/pkg.zip' }] },
    });
    expect(res.status).toBe(204);
    expect((await listed(PACKAGES, filename))!.sources).toEqual([
      { type: 'server' },
      { type: 'http', url: 'https://example.com/pkg.zip' },
    ]);
    for (const name of [filename, 'no_checksum.zip', 'sha1_only.zip'])
      expect((await core.request('DELETE', `${PACKAGES}/${name}`, { token: tokens.root })).status).toBe(204);
    expect(await readdir(desktopDir('dependency_packages'))).toEqual([]);
    expect((await core.request('GET', PACKAGES, { token: tokens.alice })).body).toEqual({ packages: [] });
  });
});

describe('uploads that do not match their record', () => {
  it('refuses a checksum mismatch and keeps nothing', async () => {
    const declared = randomBytes(1024 * 1024);
    const sent = Buffer.from(declared);
    sent[12345] ^= 0xff;
    expect(
      (
        await register(
          INSTALLERS,
          installer('bad-sum.exe', {
            platform: 'windows',
            checksum: digest('sha1', declared),
            checksumAlgorithm: 'sha1',
          }),
        )
      ).status,
    ).toBe(201);
    const res = await upload(INSTALLERS, 'bad-sum.exe', sent);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(
      `Upload of Installer bad-sum.exe refused, nothing was kept: the sha1 checksum of the upload is ${digest('sha1', sent)}, the declared one is ${digest('sha1', declared)}`,
    );
    expect(existsSync(join(desktopDir('installers'), 'bad-sum.exe'))).toBe(false);
    expect(await readdir(join(core.config.dataDir, 'desktop', '.incoming'))).toEqual([]);
    const item = await listed(INSTALLERS, 'bad-sum.exe');
    expect(item).toMatchObject({ checksum: digest('sha1', declared), sources: [] });
    expect(item!.size).toBeUndefined();
    expect((await download(INSTALLERS, 'bad-sum.exe')).statusCode).toBe(404);
  });

  it('refuses a size mismatch and an empty body', async () => {
    expect(
      (await register(INSTALLERS, installer('bad-size.dmg', { platform: 'darwin', size: 10 }))).status,
    ).toBe(201);
    const res = await upload(INSTALLERS, 'bad-size.dmg', Buffer.alloc(11, 1));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('10 bytes were declared, 11 arrived');
    const empty = await upload(INSTALLERS, 'bad-size.dmg', Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toContain('Empty file');
    expect(await readdir(desktopDir('installers')).catch(() => [])).toEqual([]);
    for (const name of ['bad-sum.exe', 'bad-size.dmg'])
      expect((await core.request('DELETE', `${INSTALLERS}/${name}`, { token: tokens.root })).status).toBe(
        204,
      );
  });
});

describe('unknown files', () => {
  it('answers 404 to every route naming a filename nobody registered', async () => {
    for (const base of [INSTALLERS, PACKAGES]) {
      const put = await upload(base, 'never-registered.zip', randomBytes(100));
      expect(put.status).toBe(404);
      expect(put.body.detail).toMatch(/^(Installer|Dependency package) never-registered\.zip not found$/);
      expect((await download(base, 'never-registered.zip')).statusCode).toBe(404);
      const patch = await core.request('PATCH', `${base}/never-registered.zip`, {
        token: tokens.root,
        body: { sources: [] },
      });
      expect(patch.status).toBe(404);
      expect(
        (await core.request('DELETE', `${base}/never-registered.zip`, { token: tokens.root })).status,
      ).toBe(404);
    }
    expect(existsSync(join(desktopDir('installers'), 'never-registered.zip'))).toBe(false);
  });
});

describe('validation', () => {
  const problemAt = (res: { status: number; body: any }) => {
    expect(res.status).toBe(422);
    return (res.body.errors as { loc: unknown[] }[]).map((e) => e.loc.join('.'));
  };

  it('refuses unknown platforms and checksum algorithms', async () => {
    expect(problemAt(await register(INSTALLERS, installer('x.exe', { platform: 'beos' })))).toContain(
      'body.platform',
    );
    expect(problemAt(await register(PACKAGES, dependencyPackage('x.zip', { platform: 'amiga' })))).toContain(
      'body.platform',
    );
    expect(
      problemAt(
        await register(PACKAGES, dependencyPackage('x.zip', { checksum: 'ab', checksumAlgorithm: 'crc32' })),
      ),
    ).toContain('body.checksumAlgorithm');
    expect(
      problemAt(await core.request('GET', `${INSTALLERS}?platform=beos`, { token: tokens.alice })),
    ).toContain('query.platform');
    expect(
      problemAt(await core.request('GET', `${INSTALLERS}?variant=nightly`, { token: tokens.alice })),
    ).toContain('query.variant');
    // An http source is useless without its url.
    expect(
      problemAt(await register(INSTALLERS, installer('x.exe', { sources: [{ type: 'http' }] }))),
    ).toContain('body.sources.0.url');
    expect(
      problemAt(
        await register(INSTALLERS, installer('x.exe', { sources: [{ type: 'ftp', url: 'ftp://x' }] })),
      ),
    ).toContain('body.sources.0.type');
    const { body } = await core.request('GET', INSTALLERS, { token: tokens.alice });
    expect(body.installers).toEqual([]);
  });

  it('refuses filenames that are no single file of the area: separators, NUL, "." or "..", over 255 bytes', async () => {
    const refused = [
      '../evil.exe',
      'a/b.exe',
      'a\\b.exe',
      '..',
      '.',
      '',
      'nul\u0000.exe',
      'x'.repeat(256),
      `${'é'.repeat(128)}.exe`,
    ];
    for (const filename of refused) {
      expect(problemAt(await register(INSTALLERS, installer(filename)))).toContain('body.filename');
      expect(problemAt(await register(PACKAGES, dependencyPackage(filename)))).toContain('body.filename');
    }
    // (A path segment that is just ".." never gets here: URLs are normalised before routing.)
    for (const encoded of ['..%2Fevil.exe', '%2E%2E%2Fevil.exe', 'a%2Fb.exe', 'a%5Cb.exe']) {
      for (const base of [INSTALLERS, PACKAGES]) {
        expect(problemAt(await upload(base, encoded, randomBytes(10)))).toContain('path.filename');
        const get = await download(base, encoded);
        expect([get.statusCode, get.json().errors?.[0]?.loc]).toEqual([422, ['path', 'filename']]);
        expect(
          problemAt(
            await core.request('PATCH', `${base}/${encoded}`, { token: tokens.root, body: { sources: [] } }),
          ),
        ).toContain('path.filename');
        expect(
          problemAt(await core.request('DELETE', `${base}/${encoded}`, { token: tokens.root })),
        ).toContain('path.filename');
      }
    }
    expect(existsSync(join(core.config.dataDir, 'evil.exe'))).toBe(false);
    expect(existsSync(join(core.config.dataDir, 'desktop', 'evil.exe'))).toBe(false);
  });

  it('takes any other filename, as AYON does: stored, served and removed under exactly that name', async () => {
    const bytes = randomBytes(100);
    // Each name with the attachment it is served as: quoted as it is, or percent-encoded where it needs escaping.
    const names: [string, string][] = [
      ['a..b.exe', 'filename="a..b.exe"'],
      ['.hidden', 'filename=".hidden"'],
      ['...', 'filename="..."'],
      ['na"me é #?%+.exe', "filename*=utf-8''na%22me%20%C3%A9%20%23%3F%25%2B.exe"],
      ['line\nbreak.exe', "filename*=utf-8''line%0Abreak.exe"],
      ['x'.repeat(255), `filename="${'x'.repeat(255)}"`],
    ];
    for (const [filename, disposition] of names) {
      const url = encodeURIComponent(filename);
      expect((await register(PACKAGES, dependencyPackage(filename))).status).toBe(201);
      expect((await upload(PACKAGES, url, bytes)).status).toBe(204);
      expect(await readdir(desktopDir('dependency_packages'))).toContain(filename);
      const got = await download(PACKAGES, url);
      expect([got.statusCode, got.headers['content-disposition']]).toEqual([
        200,
        `attachment; ${disposition}`,
      ]);
      expect(got.rawPayload.equals(bytes)).toBe(true);
      expect(await listed(PACKAGES, filename)).toMatchObject({ sources: [{ type: 'server' }] });
      expect((await core.request('DELETE', `${PACKAGES}/${url}`, { token: tokens.root })).status).toBe(204);
      expect(await readdir(desktopDir('dependency_packages'))).not.toContain(filename);
    }
  });

  it('registers what AYON takes, even what no upload can match: a negative size, any checksum text', async () => {
    const bytes = randomBytes(64);
    const records = [
      installer('negative.exe', { version: '7.0.0', size: -1 }),
      installer('not-hex.exe', { version: '7.0.1', checksum: 'not a digest' }),
      // An md5 digest declared as sha256: the upload is hashed with sha256, so it cannot match.
      installer('short.exe', {
        version: '7.0.2',
        checksum: digest('md5', bytes),
        checksumAlgorithm: 'sha256',
      }),
    ];
    for (const record of records) {
      expect((await register(INSTALLERS, record)).status).toBe(201);
      const res = await upload(INSTALLERS, record.filename, bytes);
      expect([res.status, res.body.detail]).toEqual([
        400,
        expect.stringMatching(
          new RegExp(`^Upload of Installer ${record.filename} refused, nothing was kept`),
        ),
      ]);
    }
    expect(await listed(INSTALLERS, 'negative.exe')).toMatchObject({ size: -1, sources: [] });
    expect(await listed(INSTALLERS, 'not-hex.exe')).toMatchObject({ checksum: 'not a digest' });
    for (const record of records)
      expect(
        (await core.request('DELETE', `${INSTALLERS}/${record.filename}`, { token: tokens.root })).status,
      ).toBe(204);
  });
});

describe('conflicts', () => {
  it('refuses a second record of the same name, or a second installer of one version and platform, unless forced', async () => {
    const first = randomBytes(5000);
    expect(
      (await register(INSTALLERS, installer('one.tar.gz', { checksum: digest('md5', first) }))).status,
    ).toBe(201);
    expect((await upload(INSTALLERS, 'one.tar.gz', first)).status).toBe(204);

    const same = await register(INSTALLERS, installer('one.tar.gz'));
    expect(same.status).toBe(409);
    expect(same.body.detail).toBe('Installer one.tar.gz already exists');
    const twin = await register(INSTALLERS, installer('two.tar.gz'));
    expect(twin.status).toBe(409);
    expect(twin.body.detail).toBe('Installer one.tar.gz already exists for version 1.2.3 on linux');

    // Forced, with metadata that still describes the uploaded file: the file stays.
    expect(
      (
        await register(
          INSTALLERS,
          installer('one.tar.gz', { pythonVersion: '3.12' }),
          tokens.root,
          '?force=true',
        )
      ).status,
    ).toBe(201);
    expect(await listed(INSTALLERS, 'one.tar.gz')).toMatchObject({
      pythonVersion: '3.12',
      size: first.length,
      checksum: digest('md5', first),
      sources: [{ type: 'server' }],
    });
    // Forced (with AYON's deprecated spelling) with another checksum: the old file no longer matches and goes.
    const second = randomBytes(6000);
    expect(
      (
        await register(
          INSTALLERS,
          installer('one.tar.gz', { checksum: digest('md5', second) }),
          tokens.root,
          '?overwrite=true',
        )
      ).status,
    ).toBe(201);
    expect(await listed(INSTALLERS, 'one.tar.gz')).toMatchObject({
      checksum: digest('md5', second),
      sources: [],
    });
    expect(existsSync(join(desktopDir('installers'), 'one.tar.gz'))).toBe(false);
    expect((await upload(INSTALLERS, 'one.tar.gz', second)).status).toBe(204);
    expect((await download(INSTALLERS, 'one.tar.gz')).rawPayload.equals(second)).toBe(true);
    expect((await core.request('DELETE', `${INSTALLERS}/one.tar.gz`, { token: tokens.root })).status).toBe(
      204,
    );
  });
});

describe('who may do what', () => {
  const filename = 'guarded.zip';

  beforeAll(async () => {
    expect((await register(PACKAGES, dependencyPackage(filename))).status).toBe(201);
    expect((await upload(PACKAGES, filename, randomBytes(1000))).status).toBe(204);
  });

  it('lets every logged-in user list and download, and no one else', async () => {
    for (const token of [tokens.alice, tokens.boss]) {
      expect((await core.request('GET', INSTALLERS, { token })).status).toBe(200);
      expect((await core.request('GET', PACKAGES, { token })).status).toBe(200);
      expect((await download(PACKAGES, filename, { token })).statusCode).toBe(200);
    }
    expect((await core.request('GET', PACKAGES, { apiKey: SERVICE_KEY })).status).toBe(200);
    expect((await core.request('GET', INSTALLERS)).status).toBe(401);
    expect((await core.request('GET', PACKAGES)).status).toBe(401);
    expect((await download(PACKAGES, filename, {})).statusCode).toBe(401);
  });

  it('keeps registering, uploading, patching and deleting to administrators', async () => {
    for (const token of [tokens.alice, tokens.boss]) {
      expect((await register(INSTALLERS, installer('sneaky.exe'), token)).status).toBe(403);
      expect((await register(PACKAGES, dependencyPackage('sneaky.zip'), token)).status).toBe(403);
      expect((await upload(PACKAGES, filename, randomBytes(10), { token })).status).toBe(403);
      expect(
        (await core.request('PATCH', `${PACKAGES}/${filename}`, { token, body: { sources: [] } })).status,
      ).toBe(403);
      expect((await core.request('DELETE', `${PACKAGES}/${filename}`, { token })).status).toBe(403);
    }
    // Anonymous callers are refused before their input is even read.
    expect((await register(INSTALLERS, { nonsense: true }, '')).status).toBe(401);
    expect((await upload(PACKAGES, filename, randomBytes(10), {})).status).toBe(401);
    expect((await core.request('PATCH', `${PACKAGES}/${filename}`, { body: { sources: 'x' } })).status).toBe(
      401,
    );
    expect((await core.request('DELETE', `${PACKAGES}/${filename}`)).status).toBe(401);
    // Nothing changed.
    expect(await listed(PACKAGES, filename)).toMatchObject({ size: 1000, sources: [{ type: 'server' }] });
    expect(await listed(INSTALLERS, 'sneaky.exe')).toBeUndefined();
  });

  it('counts service users as administrators, as the rest of the server does', async () => {
    const bytes = randomBytes(2000);
    const res = await core.request('POST', PACKAGES, {
      apiKey: SERVICE_KEY,
      body: dependencyPackage('from-ci.zip', { platform: 'linux' }),
    });
    expect(res.status).toBe(201);
    expect((await upload(PACKAGES, 'from-ci.zip', bytes, { apiKey: SERVICE_KEY })).status).toBe(204);
    expect((await core.request('DELETE', `${PACKAGES}/from-ci.zip`, { apiKey: SERVICE_KEY })).status).toBe(
      204,
    );
    expect((await core.request('DELETE', `${PACKAGES}/${filename}`, { token: tokens.root })).status).toBe(
      204,
    );
  });
});

describe('installers of a bundle', () => {
  afterAll(async () => {
    await core.db.deleteFrom('bundles').execute();
    for (const name of ['p-1.0.0.exe', 'p-2.0.0.exe'])
      await core.request('DELETE', `${INSTALLERS}/${name}`, { token: tokens.root });
  });

  it('lists the installer version the production or staging bundle names', async () => {
    const none = await core.request('GET', `${INSTALLERS}?variant=production`, { token: tokens.alice });
    expect(none.status).toBe(404);
    expect(none.body.detail).toBe('No production bundle found');
    for (const version of ['1.0.0', '2.0.0'])
      expect(
        (await register(INSTALLERS, installer(`p-${version}.exe`, { version, platform: 'windows' }))).status,
      ).toBe(201);
    await core.db
      .insertInto('bundles')
      .values([
        {
          name: 'prod',
          is_production: true,
          data: JSON.stringify({ installerVersion: '1.0.0', addons: {} }),
        },
        { name: 'next', is_staging: true, data: JSON.stringify({ addons: {} }) },
      ])
      .execute();
    const production = await core.request('GET', `${INSTALLERS}?variant=production`, { token: tokens.alice });
    expect(production.body.installers.map((i: { filename: string }) => i.filename)).toEqual(['p-1.0.0.exe']);
    // A bundle that names no installer has none to offer.
    const staging = await core.request('GET', `${INSTALLERS}?variant=staging`, { token: tokens.alice });
    expect(staging.body).toEqual({ installers: [] });
  });
});

describe('large uploads over a real connection', () => {
  it('streams a chunked upload of unknown length to disk and serves it back', async () => {
    const address = await core.app.listen({ port: 0, host: '127.0.0.1' });
    const chunks = Array.from({ length: 24 }, () => randomBytes(1024 * 1024));
    const whole = Buffer.concat(chunks);
    expect(
      (
        await register(
          INSTALLERS,
          installer('big.exe', {
            platform: 'windows',
            version: '3.0.0',
            checksum: digest('sha256', whole),
            checksumAlgorithm: 'sha256',
          }),
        )
      ).status,
    ).toBe(201);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const put = await fetch(`${address}${INSTALLERS}/big.exe`, {
      method: 'PUT',
      body,
      headers: { authorization: `Bearer ${tokens.root}`, 'content-type': 'application/octet-stream' },
      duplex: 'half',
    } as RequestInit);
    expect(put.status).toBe(204);
    const got = await fetch(`${address}${INSTALLERS}/big.exe`, {
      headers: { authorization: `Bearer ${tokens.alice}` },
    });
    expect(got.status).toBe(200);
    expect(Number(got.headers.get('content-length'))).toBe(whole.length);
    expect(digest('sha256', Buffer.from(await got.arrayBuffer()))).toBe(digest('sha256', whole));
    expect((await core.request('DELETE', `${INSTALLERS}/big.exe`, { token: tokens.root })).status).toBe(204);
  });
});

describe('install from a url', () => {
  let files: Server;
  let internal: Server;
  let internalPort: number;
  let base: string;
  const served = randomBytes(512 * 1024);

  beforeAll(async () => {
    // What a redirect would like to reach: a service that answers only inside the network.
    internal = createServer((_request, response) => response.end('internal'));
    await new Promise<void>((done) => internal.listen(0, '127.0.0.1', done));
    internalPort = (internal.address() as AddressInfo).port;
    files = createServer((request, response) => {
      if (request.url === '/pkg.zip') response.end(served);
      else if (request.url === '/elsewhere.zip')
        response.writeHead(302, { location: `http://127.0.0.1:${internalPort}/pkg.zip` }).end();
      else response.writeHead(404).end('missing');
    });
    await new Promise<void>((done) => files.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const server of [files, internal]) await new Promise<void>((done) => server.close(() => done()));
  });

  async function eventOf(id: string) {
    for (let i = 0; i < 100; i++) {
      const row = await core.db
        .selectFrom('events')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      if (row.status === 'finished' || row.status === 'failed') return row;
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error(`event ${id} did not finish`);
  }

  it('fetches the file in the background, followed by an install_from_url event', async () => {
    const url = `${base}/pkg.zip`;
    const res = await register(
      PACKAGES,
      dependencyPackage('fetched.zip', { checksum: digest('md5', served) }),
      tokens.root,
      `?url=${encodeURIComponent(url)}`,
    );
    expect(res.status).toBe(201);
    expect(res.body.eventId).toMatch(/^[0-9a-f]{32}$/);
    const event = await eventOf(res.body.eventId);
    expect(event).toMatchObject({
      topic: 'dependency_package.install_from_url',
      status: 'finished',
      user_name: 'root',
      summary: { url, filename: 'fetched.zip' },
    });
    expect(event.hash).toBe(digest('sha256', Buffer.from(`dep_pkg_install_${url}`)));
    expect((await download(PACKAGES, 'fetched.zip')).rawPayload.equals(served)).toBe(true);
    expect(await listed(PACKAGES, 'fetched.zip')).toMatchObject({
      size: served.length,
      sources: [{ type: 'server' }],
    });
  });

  it('fails the event when the download does not match the record, keeping nothing', async () => {
    const url = `${base}/pkg.zip`;
    const res = await register(
      INSTALLERS,
      installer('fetched.exe', { platform: 'windows', version: '4.0.0', size: 12 }),
      tokens.root,
      `?url=${encodeURIComponent(url)}`,
    );
    expect(res.status).toBe(201);
    const event = await eventOf(res.body.eventId);
    expect(event).toMatchObject({ topic: 'installer.install_from_url', status: 'failed' });
    expect(event.description).toContain('12 bytes were declared');
    expect(existsSync(join(desktopDir('installers'), 'fetched.exe'))).toBe(false);
    const missing = await register(
      INSTALLERS,
      installer('gone.exe', { platform: 'darwin', version: '4.0.0' }),
      tokens.root,
      `?url=${encodeURIComponent(`${base}/nothing.zip`)}`,
    );
    expect((await eventOf(missing.body.eventId)).description).toBe(
      'Failed to download gone.exe: download failed: the server answered HTTP 404',
    );
    for (const name of ['fetched.exe', 'gone.exe'])
      expect((await core.request('DELETE', `${INSTALLERS}/${name}`, { token: tokens.root })).status).toBe(
        204,
      );
    expect((await core.request('DELETE', `${PACKAGES}/fetched.zip`, { token: tokens.root })).status).toBe(
      204,
    );
  });

  it('follows no redirect to another port, and the event does not tell what answered there', async () => {
    const res = await register(
      INSTALLERS,
      installer('moved.exe', { platform: 'linux', version: '4.0.0' }),
      tokens.root,
      `?url=${encodeURIComponent(`${base}/elsewhere.zip`)}`,
    );
    const event = await eventOf(res.body.eventId);
    expect(event.description).toBe(
      'Failed to download moved.exe: download failed: the server redirected to another host or port, which is not followed',
    );
    expect(JSON.stringify(event)).not.toContain(String(internalPort));
    expect(existsSync(join(desktopDir('installers'), 'moved.exe'))).toBe(false);
    expect((await core.request('DELETE', `${INSTALLERS}/moved.exe`, { token: tokens.root })).status).toBe(
      204,
    );
  });

  it.each(['data:application/octet-stream;base64,AAAA', 'file:///etc/passwd', 'gopher://host/x'])(
    'refuses %s with 422 and registers nothing',
    async (url) => {
      const res = await register(
        PACKAGES,
        dependencyPackage('never.zip'),
        tokens.root,
        `?url=${encodeURIComponent(url)}`,
      );
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        { loc: ['query', 'url'], msg: 'must be an http or https URL', type: 'url_scheme' },
      ]);
      expect(await listed(PACKAGES, 'never.zip')).toBeUndefined();
    },
  );
});

describe('after a process is killed mid-download', () => {
  // A pid no process has any more: a child that already exited.
  const deadPid = () =>
    new Promise<number>((done) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => done(child.pid!));
    });

  it('marks its download failed at the next start, leaving downloads of live processes alone', async () => {
    const alive = spawn('sleep', ['30']);
    try {
      const started = async (filename: string, pid: number) =>
        (
          await core.events.emit({
            topic: 'installer.install_from_url',
            status: 'in_progress',
            summary: { url: `https://example.com/${filename}`, filename },
            payload: { worker: { host: hostname(), pid } },
          })
        ).id;
      const lost = await started('lost.exe', await deadPid());
      const running = await started('running.exe', alive.pid!);
      const downloads = new UrlDownloads(core.events, new DesktopFiles(tmpdir()), core.app.log);
      await downloads.recover();
      const lostEvent = await core.events.get(lost);
      expect(lostEvent).toMatchObject({ status: 'failed' });
      expect(lostEvent!.description).toMatch(/lost\.exe: the server stopped before the download finished/);
      expect((await core.events.get(running))!.status).toBe('in_progress');
    } finally {
      alive.kill();
    }
  });

  it('removes the half-written files nobody writes any more, and only those', async () => {
    const root = await mkdtemp(join(tmpdir(), 'desktop-files-'));
    await mkdir(join(root, '.incoming'));
    const stale = join(root, '.incoming', 'stale.part');
    const fresh = join(root, '.incoming', 'fresh.part');
    await writeFile(stale, 'half');
    await writeFile(fresh, 'still coming');
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(stale, tenMinutesAgo, tenMinutesAgo);
    expect(await new DesktopFiles(root).removeAbandoned()).toBe(1);
    expect([existsSync(stale), existsSync(fresh)]).toEqual([false, true]);
    await rm(root, { recursive: true, force: true });
  });
});
