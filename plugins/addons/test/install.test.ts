import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  bootTestCore,
  endedEvent,
  fixedUserSource,
  installPackage,
  type TestCore,
} from '@pipewright/core/testing';
import { addonZip, buildShotNotes, zipOf, zipWithRawName } from './packages.js';

const PASSWORD = 'a long test password';
const users = fixedUserSource(
  'install-users',
  { root: { isAdmin: true }, mia: { isManager: true }, ann: {} },
  { password: PASSWORD },
);
const ZIP = { 'content-type': 'application/zip' };

let core: TestCore;
let dataDir: string;
const tokens: Record<string, string> = {};
let shotNotes: Buffer;

beforeAll(async () => {
  // The data folder outlives this core: a second core started on it must find the installed addons.
  dataDir = await mkdtemp(join(tmpdir(), 'pipewright-install-'));
  core = await bootTestCore({
    addons: ['addons', 'settings', 'install-users'],
    extraAddons: [users],
    config: { dataDir },
  });
  for (const name of ['root', 'mia', 'ann']) {
    tokens[name] = (
      await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } })
    ).body.token;
  }
  shotNotes = await buildShotNotes('1.0.0');
}, 60_000);
afterAll(async () => {
  await core?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const install = (zip: Buffer) => installPackage(core, tokens.root!, zip);
const settled = (eventId: string) => endedEvent(core, eventId, 5000);

const listed = async (name: string) =>
  (await core.request('GET', '/api/addons', { token: tokens.ann })).body.addons.find(
    (addon: { name: string }) => addon.name === name,
  );

describe('installing an addon package', () => {
  it('runs it at once, without a restart: routes, its own table, static files, settings and frontend', async () => {
    expect(
      (await core.request('GET', '/api/addons/shot-notes/1.0.0/hello', { token: tokens.ann })).status,
    ).toBe(404);
    const event = await install(shotNotes);
    expect(event).toMatchObject({
      topic: 'addon.install',
      status: 'finished',
      user: 'root',
      description: 'Installed shot-notes 1.0.0',
      summary: { addonName: 'shot-notes', addonVersion: '1.0.0' },
    });

    const hello = await core.request('GET', '/api/addons/shot-notes/1.0.0/hello', { token: tokens.ann });
    expect(hello.status).toBe(200);
    expect(hello.body).toEqual({ message: 'Hello ann from shot-notes 1.0.0' });
    // Its routes keep the server's conventions: login required, 422 in AYON's shape.
    expect((await core.request('GET', '/api/addons/shot-notes/1.0.0/hello')).status).toBe(401);
    const bad = await core.request('POST', '/api/addons/shot-notes/1.0.0/notes', {
      token: tokens.ann,
      body: { shot: '' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual(expect.any(String));
    expect(bad.body.errors ?? bad.body.detail).toBeTruthy();
    expect(
      (
        await core.request('POST', '/api/addons/shot-notes/1.0.0/notes', {
          token: tokens.ann,
          body: { shot: 'sh010', text: 'Fix the flicker' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await core.request('GET', '/api/addons/shot-notes/1.0.0/notes', { token: tokens.mia })).body,
    ).toEqual({
      notes: [{ shot: 'sh010', text: 'Fix the flicker', author: 'ann' }],
    });

    expect(await listed('shot-notes')).toEqual({
      name: 'shot-notes',
      title: 'Shot notes',
      description: 'Notes on shots, kept by the addon itself',
      versions: {
        '1.0.0': {
          hasSettings: true,
          hasSiteSettings: true,
          // Its screens are Module Federation remotes for Pipewright's web app, not a page AYON's web app can frame.
          frontendScopes: {},
          isBroken: false,
          projectCanOverrideAddonVersion: false,
        },
      },
      productionVersion: '1.0.0',
      addonType: 'server',
      system: false,
      projectCanOverrideAddonVersion: false,
    });
    const modules = await core.request('GET', '/api/frontendModules?format=mf-manifest', {
      token: tokens.ann,
    });
    expect(modules.body).toContainEqual({
      addonName: 'shot-notes',
      addonVersion: '1.0.0',
      modules: { shotNotes: ['./NotesPanel'] },
      title: 'Shot notes',
      frontendScopes: { project: { sidebar: 'Shot notes' } },
    });
    const icon = await core.request('GET', '/addons/shot-notes/1.0.0/public/icon.svg');
    expect(icon.status).toBe(200);
    expect(icon.text).toContain('<svg');
    const remote = await core.request('GET', '/addons/shot-notes/1.0.0/frontend/mf-manifest.json');
    expect(remote.body).toMatchObject({
      name: 'shotNotes',
      exposes: [expect.objectContaining({ path: './NotesPanel' })],
    });
  });

  it('runs a second version beside the first; production uses the newest unless a bundle says otherwise', async () => {
    const event = await install(await buildShotNotes('1.1.0'));
    expect(event.status).toBe('finished');
    for (const version of ['1.0.0', '1.1.0']) {
      const res = await core.request('GET', `/api/addons/shot-notes/${version}/hello`, { token: tokens.ann });
      expect(res.body).toEqual({ message: `Hello ann from shot-notes ${version}` });
    }
    const item = await listed('shot-notes');
    expect(Object.keys(item.versions).sort()).toEqual(['1.0.0', '1.1.0']);
    expect(item.productionVersion).toBe('1.1.0');
    // Both versions share the addon's table: the newer one reads what the older one wrote.
    expect(
      (await core.request('GET', '/api/addons/shot-notes/1.1.0/notes', { token: tokens.ann })).body.notes,
    ).toHaveLength(1);

    const installs = await core.request('GET', '/api/addons/install', { token: tokens.root });
    expect(installs.status).toBe(200);
    expect(installs.body.restartRequired).toBe(false);
    expect(installs.body.items.slice(0, 2)).toEqual([
      expect.objectContaining({
        topic: 'addon.install',
        addonVersion: '1.1.0',
        status: 'finished',
        user: 'root',
      }),
      expect.objectContaining({ topic: 'addon.install', addonVersion: '1.0.0', status: 'finished' }),
    ]);
  });

  it('follows the production bundle at once: the version it names, and off when it names null', async () => {
    await core.db
      .insertInto('bundles')
      .values({
        name: 'prod',
        is_production: true,
        data: JSON.stringify({ addons: { 'shot-notes': '1.0.0' } }),
      })
      .execute();
    await core.runtime.applyProductionBundle();
    expect((await listed('shot-notes')).productionVersion).toBe('1.0.0');
    expect(
      (await core.request('GET', '/api/frontendModules?format=mf-manifest', { token: tokens.ann })).body,
    ).toContainEqual(expect.objectContaining({ addonName: 'shot-notes', addonVersion: '1.0.0' }));

    await core.db
      .updateTable('bundles')
      .set({ data: JSON.stringify({ addons: { 'shot-notes': null } }) })
      .where('name', '=', 'prod')
      .execute();
    await core.runtime.applyProductionBundle();
    const off = await core.request('GET', '/api/addons/shot-notes/1.0.0/hello', { token: tokens.ann });
    expect(off.status).toBe(404);
    expect(await listed('shot-notes')).not.toHaveProperty('productionVersion');
    expect(
      (await core.request('GET', '/api/frontendModules?format=mf-manifest', { token: tokens.ann })).body.map(
        (m: { addonName: string }) => m.addonName,
      ),
    ).not.toContain('shot-notes');

    await core.db.deleteFrom('bundles').where('name', '=', 'prod').execute();
    await core.runtime.applyProductionBundle();
    expect(
      (await core.request('GET', '/api/addons/shot-notes/1.0.0/hello', { token: tokens.ann })).status,
    ).toBe(200);
  });

  it('is loaded again by a server started later on the same data folder', async () => {
    const later = await bootTestCore({
      addons: ['addons', 'settings', 'install-users'],
      extraAddons: [users],
      config: { dataDir },
    });
    try {
      const token = (
        await later.request('POST', '/api/auth/login', { body: { name: 'ann', password: PASSWORD } })
      ).body.token;
      const res = await later.request('GET', '/api/addons/shot-notes/1.1.0/hello', { token });
      expect(res.body).toEqual({ message: 'Hello ann from shot-notes 1.1.0' });
    } finally {
      await later.close();
    }
  });
});

describe('an AYON addon package (package.py, Python server code)', () => {
  it('installs from a body sent as application/json, as the AYON client sends it, and serves its client files', async () => {
    const zip = zipOf({
      'package.py':
        'name = "ayon_tools"\ntitle = "AYON Tools"\nversion = "1.0.0"\nclient_dir = None  # no client\n',
      'server/__init__.py': 'from ayon_server.addons import BaseServerAddon\n',
      'private/client.zip': 'client code',
    });
    const res = await core.request('POST', '/api/addons/install', {
      token: tokens.root,
      body: zip,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect((await settled(res.body.eventId)).status).toBe('finished');
    const addon = await listed('ayon_tools');
    expect(addon).toMatchObject({ title: 'AYON Tools' });
    expect(addon.versions['1.0.0'].isBroken).toBeFalsy();
    const file = await core.request('GET', '/addons/ayon_tools/1.0.0/private/client.zip', {
      token: tokens.ann,
    });
    expect([file.status, file.text]).toEqual([200, 'client code']);
  });

  it('is refused with 422 when package.py names no version', async () => {
    const res = await core.request('POST', '/api/addons/install', {
      token: tokens.root,
      body: zipOf({ 'package.py': 'name = "half"\n' }),
      headers: ZIP,
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain('package.py: version must be a semantic version');
  });
});

describe('a broken addon', () => {
  it('stays installed and listed with the reason, and the server keeps serving everything else', async () => {
    const event = await install(
      addonZip(
        'fragile',
        '0.1.0',
        `export default { name: 'fragile', version: '0.1.0', title: 'Fragile',
           setup(ctx) { ctx.app.get('/ping', async () => ({ pong: true })); throw new Error('the license file is missing'); } };`,
      ),
    );
    expect(event.status).toBe('failed');
    expect(event.description).toBe(
      'Installed fragile 0.1.0, but it is broken: setup failed: the license file is missing',
    );
    expect((await listed('fragile')).versions['0.1.0']).toMatchObject({
      isBroken: true,
      reason: { error: 'setup failed: the license file is missing' },
    });
    expect((await core.request('GET', '/api/addons/fragile/0.1.0/ping', { token: tokens.ann })).status).toBe(
      404,
    );
    expect(
      (await core.request('GET', '/api/addons/shot-notes/1.1.0/hello', { token: tokens.ann })).status,
    ).toBe(200);
  });

  it('is reported broken when its code cannot even be imported', async () => {
    const event = await install(addonZip('garbled', '0.1.0', 'export default {{{'));
    expect(event.status).toBe('failed');
    expect((await listed('garbled')).versions['0.1.0'].reason.error).toMatch(/^could not be loaded: /);
  });
});

describe('packages that cannot be installed', () => {
  const refused = async (body: Buffer, msg: RegExp) => {
    const res = await core.request('POST', '/api/addons/install', { token: tokens.root, body, headers: ZIP });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/^Not an addon package/);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ loc: ['body'], msg: expect.stringMatching(msg) }),
    ]);
  };

  it('are refused with 422 saying why, and nothing is written', async () => {
    await refused(Buffer.from('not a zip at all'), /not a zip file/);
    await refused(zipOf({ 'index.js': '' }), /manifest.json is missing/);
    await refused(zipOf({ 'manifest.json': '{' }), /not valid JSON/);
    await refused(addonZip('Bad Name', '1.0.0', ''), /name must be lowercase/);
    await refused(addonZip('ok', 'one', ''), /version must be a semantic version/);
    await refused(
      addonZip('ok', '1.0.0', '', { serverVersion: '>=2.0.0' }),
      /needs server version >=2.0.0; this server is 1\.11\.3/,
    );
    await refused(
      zipWithRawName(
        { 'manifest.json': JSON.stringify({ name: 'sneaky', version: '1.0.0' }), 'package.json': '{}' },
        '../../outside.js',
      ),
      /outside the addon folder/,
    );
    expect(existsSync(join(dataDir, 'addons', 'sneaky'))).toBe(false);
    expect(existsSync(join(dataDir, 'addons', 'ok'))).toBe(false);
  });

  it('refuses an empty body and an addon named like a part of the server', async () => {
    const empty = await core.request('POST', '/api/addons/install', { token: tokens.root });
    expect(empty.status).toBe(400);
    const internal = await core.request('POST', '/api/addons/install', {
      token: tokens.root,
      body: addonZip('addons', '9.0.0', 'export default {}'),
      headers: ZIP,
    });
    expect(internal.status).toBe(409);
    expect(internal.body.detail).toBe(
      'addons is part of the server; an addon of that name cannot be installed or deleted',
    );
  });

  it('lets only administrators install, list installs and delete', async () => {
    for (const name of ['mia', 'ann']) {
      const install = await core.request('POST', '/api/addons/install', {
        token: tokens[name],
        body: shotNotes,
        headers: ZIP,
      });
      expect(install.status).toBe(403);
      expect((await core.request('GET', '/api/addons/install', { token: tokens[name] })).status).toBe(403);
      expect(
        (await core.request('DELETE', '/api/addons/shot-notes/1.0.0', { token: tokens[name] })).status,
      ).toBe(403);
    }
    const anonymous = await core.request('POST', '/api/addons/install', { body: shotNotes, headers: ZIP });
    expect(anonymous.status).toBe(401);
  });
});

describe('installing from a URL', () => {
  let server: Server;
  let internal: Server;
  let internalPort: number;
  let base: string;
  let served: Buffer;
  beforeAll(async () => {
    // Built beforehand: the install's wait is for the download and the install, not for the build.
    served = await buildShotNotes('1.2.0');
    // What a redirect would like to reach: a service that answers only inside the network.
    internal = createHttpServer((_req, res) => res.end('internal'));
    await new Promise<void>((done) => internal.listen(0, '127.0.0.1', done));
    internalPort = (internal.address() as AddressInfo).port;
    // A web server on this machine standing in for wherever a studio keeps its addon packages.
    server = createHttpServer((req, res) => {
      if (req.url === '/elsewhere.zip') {
        res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/x.zip` }).end();
      } else if (req.url === '/shot-notes-1.2.0.zip') {
        res.writeHead(200, { 'content-type': 'application/zip' }).end(served);
      } else res.writeHead(404).end('no such file');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    for (const s of [server, internal]) await new Promise<void>((done) => s.close(() => done()));
  });

  it('downloads the package and installs it, tracked by an addon.install_from_url event', async () => {
    const res = await core.request(
      'POST',
      `/api/addons/install?url=${encodeURIComponent(`${base}/shot-notes-1.2.0.zip`)}`,
      {
        token: tokens.root,
      },
    );
    expect(res.status).toBe(200);
    const event = await settled(res.body.eventId);
    expect(event).toMatchObject({
      topic: 'addon.install_from_url',
      status: 'finished',
      summary: { url: `${base}/shot-notes-1.2.0.zip`, addonName: 'shot-notes', addonVersion: '1.2.0' },
    });
    expect(
      (await core.request('GET', '/api/addons/shot-notes/1.2.0/hello', { token: tokens.ann })).status,
    ).toBe(200);
  });

  const installFrom = (url: string) =>
    core.request('POST', `/api/addons/install?url=${encodeURIComponent(url)}`, { token: tokens.root });

  it('fails the event with the reason when the package cannot be fetched, naming no internal address', async () => {
    const missing = await installFrom(`${base}/nothing.zip`);
    expect(await settled(missing.body.eventId)).toMatchObject({
      status: 'failed',
      description: 'Install failed: download failed: the server answered HTTP 404',
    });
    const closed = await installFrom('http://127.0.0.1:9/x.zip');
    expect((await settled(closed.body.eventId)).description).toBe(
      'Install failed: download failed: could not connect to the server',
    );
    // A redirect to another port is not followed, and the event does not tell whether anything answered there.
    const redirected = await installFrom(`${base}/elsewhere.zip`);
    const event = await settled(redirected.body.eventId);
    expect(event.description).toBe(
      'Install failed: download failed: the server redirected to another host or port, which is not followed',
    );
    expect(JSON.stringify(event)).not.toContain(String(internalPort));
    // Nothing of these downloads is left in the staging folder.
    expect(readdirSync(join(dataDir, 'addons', '.staging'))).toEqual([]);
  });

  it.each([
    'file:///etc/passwd',
    'data:application/zip;base64,UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==',
    'ftp://x/y.zip',
  ])('refuses %s with 422 before anything starts', async (url) => {
    const res = await installFrom(url);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { loc: ['query', 'url'], msg: 'must be an http or https URL', type: 'url_scheme' },
    ]);
  });
});

describe('deleting installed versions', () => {
  it('stops the version at once and removes its files; a bundle in use keeps it', async () => {
    await core.db
      .insertInto('bundles')
      .values({
        name: 'stage',
        is_staging: true,
        data: JSON.stringify({ addons: { 'shot-notes': '1.1.0' } }),
      })
      .execute();
    const inUse = await core.request('DELETE', '/api/addons/shot-notes/1.1.0', { token: tokens.root });
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail).toMatch(/the staging bundle stage uses it/);

    expect(
      (await core.request('DELETE', '/api/addons/shot-notes/1.0.0', { token: tokens.root })).status,
    ).toBe(204);
    expect(
      (await core.request('GET', '/api/addons/shot-notes/1.0.0/hello', { token: tokens.ann })).status,
    ).toBe(404);
    expect(existsSync(join(dataDir, 'addons', 'shot-notes', '1.0.0'))).toBe(false);
    expect(Object.keys((await listed('shot-notes')).versions).sort()).toEqual(['1.1.0', '1.2.0']);

    await core.db.deleteFrom('bundles').where('name', '=', 'stage').execute();
    expect((await core.request('DELETE', '/api/addons/shot-notes', { token: tokens.root })).status).toBe(204);
    expect(await listed('shot-notes')).toBeUndefined();
    expect(
      (await core.request('DELETE', '/api/addons/shot-notes/1.1.0', { token: tokens.root })).status,
    ).toBe(404);
    const internal = await core.request('DELETE', '/api/addons/addons', { token: tokens.root });
    expect(internal.status).toBe(409);
  });
});
