import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { bootTestCore, freePort, seedUser, type TestCore } from '@pipewright/core/testing';
import { defineAddon } from '@pipewright/sdk';
import { LICENSES, startCloudStandIn, type CloudStandIn } from './cloud-stand-in.js';

// The market reads the catalogue shipped beside the plugin, or the operator's at DATA_DIR/market/catalogue.json.
// Two addons are "installed" (test addons loaded as installed ones): maya 0.3.4, older than the catalogue's newest,
// and nuke 0.3.1, the newest. The production bundle uses maya 0.3.4 and switches nuke off.
let core: TestCore;
let cloud: CloudStandIn;
let admin: string;
let manager: string;
let artist: string;
const savedCloudUrl = process.env.YNPUT_CLOUD_URL;
const shipped = JSON.parse(
  await readFile(fileURLToPath(new URL('../catalogue.json', import.meta.url)), 'utf8'),
) as { addons: { name: string; versions: { version: string; url: string; checksum: string }[] }[] };
const shippedVersion = (addon: string, version: string) =>
  shipped.addons.find((a) => a.name === addon)!.versions.find((v) => v.version === version)!;

const NOT_CONNECTED =
  'This server is not connected to Ynput Cloud; an administrator can connect it with POST /api/connect';

const installed = (name: string, version: string) => defineAddon({ name, version, title: name });

const operatorFile = () => join(core.config.dataDir, 'market', 'catalogue.json');
let stamp = Math.floor(Date.now() / 1000);
/** Write the operator's catalogue with a modification time of its own, as a replaced file has. */
async function writeOperatorCatalogue(content: unknown) {
  await mkdir(join(core.config.dataDir, 'market'), { recursive: true });
  await writeFile(operatorFile(), typeof content === 'string' ? content : JSON.stringify(content));
  stamp += 10;
  await utimes(operatorFile(), stamp, stamp);
}

const get = (url: string, token = admin) => core.request('GET', url, { token });

beforeAll(async () => {
  cloud = await startCloudStandIn();
  process.env.YNPUT_CLOUD_URL = cloud.url;
  core = await bootTestCore({
    addons: ['market', 'maya', 'nuke'],
    extraAddons: [installed('maya', '0.3.4'), installed('nuke', '0.3.1')],
  });
  admin = await seedUser(core, 'root', { isAdmin: true });
  manager = await seedUser(core, 'boss', { isManager: true });
  artist = await seedUser(core, 'artie', {});
  await sql`
    INSERT INTO bundles (name, is_production, data)
    VALUES ('studio-2025', true, ${JSON.stringify({ addons: { maya: '0.3.4', nuke: null } })}::jsonb)`.execute(
    core.db,
  );
});
afterAll(async () => {
  await core.close();
  await cloud.close();
  if (savedCloudUrl === undefined) delete process.env.YNPUT_CLOUD_URL;
  else process.env.YNPUT_CLOUD_URL = savedCloudUrl;
});
afterEach(async () => {
  process.env.YNPUT_CLOUD_URL = cloud.url;
  cloud.mode = 'normal';
  await rm(operatorFile(), { force: true });
});

describe('who may read the market', () => {
  const routes = [
    '/api/market/addons',
    '/api/market/addons/maya',
    '/api/market/addons/maya/0.4.2',
    '/api/market/licenses',
    '/api/market/releases',
    '/api/market/releases/2025.06-vfx',
  ];

  it('refuses anonymous callers (401)', async () => {
    for (const url of routes) {
      const res = await core.request('GET', url);
      expect([url, res.status, res.body]).toEqual([url, 401, { code: 401, detail: 'Not logged in' }]);
    }
  });

  it('keeps addons and licenses for admins (403 for managers and users)', async () => {
    for (const token of [manager, artist]) {
      for (const url of routes.slice(0, 4)) {
        const res = await get(url, token);
        expect([url, res.status, res.body]).toEqual([url, 403, { code: 403, detail: 'Administrators only' }]);
      }
    }
  });

  it('lets every logged-in user read the releases', async () => {
    expect((await get('/api/market/releases', artist)).status).toBe(200);
    expect((await get('/api/market/releases/2025.06-vfx', artist)).status).toBe(200);
  });
});

