import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, importAddon, type PipewrightServer } from '@pipewright/core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { PASSWORD } from './fixtures/test-users/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const board = join(fixtures, 'review-board');
const loadFixtures = () =>
  Promise.all(
    ['test-users', 'review-board', 'night-light'].map((name) => importAddon(join(fixtures, name), false)),
  );

let core: TestCore;
let token: string;
beforeAll(async () => {
  core = await bootTestCore({
    addons: ['addons', 'test-users', 'review-board', 'night-light'],
    extraAddons: await loadFixtures(),
  });
  const login = await core.request('POST', '/api/auth/login', {
    body: { name: 'alice', password: PASSWORD },
  });
  expect(login.status).toBe(200);
  token = login.body.token;
});
afterAll(() => core.close());

const NOT_LOGGED_IN = { code: 401, detail: 'Not logged in' };

describe('GET /api/addons', () => {
  it('answers 401 without a login', async () => {
    const res = await core.request('GET', '/api/addons');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
  });

  it('lists internal addons as system addons and installed ones as not, sorted by name', async () => {
    const res = await core.request('GET', '/api/addons', { token });
    expect(res.status).toBe(200);
    const addons = res.body.addons as any[];
    expect(addons.map((a) => [a.name, a.system, a.productionVersion])).toEqual([
      ['addons', true, '1.0.0'],
      ['auth', true, '1.0.0'],
      ['night-light', false, '0.3.0'],
      ['review-board', false, '2.1.0'],
      ['test-users', false, '1.0.0'],
    ]);
  });

  it("describes a version in AYON's shape", async () => {
    const res = await core.request('GET', '/api/addons', { token });
    expect(res.body.addons.find((a: any) => a.name === 'review-board')).toEqual({
      name: 'review-board',
      title: 'Review board',
      description: 'Side-by-side review of versions',
      versions: {
        '2.1.0': {
          hasSettings: true,
          hasSiteSettings: false,
          frontendScopes: { project: { sidebar: 'Review' }, settings: { access: 'manager' } },
          isBroken: false,
          projectCanOverrideAddonVersion: false,
        },
      },
      productionVersion: '2.1.0',
      addonType: 'server',
      system: false,
      projectCanOverrideAddonVersion: false,
    });
  });

  it('adds the services with ?details, and refuses a value that is not a boolean with 422', async () => {
    const detailed = await core.request('GET', '/api/addons?details=true', { token });
    expect(detailed.status).toBe(200);
    const board = detailed.body.addons.find((a: any) => a.name === 'review-board');
    expect(board.versions['2.1.0'].services).toEqual({
      transcoder: { image: 'example/transcoder:1.0', env: { QUALITY: 'high' } },
    });
    // No private/client.zip or pyproject.toml: nothing to say where client code comes from.
    expect(board.versions['2.1.0']).not.toHaveProperty('clientSourceInfo');
    expect(board.versions['2.1.0']).not.toHaveProperty('clientPyproject');
    const bad = await core.request('GET', '/api/addons?details=maybe', { token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ loc: ['query', 'details'], msg: expect.any(String), type: 'type' }]);
  });
});

describe('GET /api/frontendModules', () => {
  it('answers 401 without a login', async () => {
    const res = await core.request('GET', '/api/frontendModules');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(NOT_LOGGED_IN);
  });

  it("lists to AYON's web app only the remotes shipped at AYON's path, so it never loads a missing file", async () => {
    const res = await core.request('GET', '/api/frontendModules', { token });
    expect(res.status).toBe(200);
    // review-board ships frontend/dist/modules/reviewBoard/remoteEntry.js; the addons area's screens are built for
    // Pipewright's web app only.
    expect(res.body).toEqual([
      {
        addonName: 'review-board',
        addonVersion: '2.1.0',
        modules: { reviewBoard: ['./Player', './Timeline'] },
      },
    ]);
    const entry = await core.request(
      'GET',
      '/addons/review-board/2.1.0/frontend/modules/reviewBoard/remoteEntry.js',
    );
    expect(entry.status).toBe(200);
    expect((await core.request('GET', '/api/frontendModules?format=ayon', { token })).body).toEqual(res.body);
    expect((await core.request('GET', '/api/frontendModules?format=other', { token })).status).toBe(422);
  });

  it('lists the remotes of every running addon that has some, and only those, to Pipewright’s web app', async () => {
    const res = await core.request('GET', '/api/frontendModules?format=mf-manifest', { token });
    expect(res.status).toBe(200);
    const byName = [...res.body].sort((a: any, b: any) => a.addonName.localeCompare(b.addonName));
    // With each addon's title and scopes, which place its screens (AYON's addon list shows scopes only for an
    // addon with a page AYON's web app can frame: review-board's frontend/dist/index.html).
    expect(byName).toEqual([
      {
        addonName: 'addons',
        addonVersion: '1.0.0',
        modules: { addons_screens: ['./Addons'] },
        title: 'Addons',
        frontendScopes: { settings: { sidebar: 'Addons', access: 'admin' } },
      },
      {
        addonName: 'night-light',
        addonVersion: '0.3.0',
        modules: { nightLight: ['./Toggle'] },
        title: expect.any(String),
        frontendScopes: {},
      },
      {
        addonName: 'review-board',
        addonVersion: '2.1.0',
        modules: { reviewBoard: ['./Player', './Timeline'] },
        title: 'Review board',
        frontendScopes: { project: { sidebar: 'Review' }, settings: { access: 'manager' } },
      },
    ]);
    const listed = (await core.request('GET', '/api/addons', { token })).body.addons;
    expect(listed.find((a: any) => a.name === 'addons').versions['1.0.0'].frontendScopes).toEqual({});
  });
});

