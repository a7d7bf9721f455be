import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';
import { FolderTree } from '../src/read/hierarchy.js';
import { HierarchyCache } from '../src/read/hierarchy-cache.js';

// The users addon is the user source; the project is deployed from the built-in anatomy.
let core: TestCore;
let token: string;
const P = '/api/projects/show';

const api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  core.request(method, url, { token, body, headers });
const create = async (plural: string, body: Record<string, unknown>) => {
  const res = await api('POST', `${P}/${plural}`, body);
  if (res.status !== 201) throw new Error(`create ${plural} failed: ${res.status} ${res.text}`);
  return res.body.id as string;
};
const get = async (plural: string, id: string) => (await api('GET', `${P}/${plural}/${id}`)).body;

let assets: string;
let chars: string;
let hero: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['entities', 'users'] });
  token = await seedUser(core, 'boss', { isManager: true });
  expect((await api('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  assets = await create('folders', { name: 'assets', folderType: 'Folder' });
  chars = await create('folders', { name: 'chars', parentId: assets, folderType: 'Asset' });
  hero = await create('folders', { name: 'hero', parentId: chars, folderType: 'Asset' });
});
afterAll(() => core.close());

describe('folders', () => {
  it('are read back as AYON answers them: a field that is null is left out', async () => {
    const root = await get('folders', assets);
    for (const field of ['label', 'parentId', 'thumbnailId']) expect(root).not.toHaveProperty(field);
    expect((await api('PATCH', `${P}/folders/${hero}`, { label: 'Hero' })).status).toBe(204);
    expect((await get('folders', hero)).label).toBe('Hero');
    expect((await api('PATCH', `${P}/folders/${hero}`, { label: null })).status).toBe(204);
    expect(await get('folders', hero)).not.toHaveProperty('label');
  });

  it('take what AYON takes: attribute names nobody defined are dropped, not refused', async () => {
    const res = await api('PATCH', `${P}/folders/${hero}`, { attrib: { frameStart: 1010, nonsense: 'x' } });
    expect(res.status).toBe(204);
    const folder = await get('folders', hero);
    expect(folder.attrib.frameStart).toBe(1010);
    expect(folder.attrib).not.toHaveProperty('nonsense');
    expect(folder.ownAttrib).toEqual(['frameStart']);
    expect((await api('PATCH', `${P}/folders/${hero}`, { attrib: { frameStart: null } })).status).toBe(204);
  });

  it('derive paths, default statuses and inherited attributes', async () => {
    const folder = await get('folders', hero);
    expect(folder).toMatchObject({
      name: 'hero',
      path: '/assets/chars/hero',
      parentId: chars,
      folderType: 'Asset',
      active: true,
      ownAttrib: [],
      createdBy: 'boss',
    });
    const project = (await api('GET', '/api/projects/show')).body;
    const firstFolderStatus = project.statuses.find((s: any) => !s.scope || s.scope.includes('folder')).name;
    expect(folder.status).toBe(firstFolderStatus);
    expect(folder.attrib).toMatchObject({ fps: 25, resolutionWidth: 1920, frameStart: 1001 });
  });

  it('inherit down the tree, with null returning a key to the inherited value', async () => {
    await api('PATCH', `${P}/folders/${assets}`, { attrib: { fps: 24, description: 'all assets' } });
    expect((await get('folders', hero)).attrib.fps).toBe(24);
    expect((await get('folders', hero)).attrib.description).toBeUndefined();
    await api('PATCH', `${P}/folders/${chars}`, { attrib: { fps: 12 } });
    const task = await create('tasks', { name: 'model', folderId: hero });
    expect((await get('tasks', task)).attrib.fps).toBe(12);
    await api('PATCH', `${P}/folders/${chars}`, { attrib: { fps: null } });
    expect((await get('folders', chars)).ownAttrib).toEqual([]);
    expect((await get('tasks', task)).attrib.fps).toBe(24);
  });

  it('follow a project attribute change', async () => {
    await api('PATCH', '/api/projects/show', { attrib: { resolutionWidth: 4096 } });
    expect((await get('folders', hero)).attrib.resolutionWidth).toBe(4096);
  });

  it('refuse a duplicate sibling name in any case, but not in another folder or once deactivated', async () => {
    const dup = await api('POST', `${P}/folders`, { name: 'CHARS', parentId: assets });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(409);
    await create('folders', { name: 'chars', parentId: hero });
    const old = await create('folders', { name: 'props', parentId: assets });
    await api('PATCH', `${P}/folders/${old}`, { active: false });
    await create('folders', { name: 'props', parentId: assets });
  });

  it('accept snake_case fields and client-chosen ids', async () => {
    const id = newId();
    const res = await api('POST', `${P}/folders`, { id, name: 'shots', folder_type: 'Folder' });
    expect(res.body.id).toBe(id);
    const seq = await create('folders', { name: 'sq010', parent_id: id, folder_type: 'Sequence' });
    expect((await get('folders', seq)).path).toBe('/shots/sq010');
  });

  it('answer bad input with 422', async () => {
    const bad = await api('POST', `${P}/folders`, { name: '-x-', label: "it's", status: 'Nope', colour: 1 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.name', 'body.label']),
    );
    const status = await api('POST', `${P}/folders`, { name: 'ok', status: 'Nope' });
    expect(status.status).toBe(422);
    expect(status.body.errors[0]).toMatchObject({ loc: ['data', 'status'], type: 'unknown_status' });
    const type = await api('POST', `${P}/folders`, { name: 'ok', folderType: 'Planet' });
    expect(type.status).toBe(422);
    const attrib = await api('PATCH', `${P}/folders/${hero}`, { attrib: { fps: 'fast' } });
    expect(attrib.status).toBe(422);
    expect(attrib.body.errors[0].loc).toEqual(['data', 'attrib', 'fps']);
    expect((await api('GET', `${P}/folders/nope`)).status).toBe(422);
    expect((await api('GET', `${P}/folders/${newId()}`)).status).toBe(404);
    expect((await api('POST', `${P}/folders`, { name: 'x', parentId: newId() })).status).toBe(404);
  });

  it('take the unbounded values AYON takes: long labels, any type text, files as sent', async () => {
    const label = 'L'.repeat(2000);
    const folder = await create('folders', { name: 'unbounded', label, folderType: 'Shot' });
    expect((await get('folders', folder)).label).toBe(label);
    // A type is any text; one the project does not define, empty or long, is refused as unknown.
    for (const folderType of ['', 'T'.repeat(300)]) {
      const res = await api('PATCH', `${P}/folders/${folder}`, { folderType });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ loc: ['data', 'folderType'], type: 'unknown_type' });
    }
    const task = await create('tasks', {
      name: 'unbounded',
      folderId: folder,
      taskType: 'Compositing',
      assignees: ['', '-odd-', 'a'.repeat(300)],
    });
    expect((await get('tasks', task)).assignees).toEqual(['', '-odd-', 'a'.repeat(300)]);
    const product = await create('products', {
      name: 'unbounded',
      folderId: folder,
      productType: 'p'.repeat(300),
    });
    expect((await get('products', product)).productType).toBe('p'.repeat(300));
    const version = await create('versions', { version: 1, productId: product });
    const files = [
      {
        id: 'i'.repeat(300),
        name: 'n'.repeat(2000),
        path: `/${'p'.repeat(5000)}`,
        size: -1,
        hash: 'h'.repeat(300),
      },
    ];
    const rep = await create('representations', { name: 'unbounded', versionId: version, files });
    expect((await get('representations', rep)).files).toEqual([expect.objectContaining(files[0])]);
    const workfile = await create('workfiles', { path: '', taskId: task });
    expect((await get('workfiles', workfile)).path).toBe('');
  });

  it('still answer writes once the attribute definitions kept in memory are old (PGlite has one connection)', async () => {
    // Definitions are read again after a minute. Project and folder writes use them inside their transactions, and
    // on PGlite a read there waits for the one connection that very transaction holds: it must not wait at all.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now + 10 * 60_000);
    const within = <T>(answer: Promise<T>) =>
      Promise.race([answer, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000))]);
    try {
      expect((await within(api('PATCH', '/api/projects/show', { data: { probe: 1 } })))?.status).toBe(204);
      clock.mockImplementation(() => now + 20 * 60_000);
      expect((await within(api('PATCH', `${P}/folders/${hero}`, { attrib: { fps: 30 } })))?.status).toBe(204);
    } finally {
      clock.mockRestore();
    }
    expect((await get('folders', hero)).attrib.fps).toBe(30);
  });

  it('cannot move under their own descendant', async () => {
    const res = await api('PATCH', `${P}/folders/${assets}`, { parentId: hero });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/cannot move into itself/);
  });
});