describe('addons', () => {
  it('lists the catalogue with what this server installed and runs in production', async () => {
    const res = await get('/api/market/addons');
    expect(res.status).toBe(200);
    expect(res.body.addons.map((a: { name: string }) => a.name)).toEqual([
      'core',
      'maya',
      'nuke',
      'kitsu',
      'flow',
    ]);
    const byName = Object.fromEntries(res.body.addons.map((a: { name: string }) => [a.name, a]));
    expect(byName.maya).toEqual({
      name: 'maya',
      title: 'Maya',
      description: 'Autodesk Maya integration: workfiles, publishing of models, rigs, animation and looks.',
      orgName: 'ynput-official',
      orgTitle: 'Ynput',
      icon: 'https://market.pipewright.invalid/icons/maya.png',
      category: 'dcc-integration',
      tags: ['dcc', '3d'],
      flags: ['official'],
      latestVersion: '0.4.2',
      links: [{ type: 'github', label: 'ynput/ayon-maya', url: 'https://github.com/ynput/ayon-maya' }],
      available: true,
      currentProductionVersion: '0.3.4',
      currentLatestVersion: '0.3.4',
      isOutdated: true,
    });
    expect(byName.nuke).toMatchObject({
      links: null,
      latestVersion: '0.3.1',
      currentLatestVersion: '0.3.1',
      currentProductionVersion: null,
      isOutdated: false,
    });
    // Not installed: available, not out of date.
    expect(byName.kitsu).toMatchObject({ icon: null, currentLatestVersion: null, isOutdated: false });
    // 2.0.0 needs a newer server: the latest version this server can run is 1.2.0.
    expect(byName.core.latestVersion).toBe('1.2.0');
    expect(byName.flow.available).toBe(false);
  });

  it('answers one addon with its versions, newest first, and warns about versions this server cannot run', async () => {
    const core_ = await get('/api/market/addons/core');
    expect(core_.status).toBe(200);
    expect(core_.body).toMatchObject({ name: 'core', latestVersion: '1.2.0', isOutdated: false });
    expect(core_.body.warning).toBe(
      'There are newer versions available, but they are not compatible with this server (version 1.11.3)',
    );
    expect(core_.body.versions).toEqual([
      {
        version: '2.0.0',
        ayonVersion: '>=1.12.0',
        createdAt: '2025-09-02T12:00:00.000Z',
        updatedAt: '2025-09-02T12:00:00.000Z',
        isCompatible: false,
        isInstalled: false,
        isProduction: false,
      },
      {
        version: '1.2.0',
        ayonVersion: '>=1.1.0',
        createdAt: '2025-05-27T09:30:00.000Z',
        updatedAt: '2025-05-28T08:00:00.000Z',
        isCompatible: true,
        isInstalled: false,
        isProduction: false,
      },
      expect.objectContaining({ version: '1.1.2', isCompatible: true }),
    ]);

    const maya = await get('/api/market/addons/maya');
    expect(maya.body.warning).toBeNull();
    expect(
      maya.body.versions.map((v: Record<string, unknown>) => [v.version, v.isInstalled, v.isProduction]),
    ).toEqual([
      ['0.4.2', false, false],
      ['0.3.4', true, true],
    ]);
  });

  it('answers a version with the catalogue URL verbatim, for POST /api/addons/install?url=', async () => {
    const res = await get('/api/market/addons/maya/0.4.2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'maya',
      title: 'Maya',
      version: '0.4.2',
      url: shippedVersion('maya', '0.4.2').url,
      altUrl: null,
      checksum: shippedVersion('maya', '0.4.2').checksum,
      ayonVersion: '>=1.1.0',
      createdAt: '2025-06-02T11:20:00.000Z',
      updatedAt: '2025-06-02T11:20:00.000Z',
      isInstalled: false,
      isProduction: false,
      isCompatible: true,
      currentLatestVersion: '0.3.4',
      currentProductionVersion: '0.3.4',
      latestVersion: '0.4.2',
      isOutdated: true,
    });
    expect(res.body.url).toBe('https://market.pipewright.invalid/addons/maya/maya-0.4.2.zip');

    const current = await get('/api/market/addons/maya/0.3.4');
    expect(current.body).toMatchObject({ isInstalled: true, isProduction: true, isCompatible: true });
  });

  it('gives no URL for a version this server cannot run, nor for an addon not available for download', async () => {
    const tooNew = await get('/api/market/addons/core/2.0.0');
    expect(tooNew.status).toBe(200);
    expect(tooNew.body).toMatchObject({ version: '2.0.0', isCompatible: false, url: null });
    expect(tooNew.body.checksum).toBe(shippedVersion('core', '2.0.0').checksum);
    const unavailable = await get('/api/market/addons/flow/0.6.0');
    expect(unavailable.body).toMatchObject({ available: false, isCompatible: true, url: null });
  });

  it('answers 404 for an addon or a version the catalogue does not have', async () => {
    expect((await get('/api/market/addons/houdini')).body).toEqual({
      code: 404,
      detail: 'Addon houdini is not in the market catalogue',
    });
    const version = await get('/api/market/addons/maya/9.9.9');
    expect(version.status).toBe(404);
    expect(version.body).toEqual({
      code: 404,
      detail: 'Addon maya has no version 9.9.9 in the market catalogue',
    });
  });

  it('answers 404 to names and versions no addon could have', async () => {
    // As AYON: any text is looked up in the catalogue, and one it lacks is not found.
    expect((await get('/api/market/addons/Bad%20Name')).status).toBe(404);
    expect((await get('/api/market/addons/maya/-1')).status).toBe(404);
  });
});

