import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { bootTestCore, installPackage, seedUser, type TestCore } from '@pipewright/core/testing';
import { PACKAGES, packageZip } from './packages.js';

// A server whose Python cannot run (no python3, no pydantic) still starts, lists the AYON packages installed while it
// could, and serves their settings from the schema and defaults saved at install; it says why their actions and
// endpoints are off.

const ADDONS = ['addons', 'settings', 'bundles', 'actions', 'ayon-host', 'users'];
let dataDir: string;
let offline: TestCore;
let token: string;
let savedDefaults: unknown;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pipewright-ayon-offline-'));
  const online = await bootTestCore({ addons: ADDONS, config: { dataDir } });
  const admin = await seedUser(online, 'root', { isAdmin: true });
  const installed = await installPackage(online, admin, packageZip('deadline'));
  if (installed.status !== 'finished') throw new Error(installed.description);
  savedDefaults = (
    await online.request('GET', `/api/addons/deadline/${PACKAGES.deadline}/settings`, { token: admin })
  ).body;
  await online.close();

  offline = await bootTestCore({
    addons: ADDONS,
    config: { dataDir, addonPython: join(dataDir, 'no-such-python3') },
  });
  token = await seedUser(offline, 'root', { isAdmin: true });
}, 120_000);

afterAll(async () => {
  await offline?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('lists the package with its settings and says why its actions and endpoints are off', async () => {
  const res = await offline.request('GET', '/api/addons', { token });
  const deadline = res.body.addons.find((addon: any) => addon.name === 'deadline');
  expect(deadline.versions[PACKAGES.deadline]).toMatchObject({
    hasSettings: true,
    hasSiteSettings: true,
    isBroken: false,
  });
  expect(deadline.description).toMatch(
    /actions and endpoints are off: The AYON addon host stopped .*no-such-python3/,
  );
});

it('serves the settings saved at install, and takes overrides', async () => {
  const url = `/api/addons/deadline/${PACKAGES.deadline}/settings`;
  const settings = await offline.request('GET', url, { token });
  expect(settings.status).toBe(200);
  expect(settings.body).toEqual(savedDefaults);
  const schema = await offline.request('GET', `/api/addons/deadline/${PACKAGES.deadline}/schema`, { token });
  expect(schema.body.title).toBe(`Deadline ${PACKAGES.deadline}`);
  const changed = structuredClone(settings.body);
  changed.deadline_urls[0].value = 'http://farm.example:8082';
  const saved = await offline.request('POST', url, { token, body: changed });
  expect(saved.status).toBe(204);
  expect((await offline.request('GET', url, { token })).body.deadline_urls[0].value).toBe(
    'http://farm.example:8082',
  );
});