describe('publishing', () => {
  let product: string;
  let v1: string;

  it('creates products, versions and representations with derived paths', async () => {
    product = await create('products', { name: 'modelMain', folderId: hero, productType: 'model' });
    v1 = await create('versions', { version: 1, productId: product });
    const repre = await create('representations', {
      name: 'abc',
      versionId: v1,
      files: [
        { name: 'hero.abc', path: '{root[work]}/show/hero.abc', size: 1024, hash: 'abc', hashType: 'md5' },
      ],
    });
    const version = await get('versions', v1);
    // AYON's REST model of a version has no name (GraphQL has it): its path ends with it.
    expect(version).not.toHaveProperty('name');
    expect(version).toMatchObject({
      path: '/assets/chars/hero/modelMain/v001',
      author: 'boss',
      productId: product,
    });
    expect((await get('representations', repre)).path).toBe('/assets/chars/hero/modelMain/v001/abc');
    // A file's id is any string and its name optional, as in AYON's RepresentationFileModel.
    const loose = await create('representations', {
      name: 'usd',
      versionId: v1,
      files: [{ id: 'file-1', path: '{root[work]}/show/hero.usd', size: 1 }],
    });
    expect((await get('representations', loose)).files).toEqual([
      expect.objectContaining({ id: 'file-1', path: '{root[work]}/show/hero.usd', size: 1 }),
    ]);
    expect((await get('folders', hero)).hasVersions).toBe(true);
    expect((await get('folders', assets)).hasVersions).toBe(true);
  });

  it('keeps version numbers unique and allows one hero per product', async () => {
    expect((await api('POST', `${P}/versions`, { version: 1, productId: product })).status).toBe(409);
    const heroVersion = await create('versions', { version: -1, productId: product });
    expect((await get('versions', heroVersion)).path).toBe('/assets/chars/hero/modelMain/HERO');
    expect((await api('POST', `${P}/versions`, { version: -2, productId: product })).status).toBe(409);
  });

  it('locks a folder holding versions against rename and move, unless forced', async () => {
    const locked = await api('PATCH', `${P}/folders/${chars}`, { name: 'characters' });
    expect(locked.status).toBe(409);
    expect(locked.body.detail).toMatch(/holds published versions/);
    expect((await api('PATCH', `${P}/folders/${chars}?force=true`, { name: 'characters' })).status).toBe(204);
    expect((await get('versions', v1)).path).toBe('/assets/characters/hero/modelMain/v001');
    expect((await get('folders', hero)).path).toBe('/assets/characters/hero');
    expect((await api('PATCH', `${P}/folders/${chars}`, { attrib: { fps: 48 } })).status).toBe(204);
  });

  it('refuses to delete a folder with products below it unless forced, which removes them', async () => {
    const res = await api('DELETE', `${P}/folders/${chars}`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/holds 1 product/);
    expect((await api('DELETE', `${P}/folders/${chars}?force=true`)).status).toBe(204);
    expect((await api('GET', `${P}/products/${product}`)).status).toBe(404);
    expect((await api('GET', `${P}/versions/${v1}`)).status).toBe(404);
    expect((await api('GET', `${P}/folders/${hero}`)).status).toBe(404);
  });

  it('deletes versions and representations with their product', async () => {
    const prod = await create('products', { name: 'look', folderId: assets, productType: 'look' });
    const ver = await create('versions', { version: 3, productId: prod });
    const rep = await create('representations', { name: 'ma', versionId: ver });
    expect((await api('DELETE', `${P}/products/${prod}`)).status).toBe(204);
    expect((await api('GET', `${P}/representations/${rep}`)).status).toBe(404);
  });
});

