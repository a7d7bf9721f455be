import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { defineAddon } from '@pipewright/sdk';
import { entitiesRef } from '@pipewright/plugin-entities/api';

// A link is only as visible as its two ends: hidy may read the folder "seen" but not "hidden" (a fixed policy
// standing in for the access addon).
const policy = defineAddon({
  name: 'seen-only',
  version: '1.0.0',
  title: 'hidy reads "seen" only (test policy)',
  deps: { entities: entitiesRef },
  setup(ctx, deps) {
    deps.entities.setAccessPolicy({
      folderScope: async (caller, _project, kind) =>
        caller.name === 'hidy' && kind === 'read' ? { subtree: ['seen'], below: [], assigned: false } : null,
      attributeAccess: async () => null,
    });
  },
});

let core: TestCore;
const tokens: Record<string, string> = {};
const P = '/api/projects/show';

beforeAll(async () => {
  core = await bootTestCore({
    addons: ['links', 'users', 'seen-only'],
    extraAddons: [policy],
  });
  for (const [name, data] of Object.entries({
    boss: { isManager: true },
    hidy: { accessGroups: { show: ['artist'] } },
  })) {
    tokens[name] = await seedUser(core, name, data);
  }
  const boss = (method: string, url: string, body?: unknown) =>
    core.request(method, url, { token: tokens.boss, body });
  expect((await boss('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  expect((await boss('PUT', `${P}/links/types/uses|folder|folder`, {})).status).toBe(204);
});
afterAll(() => core?.close());

it('answers a link with an end the caller may not read as missing, and refuses linking to it', async () => {
  const boss = (method: string, url: string, body?: unknown) =>
    core.request(method, url, { token: tokens.boss, body });
  const hidy = (method: string, url: string, body?: unknown) =>
    core.request(method, url, { token: tokens.hidy, body });
  const seen = (await boss('POST', `${P}/folders`, { name: 'seen', folderType: 'Folder' })).body.id;
  const also = (await boss('POST', `${P}/folders`, { name: 'also', folderType: 'Folder', parentId: seen }))
    .body.id;
  const hidden = (await boss('POST', `${P}/folders`, { name: 'hidden', folderType: 'Folder' })).body.id;
  const visible = (
    await boss('POST', `${P}/links`, { input: seen, output: also, linkType: 'uses|folder|folder' })
  ).body.id;
  const secret = (
    await boss('POST', `${P}/links`, { input: seen, output: hidden, linkType: 'uses|folder|folder' })
  ).body.id;
  expect((await hidy('GET', `${P}/links/${visible}`)).status).toBe(200);
  const res = await hidy('GET', `${P}/links/${secret}`);
  expect(res.status).toBe(404);
  expect((await boss('GET', `${P}/links/${secret}`)).status).toBe(200);
  expect(
    (await hidy('POST', `${P}/links`, { input: also, output: hidden, linkType: 'uses|folder|folder' }))
      .status,
  ).toBe(404);
});