describe('frontend files', () => {
  const base = '/addons/review-board/2.1.0/frontend';

  it('answers index.html for the empty path, without login and never from a stale cache', async () => {
    const res = await core.request('GET', `${base}/`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(await readFile(join(board, 'frontend/dist/index.html'), 'utf8'));
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('public, no-cache');
  });

  it('redirects the folder without its trailing slash, so relative asset URLs resolve', async () => {
    const res = await core.request('GET', `${base}?token=abc`);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`${base}/?token=abc`);
  });

  it('serves remoteEntry.js, at the top and in module folders, with no-cache', async () => {
    for (const path of ['remoteEntry.js', 'modules/reviewBoard/remoteEntry.js']) {
      const res = await core.request('GET', `${base}/${path}`);
      expect(res.status).toBe(200);
      expect(res.text).toBe(await readFile(join(board, 'frontend/dist', path), 'utf8'));
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, no-cache');
    }
  });

  it('lets other files be cached, and answers a revalidation with 304', async () => {
    const res = await core.request('GET', `${base}/assets/app.js`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("console.log('review board app');\n");
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const again = await core.request('GET', `${base}/assets/app.js`, {
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.status).toBe(304);
  });
});

describe('public and private files', () => {
  it('serves public files without login, with their content type', async () => {
    const res = await core.request('GET', '/addons/review-board/2.1.0/public/logo.svg');
    expect(res.status).toBe(200);
    expect(res.text).toBe(await readFile(join(board, 'public/logo.svg'), 'utf8'));
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers 401 for private files without login, even for files that do not exist', async () => {
    for (const path of ['client.txt', 'missing.txt']) {
      const res = await core.request('GET', `/addons/review-board/2.1.0/private/${path}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(NOT_LOGGED_IN);
    }
    const unknownAddon = await core.request('GET', '/addons/nothing/1.0.0/private/client.txt');
    expect(unknownAddon.status).toBe(401);
  });

  it('serves private files to a logged-in user, kept out of shared caches', async () => {
    for (const credentials of [{ token }, { headers: { cookie: `accessToken=${token}` } }]) {
      const res = await core.request('GET', '/addons/review-board/2.1.0/private/client.txt', credentials);
      expect(res.status).toBe(200);
      expect(res.text).toBe('client secret payload\n');
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
    }
  });
});

describe('missing files', () => {
  it.each([
    [
      'an unknown addon',
      '/addons/nothing/1.0.0/public/logo.svg',
      'Addon nothing 1.0.0 is not running on this server',
    ],
    [
      'an unknown version',
      '/addons/review-board/9.9.9/public/logo.svg',
      'Addon review-board 9.9.9 is not running on this server',
    ],
    [
      'a missing file',
      '/addons/review-board/2.1.0/public/nope.svg',
      'No public file "nope.svg" in addon review-board 2.1.0',
    ],
    [
      'a folder',
      '/addons/review-board/2.1.0/frontend/assets',
      'No frontend file "assets" in addon review-board 2.1.0',
    ],
    [
      'an empty public path',
      '/addons/review-board/2.1.0/public/',
      'No public file "" in addon review-board 2.1.0',
    ],
    [
      'a hidden file',
      '/addons/review-board/2.1.0/public/.env',
      'No public file ".env" in addon review-board 2.1.0',
    ],
    [
      'an addon without a frontend',
      '/addons/test-users/1.0.0/frontend/',
      'No frontend file "" in addon test-users 1.0.0',
    ],
  ])('answers 404 for %s', async (_what, url, detail) => {
    const res = await core.request('GET', url);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, detail });
  });
});

describe('path traversal', () => {
  // Each tries to reach a file outside the folder: the addon's own source, or a private file through public/.
  const attempts = [
    '/addons/review-board/2.1.0/public/..%2findex.ts',
    '/addons/review-board/2.1.0/public/%2e%2e%2fprivate%2fclient.txt',
    '/addons/review-board/2.1.0/public/..%5cindex.ts',
    '/addons/review-board/2.1.0/frontend/..%2f..%2f..%2findex.ts',
    '/addons/review-board/2.1.0/frontend/assets%2f..%2f..%2f..%2fprivate%2fclient.txt',
    '/addons/review-board/2.1.0/public//etc/passwd',
    '/addons/review-board/2.1.0/public/%2fetc%2fpasswd',
    '/addons/review-board/2.1.0/public/.%2flogo.svg',
  ];

  it.each(attempts)('answers 404 for %s', async (url) => {
    const res = await core.request('GET', url, { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, detail: expect.any(String) });
  });

  it('refuses a NUL byte in the path as input no route takes (422), before any file is looked up', async () => {
    const res = await core.request('GET', '/addons/review-board/2.1.0/public/logo.svg%00.txt', { token });
    expect(res.status).toBe(422);
    expect(res.text).not.toContain('<svg');
  });

  it('holds over a real socket, where nothing normalises ".." before the router', async () => {
    await core.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = core.app.server.address() as AddressInfo;
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${token}` } },
          (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject).end();
      });
    expect((await get('/addons/review-board/2.1.0/public/logo.svg')).status).toBe(200);
    for (const path of [
      '/addons/review-board/2.1.0/public/../private/client.txt',
      '/addons/review-board/2.1.0/public/../index.ts',
      '/addons/review-board/2.1.0/frontend/../../../../../../etc/passwd',
      '/addons/review-board/2.1.0/public/%2e%2e/index.ts',
      ...attempts,
    ]) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body).not.toMatch(/client secret|defineAddon|root:/);
    }
  });
});