describe('releases', () => {
  it('lists the newest release, newest first', async () => {
    const res = await get('/api/market/releases', artist);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      detail: '',
      releases: [
        {
          name: '2025.06-animation',
          label: 'Animation',
          release: '2025.06',
          description: 'Maya-based 3D animation pipeline tracked in Kitsu.',
          icon: 'animation',
          createdAt: '2025-06-12T09:00:00.000Z',
          mandatoryAddons: ['core'],
          isLatest: true,
          addons: ['core', 'maya', 'kitsu'],
        },
        expect.objectContaining({ name: '2025.06-vfx', isLatest: true, addons: ['core', 'maya', 'nuke'] }),
      ],
    });
  });

  it('lists older releases too with all=true', async () => {
    const res = await get('/api/market/releases?all=true', artist);
    expect(res.body.releases.map((r: Record<string, unknown>) => [r.name, r.isLatest])).toEqual([
      ['2025.06-animation', true],
      ['2025.06-vfx', true],
      ['2025.01-vfx', false],
    ]);
  });

  it('answers a release with the details of its addon versions, installers and dependency packages', async () => {
    const res = await get('/api/market/releases/2025.06-animation', artist);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: '2025.06-animation',
      release: '2025.06',
      mandatoryAddons: ['core'],
    });
    expect(
      res.body.addons.map((a: Record<string, unknown>) => [a.name, a.version, a.url, a.isInstalled]),
    ).toEqual([
      ['core', '1.2.0', shippedVersion('core', '1.2.0').url, false],
      ['maya', '0.4.2', shippedVersion('maya', '0.4.2').url, false],
      ['kitsu', '1.2.5', shippedVersion('kitsu', '1.2.5').url, false],
    ]);
    expect(res.body.installers).toHaveLength(2);
    expect(res.body.installers[0]).toMatchObject({
      version: '1.3.1',
      platform: 'windows',
      checksumAlgorithm: 'sha256',
    });
    expect(res.body.dependencyPackages[0]).toMatchObject({ installerVersion: '1.3.1', platform: 'windows' });

    const vfx = await get('/api/market/releases/2025.01-vfx', artist);
    expect(vfx.body.addons.find((a: { name: string }) => a.name === 'maya')).toMatchObject({
      version: '0.3.4',
      isInstalled: true,
      isProduction: true,
    });
    // A release without installers leaves the field out, as AYON does with empty fields of releases.
    expect(vfx.body).not.toHaveProperty('installers');
  });

  it('answers 404 for an unknown release or a name no release could have, and 422 for bad input', async () => {
    expect((await get('/api/market/releases/1999.01-none', artist)).body).toEqual({
      code: 404,
      detail: 'Release 1999.01-none is not in the market catalogue',
    });
    // As AYON: any text is looked up, and one the catalogue lacks is not found.
    expect((await get('/api/market/releases/.hidden', artist)).status).toBe(404);
    const badAll = await get('/api/market/releases?all=perhaps', artist);
    expect(badAll.status).toBe(422);
    expect(badAll.body.errors).toContainEqual(expect.objectContaining({ loc: ['query', 'all'] }));
  });
});