describe('tasks and workfiles', () => {
  it('assigns users by add, remove and set', async () => {
    const shot = await create('folders', { name: 'sh010', folderType: 'Shot' });
    const task = await create('tasks', { name: 'comp', folderId: shot, taskType: 'Compositing' });
    const assign = (users: string[], mode: string) =>
      api('POST', `${P}/tasks/${task}/assign`, { users, mode });
    expect((await assign(['ann', 'bob'], 'add')).status).toBe(204);
    await assign(['bob', 'cy'], 'add');
    await assign(['ann'], 'remove');
    expect((await get('tasks', task)).assignees).toEqual(['bob', 'cy']);
    await assign(['dee'], 'set');
    expect((await get('tasks', task)).assignees).toEqual(['dee']);
    expect((await assign(['x'], 'replace')).status).toBe(422);
    // Any names, as in AYON: nobody is looked up.
    expect((await assign(['', 'x'.repeat(200)], 'set')).status).toBe(204);
    expect((await get('tasks', task)).assignees).toEqual(['', 'x'.repeat(200)]);
    await assign(['dee'], 'set');
    const wf = await create('workfiles', { path: 'work/sh010/comp_v001.nk', taskId: task });
    expect(await get('workfiles', wf)).toMatchObject({ path: 'work/sh010/comp_v001.nk', taskId: task });
    expect(
      (await api('POST', `${P}/workfiles`, { path: 'WORK/sh010/comp_v001.nk', taskId: task })).status,
    ).toBe(409);
    expect(
      (await api('POST', `${P}/tasks`, { name: 'x', folderId: shot, taskType: 'Knitting' })).status,
    ).toBe(422);
  });
});