describe('bad parameters', () => {
  it('answers 404 for a version or a name with characters no addon can have', async () => {
    // As AYON: any text is taken as a name or version, and one no addon has is not found.
    const version = await core.request('GET', '/addons/review-board/2.1.0%3Cx%3E/frontend/');
    expect(version.status).toBe(404);
    const name = await core.request('GET', '/addons/Review!/2.1.0/public/logo.svg');
    expect(name.status).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents the API routes under the Addons tag and hides the static files', async () => {
    const { body } = await core.request('GET', '/openapi.json');
    expect(body.paths['/api/addons'].get.tags).toEqual(['Addons']);
    expect(body.paths['/api/addons'].get.parameters).toEqual([
      expect.objectContaining({ name: 'details', in: 'query' }),
    ]);
    expect(body.paths['/api/frontendModules'].get.tags).toEqual(['Addons']);
    expect(Object.keys(body.paths).filter((path) => path.startsWith('/addons/'))).toEqual([]);
  });
});

describe('with a dependency switched off in the production bundle', () => {
  let second: PipewrightServer;
  beforeAll(async () => {
    await core.db
      .insertInto('bundles')
      .values({
        name: 'prod',
        is_production: true,
        data: JSON.stringify({ addons: { 'review-board': null } }),
      })
      .execute();
    // A second server process on the same storage reads the bundle at start-up; sessions are shared.
    second = await createServer({
      config: core.config,
      database: { ...core.database, close: async () => undefined },
      only: ['addons', 'test-users', 'night-light'],
      extraAddons: await loadFixtures(),
    });
  });
  afterAll(async () => {
    await second?.close();
    await core.db.deleteFrom('bundles').where('name', '=', 'prod').execute();
  });

  const get = async (url: string) => {
    const res = await second.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('lists the dependant as broken with its reason, and neither with a production version', async () => {
    const { status, body } = await get('/api/addons');
    expect(status).toBe(200);
    const light = body.addons.find((a: any) => a.name === 'night-light');
    expect(light).not.toHaveProperty('productionVersion');
    expect(light).toMatchObject({
      system: false,
      versions: {
        '0.3.0': { isBroken: true, reason: { error: 'needs review-board, which is not enabled' } },
      },
    });
    // The switched-off addon stays listed, so an operator can switch it on again; it just has no production version.
    // Unset fields are left out, as AYON leaves them out.
    const board = body.addons.find((a: any) => a.name === 'review-board');
    expect(board).not.toHaveProperty('productionVersion');
    expect(board.versions['2.1.0']).toMatchObject({ isBroken: false });
    expect(board.versions['2.1.0']).not.toHaveProperty('reason');
  });

  it('leaves it out of frontendModules and serves none of its files', async () => {
    expect(
      (await get('/api/frontendModules?format=mf-manifest')).body.map(
        (m: { addonName: string }) => m.addonName,
      ),
    ).toEqual(['addons']);
    const files = await get('/addons/night-light/0.3.0/frontend/');
    expect(files).toEqual({
      status: 404,
      body: { code: 404, detail: 'Addon night-light 0.3.0 is not running on this server' },
    });
  });
});