describe("the operator's catalogue", () => {
  const houdini = (title: string) => ({
    addons: [
      {
        name: 'houdini',
        title,
        versions: [{ version: '0.2.0', url: 'https://addons.studio.example/houdini-0.2.0.zip' }],
      },
    ],
    releases: [
      {
        name: 'studio-1',
        label: 'Studio',
        release: '1',
        createdAt: '2026-03-01T00:00:00Z',
        addons: { houdini: '0.2.0' },
      },
    ],
  });

  it('replaces the shipped one as soon as it is written, and again when it changes, with no restart', async () => {
    await writeOperatorCatalogue(houdini('Houdini'));
    const first = await get('/api/market/addons');
    expect(first.status).toBe(200);
    expect(first.body.addons).toEqual([
      expect.objectContaining({
        name: 'houdini',
        title: 'Houdini',
        latestVersion: '0.2.0',
        tags: [],
        flags: [],
      }),
    ]);
    expect((await get('/api/market/addons/houdini/0.2.0')).body.url).toBe(
      'https://addons.studio.example/houdini-0.2.0.zip',
    );
    expect(
      (await get('/api/market/releases', artist)).body.releases.map((r: { name: string }) => r.name),
    ).toEqual(['studio-1']);

    await writeOperatorCatalogue(houdini('Houdini FX'));
    expect((await get('/api/market/addons')).body.addons[0].title).toBe('Houdini FX');
  });

  it('dates versions without dates from the catalogue file', async () => {
    await writeOperatorCatalogue(houdini('Houdini'));
    const res = await get('/api/market/addons/houdini/0.2.0');
    expect(res.body.createdAt).toBe(new Date(stamp * 1000).toISOString());
    expect(res.body.updatedAt).toBe(res.body.createdAt);
  });

  it('falls back to the shipped catalogue once the operator removes theirs', async () => {
    await writeOperatorCatalogue(houdini('Houdini'));
    expect((await get('/api/market/addons')).body.addons).toHaveLength(1);
    await rm(operatorFile());
    expect((await get('/api/market/addons')).body.addons).toHaveLength(5);
  });

  it('answers 503 saying what is wrong with a catalogue that is not JSON', async () => {
    await writeOperatorCatalogue('{"addons": [');
    for (const url of ['/api/market/addons', '/api/market/addons/maya', '/api/market/releases']) {
      const res = await get(url);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(503);
      expect(res.body.detail).toMatch(
        new RegExp(`^The market catalogue is unusable: ${operatorFile()} is not valid JSON \\(.+\\)$`),
      );
    }
  });

  it('answers 503 listing the problems of a catalogue that breaks the rules, and recovers when fixed', async () => {
    const broken = houdini('Houdini');
    (broken.addons[0].versions[0] as Record<string, unknown>).version = '0.2';
    (broken.addons[0] as Record<string, unknown>).titel = 'typo';
    await writeOperatorCatalogue(broken);
    const res = await get('/api/market/addons');
    expect(res.status).toBe(503);
    expect(res.body.detail).toContain(`${operatorFile()} is malformed: `);
    expect(res.body.detail).toContain("addons.0.titel: unknown field 'titel'");
    expect(res.body.detail).toContain('addons.0.versions.0.version: must match pattern');

    const dangling = houdini('Houdini');
    dangling.releases[0].addons = { houdini: '0.3.0' };
    await writeOperatorCatalogue(dangling);
    expect((await get('/api/market/releases', artist)).body.detail).toBe(
      `The market catalogue is unusable: ${operatorFile()} is malformed: releases.0.addons.houdini: houdini 0.3.0 is not in the catalogue's addons`,
    );

    await writeOperatorCatalogue(houdini('Houdini'));
    expect((await get('/api/market/addons')).status).toBe(200);
  });

  it('answers 503 when the catalogue path is not a file', async () => {
    await mkdir(operatorFile(), { recursive: true });
    try {
      const res = await get('/api/market/addons');
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe(`The market catalogue is unusable: ${operatorFile()} is not a file`);
    } finally {
      await rm(operatorFile(), { recursive: true, force: true });
    }
  });
});