describe('operations', () => {
  // Events are stored after the answer unless waitForEvents: a test counting events must not see the last one's land.
  const ops = (operations: unknown[], canFail = false) =>
    api('POST', `${P}/operations`, { operations, canFail, waitForEvents: true });

  it('creates a folder and a task inside it in one batch, with events after commit', async () => {
    const folderId = newId();
    const res = await api('POST', `${P}/operations`, {
      waitForEvents: true,
      operations: [
        {
          id: 'op1',
          type: 'create',
          entityType: 'folder',
          entityId: folderId,
          data: { name: 'sh020', folderType: 'Shot' },
        },
        { id: 'op2', type: 'create', entityType: 'task', data: { name: 'anim', folderId } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.operations).toEqual([
      {
        id: 'op1',
        type: 'create',
        entityType: 'folder',
        entityId: folderId,
        success: true,
        status: 201,
        errorCode: null,
        detail: null,
      },
      expect.objectContaining({ id: 'op2', success: true, status: 201 }),
    ]);
    const events = await core.db
      .selectFrom('events')
      .select(['topic', 'summary'])
      .where('project_name', '=', 'show')
      .where('topic', 'like', 'entity.%.created')
      .execute();
    expect(
      events.some((e) => e.topic === 'entity.task.created' && (e.summary as any).parentId === folderId),
    ).toBe(true);
  });

  it('stores events after the answer, in the order they were emitted; waitForEvents waits for them', async () => {
    const id = newId();
    const change = (type: string, data: Record<string, unknown>, waitForEvents = false) =>
      api('POST', `${P}/operations`, {
        operations: [{ type, entityType: 'folder', entityId: id, data }],
        waitForEvents,
      });
    expect((await change('create', { name: 'order_probe', folderType: 'Shot' })).body.success).toBe(true);
    expect((await change('update', { label: 'One' })).body.success).toBe(true);
    // The last batch waits: every event emitted before it is stored by the time it answers.
    expect((await change('update', { tags: ['probe'] }, true)).body.success).toBe(true);
    const stored = await core.db
      .selectFrom('events')
      .select(['topic', 'description'])
      .where(sql<boolean>`summary->>'entityId' = ${id}`)
      .orderBy('creation_order')
      .execute();
    expect(stored).toEqual([
      { topic: 'entity.folder.created', description: 'Folder order_probe created' },
      { topic: 'entity.folder.label_changed', description: 'Folder order_probe label changed' },
      { topic: 'entity.folder.tags_changed', description: 'Folder order_probe tags changed' },
    ]);
  });

  it('stores text beyond ASCII exactly as sent when a batch writes its rows and events together', async () => {
    // Enough operations for one multi-row write of each: accents, CJK, emoji (a surrogate pair), quotes,
    // backslashes and control characters, in labels, nested data and the events' payloads.
    const text = (i: number) => `Séquence ${i} 镜头 🎬 "q" \\ \t\n`;
    const ids = Array.from({ length: 600 }, () => newId());
    const batch = async (operations: unknown[]) => {
      const res = await api('POST', `${P}/operations`, { operations, waitForEvents: true });
      expect(res.body.operations.find((o: any) => !o.success) ?? null).toBeNull();
    };
    await batch(
      ids.map((id, i) => ({
        type: 'create',
        entityType: 'folder',
        entityId: id,
        data: { name: `text_${i}`, label: text(i), folderType: 'Shot', data: { note: { deep: text(i) } } },
      })),
    );
    for (const i of [0, 299, 599]) {
      expect(await get('folders', ids[i])).toMatchObject({
        label: text(i),
        data: { note: { deep: text(i) } },
      });
    }
    await batch(
      ids.map((id, i) => ({
        type: 'update',
        entityType: 'folder',
        entityId: id,
        data: { label: `${text(i)}²` },
      })),
    );
    const events = await core.db
      .selectFrom('events')
      .select('payload')
      .where('topic', '=', 'entity.folder.label_changed')
      .where(sql<boolean>`summary->>'entityId' = ANY(${ids})`)
      .orderBy('creation_order')
      .execute();
    expect(events.map((e) => e.payload)).toEqual(
      ids.map((_, i) => ({ oldValue: text(i), newValue: `${text(i)}²` })),
    );
  });

  it('describes events by what people call the entity: its name, v003 or HERO, a workfile by its file name', async () => {
    const folder = await create('folders', { name: 'describe_probe', folderType: 'Shot' });
    const task = await create('tasks', { name: 'lighting', folderId: folder });
    const product = await create('products', { name: 'renderMain', productType: 'render', folderId: folder });
    const version = await create('versions', { version: 3, productId: product });
    await create('versions', { version: -3, productId: product });
    const workfile = await create('workfiles', {
      path: '{root[work]}/show/sh/lighting_v003.ma',
      taskId: task,
    });
    expect((await api('DELETE', `${P}/versions/${version}`)).status).toBe(204);
    expect(
      (await api('PATCH', `${P}/workfiles/${workfile}`, { path: '{root[work]}/show/sh/lighting_v004.ma' }))
        .status,
    ).toBe(204);
    const events = await core.db
      .selectFrom('events')
      .select('description')
      .where('project_name', '=', 'show')
      .where(sql<boolean>`summary->>'parentId' IN (${folder}, ${product}, ${task})`)
      .orderBy('creation_order')
      .execute();
    expect(events.map((e) => e.description)).toEqual([
      'Task lighting created',
      'Product renderMain created',
      'Version v003 created',
      'Version HERO created',
      'Workfile lighting_v003.ma created',
      'Version v003 deleted',
      'Workfile lighting_v004.ma path changed',
    ]);
  });

  it('answers the first failure as the error of the request itself with raiseOnError, writing nothing', async () => {
    const res = await api('POST', `${P}/operations`, {
      raiseOnError: true,
      operations: ['sh060', 'SH060'].map((name) => ({
        type: 'create',
        entityType: 'folder',
        data: { name, folderType: 'Shot' },
      })),
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/already exists/);
    const names = (await api('GET', `${P}/folders`)).body.folders.map((f: any) => f.name);
    expect(names).not.toContain('sh060');
  });

  it('keeps the old and the new value of a changed field in the stored event payload', async () => {
    const folder = await create('folders', { name: 'payload_probe', folderType: 'Folder', label: 'Before' });
    expect((await api('PATCH', `${P}/folders/${folder}`, { label: 'After' })).status).toBe(204);
    const event = await core.db
      .selectFrom('events')
      .select(['summary', 'payload'])
      .where('topic', '=', 'entity.folder.label_changed')
      .where(sql<boolean>`summary->>'entityId' = ${folder}`)
      .executeTakeFirstOrThrow();
    expect(event.summary).toMatchObject({ entityId: folder, value: 'After' });
    expect(event.payload).toEqual({ oldValue: 'Before', newValue: 'After' });
  });

  it('keeps paths right when a folder is renamed between creating its children in one batch', async () => {
    const [a, b, c] = [newId(), newId(), newId()];
    const res = await ops([
      { type: 'create', entityType: 'folder', entityId: a, data: { name: 'ep09' } },
      { type: 'create', entityType: 'folder', entityId: b, data: { name: 'sq01', parentId: a } },
      { type: 'update', entityType: 'folder', entityId: a, data: { name: 'ep10' } },
      { type: 'create', entityType: 'folder', entityId: c, data: { name: 'sh01', parentId: b } },
    ]);
    expect(res.body.success).toBe(true);
    expect((await get('folders', c)).path).toBe('/ep10/sq01/sh01');
  });

  it('renames a folder and then its child in one batch: the grandchildren follow both', async () => {
    // The rows a batch updates are read together when it starts; the first rename must make the second read again.
    const [a, b, c] = [newId(), newId(), newId()];
    await ops([
      { type: 'create', entityType: 'folder', entityId: a, data: { name: 'ep21' } },
      { type: 'create', entityType: 'folder', entityId: b, data: { name: 'sq01', parentId: a } },
      { type: 'create', entityType: 'folder', entityId: c, data: { name: 'sh01', parentId: b } },
    ]);
    const res = await ops([
      { type: 'update', entityType: 'folder', entityId: a, data: { name: 'ep22' } },
      { type: 'update', entityType: 'folder', entityId: b, data: { name: 'sq02' } },
    ]);
    expect(res.body.success).toBe(true);
    expect((await get('folders', b)).path).toBe('/ep22/sq02');
    expect((await get('folders', c)).path).toBe('/ep22/sq02/sh01');
  });

  it('answers 404 for an update of a folder an earlier delete of the batch took along', async () => {
    const [a, b] = [newId(), newId()];
    await ops([
      { type: 'create', entityType: 'folder', entityId: a, data: { name: 'ep23' } },
      { type: 'create', entityType: 'folder', entityId: b, data: { name: 'sq01', parentId: a } },
    ]);
    const res = await ops([
      { type: 'delete', entityType: 'folder', entityId: a },
      { type: 'update', entityType: 'folder', entityId: b, data: { label: 'gone' } },
    ]);
    expect(res.body.success).toBe(false);
    expect(res.body.operations.at(-1)).toMatchObject({ entityId: b, success: false, status: 404 });
    expect((await get('folders', a)).path).toBe('/ep23');
  });

  it('rolls everything back when one fails and canFail is off, answering 200 with success false', async () => {
    const before = await core.db.selectFrom('events').select('id').execute();
    const res = await ops([
      { type: 'create', entityType: 'folder', data: { name: 'sh030', folderType: 'Shot' } },
      { type: 'update', entityType: 'folder', entityId: newId(), data: { label: 'x' } },
      { type: 'create', entityType: 'folder', data: { name: 'sh040', folderType: 'Shot' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.operations.map((o: any) => [o.success, o.status, o.errorCode])).toEqual([
      [true, 201, null],
      [false, 404, 'not-found'],
    ]);
    const names = (await api('GET', `${P}/folders`)).body.folders.map((f: any) => f.name);
    expect(names).not.toContain('sh030');
    expect((await core.db.selectFrom('events').select('id').execute()).length).toBe(before.length);
  });

  it('pins a refused row of a multi-row write on the operation that sent it', async () => {
    const names = ['sh100', 'sh101', 'SH100', 'sh103'];
    const res = await ops(
      names.map((name) => ({ type: 'create', entityType: 'folder', data: { name, folderType: 'Shot' } })),
    );
    expect(res.body.success).toBe(false);
    expect(res.body.operations.map((o: any) => [o.success, o.status])).toEqual([
      [true, 201],
      [true, 201],
      [false, 409],
    ]);
    expect(res.body.operations[2].errorCode).toBe('unique-violation');
    const folders = (await api('GET', `${P}/folders`)).body.folders.map((f: any) => f.name);
    expect(folders).not.toContain('sh100');
  });

  it('runs a batch of any length, as AYON does', async () => {
    const folder = await create('folders', { name: 'many_tasks', folderType: 'Shot' });
    const operations = Array.from({ length: 10_001 }, (_, i) => ({
      id: `${'op'.repeat(50)}${i}`,
      type: 'create',
      entityType: 'task',
      data: { name: `t${i}`, folderId: folder, taskType: 'Compositing' },
    }));
    const res = await ops(operations);
    expect(res.body.success).toBe(true);
    expect(res.body.operations).toHaveLength(10_001);
    expect(res.body.operations[10_000].id).toBe(`${'op'.repeat(50)}10000`);
    const count = await core.db
      .selectFrom('project_show.tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('folder_id', '=', folder)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10_001);
  });

  it('reports a refused row written in the background before a later operation that fails on its own', async () => {
    // More operations than are buffered before a write: the first write goes on while later operations apply.
    const operations = Array.from({ length: 600 }, (_, i) => ({
      type: 'create',
      entityType: 'folder',
      data: { name: i === 10 ? 'bg_5' : `bg_${i}`, folderType: 'Shot' },
    }));
    operations[550].data.name = 'not a valid name!';
    const res = await ops(operations);
    expect(res.body.success).toBe(false);
    expect(res.body.operations).toHaveLength(11);
    expect(res.body.operations[10]).toMatchObject({
      success: false,
      status: 409,
      errorCode: 'unique-violation',
    });
  });

  it('answers 404 naming the missing parent of a new entity, alone, in a batch or with canFail', async () => {
    const [missingFolder, missingVersion] = [newId(), newId()];
    const folderGone = `Folder ${missingFolder} not found in project show`;
    const single = await api('POST', `${P}/tasks`, { name: 'orphan', folderId: missingFolder });
    expect([single.status, single.body.detail]).toEqual([404, folderGone]);
    const batch = await ops([
      { type: 'create', entityType: 'folder', data: { name: 'parent_probe', folderType: 'Shot' } },
      { type: 'create', entityType: 'task', data: { name: 'a', folderId: missingFolder } },
    ]);
    expect(batch.body.operations[1]).toMatchObject({
      success: false,
      status: 404,
      errorCode: 'not-found',
      detail: folderGone,
    });
    const tolerant = await api('POST', `${P}/operations`, {
      canFail: true,
      operations: [
        {
          type: 'create',
          entityType: 'product',
          data: { name: 'p', productType: 'model', folderId: missingFolder },
        },
        { type: 'create', entityType: 'representation', data: { name: 'abc', versionId: missingVersion } },
      ],
    });
    expect(tolerant.body.operations.map((o: any) => [o.status, o.detail])).toEqual([
      [404, folderGone],
      [404, `Version ${missingVersion} not found in project show`],
    ]);
    const names = (await api('GET', `${P}/folders`)).body.folders.map((f: any) => f.name);
    expect(names).not.toContain('parent_probe');
  });

  it('writes a mixed batch in dependency order: folder, task, product, version on that task', async () => {
    const [folder, task, product] = [newId(), newId(), newId()];
    const res = await ops([
      { type: 'create', entityType: 'folder', entityId: folder, data: { name: 'sh200', folderType: 'Shot' } },
      { type: 'create', entityType: 'task', entityId: task, data: { name: 'light', folderId: folder } },
      {
        type: 'create',
        entityType: 'product',
        entityId: product,
        data: { name: 'render', folderId: folder, productType: 'render' },
      },
      { type: 'create', entityType: 'version', data: { version: 1, productId: product, taskId: task } },
      { type: 'create', entityType: 'task', data: { name: 'comp', folderId: folder } },
    ]);
    expect(res.body.success).toBe(true);
    const version = res.body.operations[3].entityId;
    expect(await get('versions', version)).toMatchObject({ taskId: task, path: '/sh200/render/v001' });
  });

  it('takes folders each followed by their tasks and products, and pins a refusal to the first operation at fault', async () => {
    const folders = Array.from({ length: 40 }, () => newId());
    const created = await ops(
      folders.flatMap((folderId, i) => [
        {
          type: 'create',
          entityType: 'folder',
          entityId: folderId,
          data: { name: `mix${i}`, folderType: 'Shot' },
        },
        { type: 'create', entityType: 'task', data: { name: 'comp', folderId } },
        { type: 'create', entityType: 'product', data: { name: 'plate', productType: 'plate', folderId } },
      ]),
    );
    expect(created.body.success).toBe(true);
    const mixed = (await api('GET', `${P}/folders`)).body.folders.filter((f: any) => /^mix\d+$/.test(f.name));
    expect(mixed.map((f: any) => f.taskNames)).toEqual(folders.map(() => ['comp']));

    // Rows are written table by table (tasks before products), yet the product refused first in operation order
    // is the one reported.
    const folder = newId();
    const refused = await ops([
      {
        type: 'create',
        entityType: 'folder',
        entityId: folder,
        data: { name: 'mix_fail', folderType: 'Shot' },
      },
      {
        type: 'create',
        entityType: 'product',
        data: { name: 'plate', productType: 'plate', folderId: folder },
      },
      {
        type: 'create',
        entityType: 'product',
        data: { name: 'PLATE', productType: 'plate', folderId: folder },
      },
      { type: 'create', entityType: 'task', data: { name: 'comp', folderId: folder } },
      { type: 'create', entityType: 'task', data: { name: 'Comp', folderId: folder } },
    ]);
    expect(refused.body.success).toBe(false);
    expect(refused.body.operations.map((o: any) => [o.entityType, o.status])).toEqual([
      ['folder', 201],
      ['product', 201],
      ['product', 409],
    ]);
    expect((await api('GET', `${P}/folders/${folder}`)).status).toBe(404);

    // Operations apply in order: a task cannot name a folder the batch creates only after it.
    const later = newId();
    const early = await ops([
      { type: 'create', entityType: 'task', data: { name: 'comp', folderId: later } },
      {
        type: 'create',
        entityType: 'folder',
        entityId: later,
        data: { name: 'mix_late', folderType: 'Shot' },
      },
    ]);
    expect(early.body.operations.map((o: any) => [o.success, o.status])).toEqual([[false, 404]]);
    expect((await api('GET', `${P}/folders/${later}`)).status).toBe(404);
  });

  it('commits each operation alone with canFail', async () => {
    const res = await ops(
      [
        { type: 'create', entityType: 'folder', data: { name: 'sh050', folderType: 'Shot' } },
        { type: 'create', entityType: 'folder', data: { name: 'sh050', folderType: 'Shot' } },
        { type: 'create', entityType: 'folder', data: { name: '-bad-' } },
      ],
      true,
    );
    expect(res.body.success).toBe(false);
    expect(res.body.operations.map((o: any) => [o.status, o.errorCode])).toEqual([
      [201, null],
      [409, 'unique-violation'],
      [422, 'invalid-data'],
    ]);
    expect(res.body.operations[2].detail).toMatch(/data.name/);
  });

  it('refuses two changes to one entity and updates without an id with 400', async () => {
    const id = newId();
    const twice = await ops([
      { type: 'update', entityType: 'folder', entityId: id, data: { label: 'a' } },
      { type: 'delete', entityType: 'folder', entityId: id },
    ]);
    expect(twice.status).toBe(400);
    expect((await ops([{ type: 'update', entityType: 'folder', data: {} }])).status).toBe(400);
    expect((await ops([{ type: 'explode', entityType: 'folder' }])).status).toBe(422);
  });
});

describe('project changes reaching entities', () => {
  it('carries a renamed status over to every entity using it', async () => {
    const project = (await api('GET', '/api/projects/show')).body;
    const folder = await create('folders', { name: 'renamed', folderType: 'Folder' });
    const old = (await get('folders', folder)).status;
    const statuses = project.statuses.map((s: any) =>
      s.name === old ? { ...s, name: 'Fresh', original_name: old } : s,
    );
    expect((await api('PATCH', '/api/projects/show', { statuses })).status).toBe(204);
    expect((await get('folders', folder)).status).toBe('Fresh');
    expect(
      (await api('GET', '/api/projects/show')).body.statuses.some((s: any) => 'original_name' in s),
    ).toBe(false);
  });
});

describe('folder list and hierarchy', () => {
  it('lists folders flat, with attributes on request', async () => {
    const list = (await api('GET', `${P}/folders?attrib=true`)).body.folders;
    const shot = list.find((f: any) => f.name === 'sh010');
    expect(shot).toMatchObject({
      path: '/sh010',
      parents: [],
      hasTasks: true,
      taskNames: ['comp'],
      folderType: 'Shot',
    });
    expect(shot.attrib.resolutionWidth).toBe(4096);
    expect(Object.keys(shot).sort()).toEqual(
      [
        'attrib',
        'folderType',
        'hasChildren',
        'hasTasks',
        'id',
        'label',
        'name',
        'ownAttrib',
        'parentId',
        'parents',
        'path',
        'status',
        'tags',
        'taskNames',
        'updatedAt',
      ].sort(),
    );
    // The same instant as reading the folder itself says.
    expect(shot.updatedAt).toBe((await get('folders', shot.id)).updatedAt);
    const seq = list.find((f: any) => f.name === 'sq010');
    expect(seq.parents).toEqual(['shots']);
    expect([seq.hasChildren, shot.hasChildren]).toEqual([expect.any(Boolean), false]);
    expect(list.find((f: any) => f.name === 'shots').hasChildren).toBe(true);
    expect((await api('GET', `${P}/folders`)).body.folders[0].attrib).toBeUndefined();
  });

  it('nests the hierarchy and filters it by search and type, keeping ancestors', async () => {
    const tree = (await api('GET', `${P}/hierarchy`)).body;
    expect(tree.projectName).toBe('show');
    const shots = tree.hierarchy.find((n: any) => n.name === 'shots');
    expect(shots.children.map((c: any) => c.name)).toEqual(['sq010']);
    const shot = tree.hierarchy.find((n: any) => n.name === 'sh010');
    expect(shot).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'sh010',
      label: null,
      status: expect.any(String),
      folderType: 'Shot',
      hasTasks: true,
      taskNames: ['comp'],
      parents: [],
      children: [],
    });
    expect(shots.children[0]).toMatchObject({ parents: ['shots'], hasTasks: false, taskNames: [] });
    const found = (await api('GET', `${P}/hierarchy?types=Sequence`)).body.hierarchy;
    expect(found.map((n: any) => n.name)).toEqual(['shots']);
    const searched = (await api('GET', `${P}/hierarchy?search=sq0`)).body.hierarchy;
    expect(searched.find((n: any) => n.name === 'shots').children.map((c: any) => c.name)).toEqual(['sq010']);
    expect(searched.some((n: any) => n.name === 'assets')).toBe(false);
    expect((await api('GET', '/api/projects/nowhere/hierarchy')).status).toBe(404);
  });

  it('orders hierarchy children and task names byte by byte, the same on every server', async () => {
    const parent = await create('folders', { name: 'order_root', folderType: 'Folder' });
    for (const name of ['b', 'A', 'a1', 'B_2'])
      await create('folders', { name, folderType: 'Shot', parentId: parent });
    for (const name of ['comp', 'Anim', 'layout', 'Zfx']) await create('tasks', { name, folderId: parent });
    const root = (await api('GET', `${P}/hierarchy`)).body.hierarchy.find(
      (n: any) => n.name === 'order_root',
    );
    expect(root.children.map((c: any) => c.name)).toEqual(['A', 'B_2', 'a1', 'b']);
    expect(root.taskNames).toEqual(['Anim', 'Zfx', 'comp', 'layout']);
    const listed = (await api('GET', `${P}/folders`)).body.folders.find((f: any) => f.name === 'order_root');
    expect(listed.taskNames).toEqual(['Anim', 'Zfx', 'comp', 'layout']);
  });

  it('lists each folder with its whole subtree before the next sibling, even names that sort before a slash', async () => {
    const root = await create('folders', { name: 'tree_root', folderType: 'Folder' });
    const x = await create('folders', { name: 'x', folderType: 'Shot', parentId: root });
    await create('folders', { name: 'y', folderType: 'Shot', parentId: x });
    for (const name of ['x-2', 'x.1', 'z'])
      await create('folders', { name, folderType: 'Shot', parentId: root });
    const tree = async () =>
      (await api('GET', `${P}/hierarchy`)).body.hierarchy.find((n: any) => n.name === 'tree_root');
    const shape = (node: any): unknown => [node.name, ...node.children.map(shape)];
    expect(shape(await tree())).toEqual(['tree_root', ['x', ['y']], ['x-2'], ['x.1'], ['z']]);
    expect((await tree()).children[0].children[0].parents).toEqual(['tree_root', 'x']);
    const paths = (await api('GET', `${P}/folders`)).body.folders
      .map((f: any) => f.path)
      .filter((path: string) => path.startsWith('/tree_root'));
    expect(paths).toEqual([
      '/tree_root',
      '/tree_root/x',
      '/tree_root/x/y',
      '/tree_root/x-2',
      '/tree_root/x.1',
      '/tree_root/z',
    ]);
    // An inactive folder takes its subtree out of the tree; its siblings stay where they were.
    expect((await api('PATCH', `${P}/folders/${x}`, { active: false })).status).toBe(204);
    expect(shape(await tree())).toEqual(['tree_root', ['x-2'], ['x.1'], ['z']]);
  });

  it('answers the hierarchy again at once after folders, tasks or the project change (the cached tree is dropped)', async () => {
    const node = async (name: string) => {
      const walk = (nodes: any[]): any =>
        nodes.map((n) => (n.name === name ? n : walk(n.children))).find(Boolean);
      return walk((await api('GET', `${P}/hierarchy`)).body.hierarchy);
    };
    const seq = await node('sq010');
    expect(seq).toBeTruthy();
    const label = 'Séquence "ten" \\ 10';
    expect((await api('PATCH', `${P}/folders/${seq.id}`, { label })).status).toBe(204);
    expect((await node('sq010')).label).toBe(label);
    const task = await api('POST', `${P}/tasks`, { name: 'layout', folderId: seq.id });
    expect(task.status).toBe(201);
    expect((await node('sq010')).taskNames).toContain('layout');
    expect((await api('DELETE', `${P}/tasks/${task.body.id}`)).status).toBe(204);
    expect((await node('sq010')).taskNames).not.toContain('layout');
    const child = await api('POST', `${P}/folders`, { name: 'sh999', folderType: 'Shot', parentId: seq.id });
    expect((await node('sq010')).children.map((c: any) => c.name)).toContain('sh999');
    // Every other field the tree shows: name, status, type, place; and a task's name and folder.
    const current = (await node('sh999')).status;
    const status = (await api('GET', '/api/projects/show')).body.statuses
      .filter((s: any) => !s.scope || s.scope.includes('folder'))
      .map((s: any) => s.name)
      .find((name: string) => name !== current);
    const patch = async (plural: string, id: string, body: unknown) =>
      expect((await api('PATCH', `${P}/${plural}/${id}`, body)).status).toBe(204);
    await patch('folders', child.body.id, { name: 'sh998' });
    expect(await node('sh999')).toBeUndefined();
    await patch('folders', child.body.id, { status, folderType: 'Asset' });
    expect(await node('sh998')).toMatchObject({ status, folderType: 'Asset' });
    await patch('folders', child.body.id, { parentId: assets });
    expect((await node('sh998')).parents).toEqual(['assets']);
    const shotTask = await create('tasks', { name: 'fx', folderId: child.body.id });
    expect((await node('sh998')).taskNames).toEqual(['fx']);
    await patch('tasks', shotTask, { name: 'fx2' });
    expect((await node('sh998')).taskNames).toEqual(['fx2']);
    await patch('tasks', shotTask, { folderId: seq.id });
    expect((await node('sh998')).taskNames).toEqual([]);
    expect((await node('sq010')).taskNames).toContain('fx2');
    await api('DELETE', `${P}/tasks/${shotTask}`);
    expect((await api('DELETE', `${P}/folders/${child.body.id}`)).status).toBe(204);
    expect(await node('sh998')).toBeUndefined();
  });

  it('keeps the tree up to date from the writes of this process, reading it again only after a project change', async () => {
    const hierarchy = async () => (await api('GET', `${P}/hierarchy`)).text;
    const node = async (name: string) => {
      const walk = (nodes: any[]): any =>
        nodes.map((n) => (n.name === name ? n : walk(n.children))).find(Boolean);
      return walk(JSON.parse(await hierarchy()).hierarchy);
    };
    const root = await create('folders', { name: 'live_root', folderType: 'Folder' });
    await hierarchy();
    // A change behind the server's back, without an event: only a read of the database would show it.
    const sneak = (label: string | null) =>
      sql`UPDATE project_show.folders SET label = ${label} WHERE id = ${root}`.execute(core.db);
    await sneak('unseen');
    // Each folder followed by its tasks, as clients send them.
    const [a, b, c, anim] = [newId(), newId(), newId(), newId()];
    const ops = [
      {
        type: 'create',
        entityType: 'folder',
        entityId: a,
        data: { name: 'sh_b', folderType: 'Shot', parentId: root },
      },
      { type: 'create', entityType: 'task', data: { name: 'comp', folderId: a } },
      {
        type: 'create',
        entityType: 'folder',
        entityId: b,
        data: { name: 'sh_a', folderType: 'Shot', parentId: root },
      },
      { type: 'create', entityType: 'task', entityId: anim, data: { name: 'anim', folderId: b } },
      { type: 'create', entityType: 'task', data: { name: 'Layout', folderId: b } },
      {
        type: 'create',
        entityType: 'folder',
        entityId: c,
        data: { name: 'deep', folderType: 'Shot', parentId: b, label: 'Deep' },
      },
    ];
    expect((await api('POST', `${P}/operations`, { operations: ops })).body.success).toBe(true);
    const shape = (n: any): unknown => [n.name, n.taskNames.join('+'), ...n.children.map(shape)];
    expect(shape(await node('live_root'))).toEqual([
      'live_root',
      '',
      ['sh_a', 'Layout+anim', ['deep', '']],
      ['sh_b', 'comp'],
    ]);
    const patch = async (plural: string, id: string, body: unknown) =>
      expect((await api('PATCH', `${P}/${plural}/${id}`, body)).status).toBe(204);
    await patch('folders', a, { name: 'sh_0' });
    await patch('folders', c, { parentId: a, label: 'Moved', folderType: 'Asset' });
    expect(shape(await node('live_root'))).toEqual([
      'live_root',
      '',
      ['sh_0', 'comp', ['deep', '']],
      ['sh_a', 'Layout+anim'],
    ]);
    expect(await node('deep')).toMatchObject({
      label: 'Moved',
      folderType: 'Asset',
      parents: ['live_root', 'sh_0'],
    });
    await patch('tasks', anim, { name: 'zanim', folderId: a });
    expect(shape(await node('live_root'))).toEqual([
      'live_root',
      '',
      ['sh_0', 'comp+zanim', ['deep', '']],
      ['sh_a', 'Layout'],
    ]);
    expect((await api('DELETE', `${P}/tasks/${anim}`)).status).toBe(204);
    expect((await node('sh_0')).taskNames).toEqual(['comp']);
    await patch('folders', a, { active: false });
    expect(shape(await node('live_root'))).toEqual(['live_root', '', ['sh_a', 'Layout']]);
    await patch('folders', a, { active: true });
    expect(shape(await node('deep'))).toEqual(['deep', '']);
    expect((await api('DELETE', `${P}/folders/${a}?force=true`)).status).toBe(204);
    expect(shape(await node('live_root'))).toEqual(['live_root', '', ['sh_a', 'Layout']]);
    expect(await node('deep')).toBeUndefined();
    // Never read again: the change made behind the server's back is not there.
    expect((await node('live_root')).label).toBeNull();
    // A project change has the tree read again: the same tree, to the byte, but for what was changed unseen.
    const kept = await hierarchy();
    const seen = new Promise<void>((resolve) => {
      const stop = core.events.subscribe('entity.project.changed', () => (stop(), resolve()));
    });
    expect((await api('PATCH', '/api/projects/show', { data: { touched: true } })).status).toBe(204);
    await seen;
    const read = await hierarchy();
    expect(read).toContain('"name":"live_root","label":"unseen"');
    expect(read.replace('"label":"unseen"', '"label":null')).toBe(kept);
  });

  it('reads a tree again after a change it cannot place, a project event, or a change during the read', async () => {
    const cache = new HierarchyCache(core.events);
    let reads = 0;
    const read = async () => (reads++, new FolderTree());
    const names = async (project: string) =>
      JSON.parse((await cache.get(project, read)).answer(project).toString()).hierarchy.map(
        (n: any) => n.name,
      );
    const folder = { id: newId(), name: 'a', status: 'Ready', folder_type: 'Shot', parent_id: null };
    // Resolves once the bus has handed the event to its subscribers (the cache subscribed first).
    const emitted = async (topic: string, project: string) => {
      const heard = new Promise<void>((resolve) => {
        const stop = core.events.subscribe(topic, (m) => void (m.project === project && (stop(), resolve())));
      });
      await core.events.emit({ topic, project });
      await heard;
    };
    expect(await names('demo')).toEqual([]);
    cache.committed('demo', [{ type: 'folder', before: null, after: folder }]);
    expect(await names('demo')).toEqual(['a']);
    // Its own entity events came after the commit was applied: nothing to do.
    await emitted('entity.folder.created', 'demo');
    expect([await names('demo'), reads]).toEqual([['a'], 1]);
    // A task the tree does not hold is renamed: it cannot tell what else it missed.
    const ghost = { id: newId(), name: 'ghost', folder_id: folder.id };
    cache.committed('demo', [{ type: 'task', before: ghost, after: { ...ghost, name: 'ghost2' } }]);
    expect([await names('demo'), reads]).toEqual([[], 2]);
    // A folder below one it does not hold (inactive, or whose creation has not reached it yet).
    cache.committed('demo', [
      { type: 'folder', before: null, after: { ...folder, id: newId(), parent_id: newId() } },
    ]);
    await names('demo');
    expect(reads).toBe(3);
    await emitted('entity.project.changed', 'demo');
    await names('demo');
    expect(reads).toBe(4);
    // A read under way while a change commits is not kept.
    let release = () => {};
    const slow = cache.get(
      'demo2',
      () => new Promise((resolve) => (release = () => resolve(new FolderTree()))),
    );
    cache.committed('demo2', [{ type: 'folder', before: null, after: folder }]);
    release();
    await slow;
    await names('demo2');
    expect(reads).toBe(5);
    // A project created here starts empty, without a read; an import into it is applied as it commits.
    await emitted('entity.project.created', 'fresh');
    cache.committed('fresh', [{ type: 'folder', before: null, after: folder }]);
    expect([await names('fresh'), reads]).toEqual([['a'], 5]);
  });
});
