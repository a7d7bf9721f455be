import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';
import { usersRef } from '@pipewright/plugin-users/api';

let core: TestCore;
let token: string;
const P = '/api/projects/pilot';
const api = (method: string, url: string, body?: unknown) => core.request(method, url, { token, body });

beforeAll(async () => {
  core = await bootTestCore({ addons: ['entities', 'users'] });
  const users = core.services.get(usersRef);
  await core.db
    .transaction()
    .execute(() =>
      users.create({ name: 'boss', password: 'correct horse battery', data: { isManager: true } }),
    );
  token = (
    await core.request('POST', '/api/auth/login', {
      body: { name: 'boss', password: 'correct horse battery' },
    })
  ).body.token;
  expect((await api('POST', '/api/projects', { name: 'pilot', code: 'plt' })).status).toBe(201);
});
afterAll(() => core.close());

async function poll(id: string) {
  for (let i = 0; i < 100; i++) {
    const res = await api('GET', `${P}/operations/background/${id}`);
    if (res.body.status === 'completed') return res.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('background operations did not complete');
}

describe('background operations', () => {
  it('answers at once with an id, then reports completion with the per-operation result', async () => {
    const folderId = newId();
    const operations = [
      {
        type: 'create',
        entityType: 'folder',
        entityId: folderId,
        data: { name: 'ep01', folderType: 'Episode' },
      },
      ...Array.from({ length: 40 }, (_, i) => ({
        type: 'create',
        entityType: 'folder',
        data: { name: `sh${String(i).padStart(3, '0')}`, folderType: 'Shot', parentId: folderId },
      })),
    ];
    const started = await api('POST', `${P}/operations/background`, { operations });
    expect(started.status).toBe(200);
    expect(started.body.id).toMatch(/^[0-9a-f]{32}$/);
    const done = await poll(started.body.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, result: { success: true } });
    expect(done.result.operations).toHaveLength(41);
    expect((await api('GET', `${P}/folders`)).body.folders).toHaveLength(41);
  });

  it('reports a failed batch as completed with success false, and refuses malformed batches at once', async () => {
    const started = await api('POST', `${P}/operations/background`, {
      operations: [{ type: 'delete', entityType: 'task', entityId: newId() }],
    });
    const done = await poll(started.body.id);
    expect(done.result.success).toBe(false);
    expect(done.result.operations[0]).toMatchObject({ status: 404, errorCode: 'not-found' });
    const twice = await api('POST', `${P}/operations/background`, {
      operations: [{ type: 'update', entityType: 'folder', data: {} }],
    });
    expect(twice.status).toBe(400);
    expect((await api('GET', `${P}/operations/background/${newId()}`)).status).toBe(404);
    // Any text names a batch, as in AYON: one that is not an id is not found either.
    expect((await api('GET', `${P}/operations/background/xyz`)).status).toBe(404);
  });
});

describe('project summaries', () => {
  it('counts entities per type and status', async () => {
    const folder = (await api('GET', `${P}/folders`)).body.folders[0].id;
    const product = (
      await api('POST', `${P}/products`, {
        name: 'plate',
        folderId: folder,
        productType: 'plate',
        tags: ['raw'],
      })
    ).body.id;
    await api('POST', `${P}/versions`, { version: 1, productId: product, tags: ['raw', 'client'] });
    await api('POST', `${P}/tasks`, { name: 'comp', folderId: folder });
    const stats = (await api('GET', `${P}/stats`)).body;
    expect(stats.counts).toEqual({
      folders: 41,
      tasks: 1,
      products: 1,
      versions: 1,
      representations: 0,
      workfiles: 0,
    });
    expect(Object.values(stats.statuses.folders as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      41,
    );
  });

  it('lists tags in use per entity type and the product types with their appearance', async () => {
    const tags = (await api('GET', `${P}/tags`)).body;
    expect(tags.products).toEqual(['raw']);
    expect(tags.versions).toEqual(['client', 'raw']);
    expect(tags.folders).toEqual([]);
    const types = (await api('GET', `${P}/productTypes`)).body;
    expect(types.productTypes).toEqual([
      { name: 'plate', baseType: 'plate', color: '#cccccc', icon: 'deployed_code' },
    ]);
    expect((await api('GET', '/api/projects/nowhere/stats')).status).toBe(404);
  });
});