describe('licenses (Ynput Cloud only)', () => {
  it('answers 403 while the server is not connected to the cloud', async () => {
    const res = await get('/api/market/licenses');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, detail: NOT_CONNECTED });
    expect(cloud.received).toHaveLength(0);
  });

  it('reads the licenses from the cloud once connected, and asks it to sync with refresh=true', async () => {
    const connect = await core.request('POST', '/api/connect', {
      token: admin,
      body: { key: 'good-market' },
    });
    expect(connect.body.connected).toBe(true);

    const before = Date.now() / 1000;
    const res = await get('/api/market/licenses');
    expect(res.status).toBe(200);
    expect(res.body.licenses).toEqual(LICENSES);
    expect(res.body.syncedAt).toBeGreaterThanOrEqual(before - 1);
    expect(cloud.received.at(-1)).toEqual({ path: '/api/v1/licenses', query: {}, key: 'good-market' });

    expect((await get('/api/market/licenses?refresh=true')).status).toBe(200);
    expect(cloud.received.at(-1)).toEqual({
      path: '/api/v1/licenses',
      query: { refresh: 'true' },
      key: 'good-market',
    });
  });

  it('answers 422 to a refresh that is not a boolean', async () => {
    const res = await get('/api/market/licenses?refresh=often');
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ loc: ['query', 'refresh'] }));
  });

  it('answers 502 naming the cloud URL when the cloud cannot be reached', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    process.env.YNPUT_CLOUD_URL = url;
    const res = await get('/api/market/licenses');
    expect(res.status).toBe(502);
    expect(res.body.code).toBe(502);
    expect(res.body.detail).toMatch(new RegExp(`^Ynput Cloud at ${url} cannot be reached: .+`));
  });

  it('answers 502 when the cloud answers licenses the market cannot use', async () => {
    cloud.mode = 'odd';
    const res = await get('/api/market/licenses');
    expect(res.status).toBe(502);
    expect(res.body.detail).toBe(
      `Ynput Cloud at ${cloud.url} answered the licenses in an unexpected shape (no list of objects)`,
    );
  });

  it('answers 403 when the cloud refuses the stored key', async () => {
    // Stored while the cloud was out of reach, so never verified; the cloud refuses it once reachable.
    process.env.YNPUT_CLOUD_URL = `http://127.0.0.1:${await freePort()}`;
    const stored = await core.request('POST', '/api/connect', {
      token: admin,
      body: { key: 'mistyped-key' },
    });
    expect(stored.status).toBe(200);
    expect(stored.body.connected).toBe(false);
    process.env.YNPUT_CLOUD_URL = cloud.url;
    const res = await get('/api/market/licenses');
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe(
      `Ynput Cloud at ${cloud.url} refused the key (HTTP 401); an administrator must connect again with a valid key`,
    );
  });
});

describe('the API description', () => {
  it('describes every market and cloud route in /openapi.json', async () => {
    const res = await core.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, { security?: unknown[] }>>;
    for (const path of [
      '/api/market/addons',
      '/api/market/addons/{addon_name}',
      '/api/market/addons/{addon_name}/{addon_version}',
      '/api/market/licenses',
      '/api/market/releases',
      '/api/market/releases/{release_name}',
    ]) {
      expect(Object.keys(paths[path] ?? {})).toEqual(['get']);
    }
    expect(Object.keys(paths['/api/connect']).sort()).toEqual(['delete', 'get', 'post']);
    expect(paths['/api/connect/authorize'].get.security).toEqual([]);
    expect(paths['/api/connect/feedback'].get).toBeDefined();
  });
});
