import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';

// One published asset (four versions, two representations each), tasks with workfiles and a shot, in project
// "res"; a second project "other" is the only one the artist may see.
let core: TestCore;
let token: string;
let artist: string;
const P = '/api/projects/res';

const api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  core.request(method, url, { token, body, headers });
const create = async (plural: string, body: Record<string, unknown>, project = P) => {
  const res = await api('POST', `${project}/${plural}`, body);
  if (res.status !== 201) throw new Error(`create ${plural} failed: ${res.status} ${res.text}`);
  return res.body.id as string;
};
const resolve = async (
  uris: string[],
  options: { resolveRoots?: boolean; pathOnly?: boolean; headers?: Record<string, string>; as?: string } = {},
) => {
  const url = `/api/resolve${options.pathOnly ? '?pathOnly=true' : ''}`;
  const res = await core.request('POST', url, {
    token: options.as ?? token,
    body: { uris, resolveRoots: options.resolveRoots ?? false },
    headers: options.headers,
  });
  expect(res.status).toBe(200);
  return res.body as { uri: string; entities: Record<string, any>[]; error: string | null }[];
};
const one = async (uri: string, options?: Parameters<typeof resolve>[1]) =>
  (await resolve([uri], options))[0];

const ids: Record<string, string> = {};
const versions: Record<string, string> = {};
const abc: Record<string, string> = {};

beforeAll(async () => {
  core = await bootTestCore({ addons: ['entities', 'users'] });
  token = await seedUser(core, 'boss', { isManager: true });
  artist = await seedUser(core, 'artie', { accessGroups: { other: ['artist'] } });
  expect((await api('POST', '/api/projects', { name: 'res', code: 'res' })).status).toBe(201);
  expect((await api('POST', '/api/projects', { name: 'other', code: 'oth' })).status).toBe(201);

  ids.assets = await create('folders', { name: 'assets', folderType: 'Folder' });
  ids.chars = await create('folders', { name: 'chars', parentId: ids.assets, folderType: 'Asset' });
  ids.hero = await create('folders', { name: 'hero', parentId: ids.chars, folderType: 'Asset' });
  ids.shot = await create('folders', { name: 'sh010', folderType: 'Shot' });
  ids.model = await create('products', { name: 'modelMain', folderId: ids.hero, productType: 'model' });
  ids.look = await create('products', { name: 'lookMain', folderId: ids.hero, productType: 'look' });
  ids.shotModel = await create('products', { name: 'modelMain', folderId: ids.shot, productType: 'model' });
  for (const [label, number, status] of [
    ['v1', 1, 'Approved'],
    ['v2', 2, 'In progress'],
    ['v3', 3, undefined],
    ['hero', -1, 'Approved'],
  ] as const) {
    versions[label] = await create('versions', {
      version: number,
      productId: ids.model,
      ...(status ? { status } : {}),
    });
    const context = {
      project: { name: 'res', code: 'res' },
      folder: { name: 'hero' },
      product: { name: 'modelMain' },
      version: number,
      ext: 'abc',
    };
    abc[label] = await create('representations', {
      name: 'abc',
      versionId: versions[label],
      attrib: {
        template:
          '{root[work]}/{project[name]}/{folder[name]}/{product[name]}/v{version:0>3}/hero<_{output}>.{ext}',
      },
      data: { context },
      files: [{ name: 'hero.abc', path: '/ignored/when/template/is/set.abc', size: 1 }],
    });
    await create('representations', {
      name: 'ma',
      versionId: versions[label],
      files: [{ name: 'hero.ma', path: `{root[work]}/res/hero/v${number}/hero.ma`, size: 1 }],
    });
  }
  ids.lookV1 = await create('versions', { version: 1, productId: ids.look });
  ids.lookAbc = await create('representations', { name: 'abc', versionId: ids.lookV1 });
  ids.shotV1 = await create('versions', { version: 1, productId: ids.shotModel });
  ids.shotAbc = await create('representations', { name: 'abc', versionId: ids.shotV1 });

  ids.modeling = await create('tasks', {
    name: 'modeling',
    folderId: ids.hero,
    taskType: 'Modeling',
    tags: ['urgent'],
    assignees: ['ann', 'bob'],
  });
  ids.rigging = await create('tasks', {
    name: 'rigging',
    folderId: ids.hero,
    taskType: 'Rigging',
    assignees: ['cy'],
  });
  ids.comp = await create('tasks', {
    name: 'comp',
    folderId: ids.shot,
    taskType: 'Compositing',
    label: 'Final comp',
  });
  ids.wf1 = await create('workfiles', { path: 'work/hero/model_v001.ma', taskId: ids.modeling });
  ids.wf2 = await create('workfiles', { path: 'work/hero/model_v002.ma', taskId: ids.modeling });
});
afterAll(() => core.close());

describe('POST /api/projects/{p}/uris', () => {
  it('writes a URI per known id, in the order asked, versions as v003 or hero', async () => {
    const res = await api('POST', `${P}/uris`, {
      entityType: 'version',
      ids: [versions.v3, newId(), versions.hero],
    });
    expect(res.status).toBe(200);
    expect(res.body.uris).toEqual([
      { id: versions.v3, uri: 'ayon+entity://res/assets/chars/hero?product=modelMain&version=v003' },
      { id: versions.hero, uri: 'ayon+entity://res/assets/chars/hero?product=modelMain&version=hero' },
    ]);
    const repre = await api('POST', `${P}/uris`, { entity_type: 'representation', ids: [abc.v1] });
    expect(repre.body.uris[0].uri).toBe(
      'ayon+entity://res/assets/chars/hero?product=modelMain&version=v001&representation=abc',
    );
    const wf = await api('POST', `${P}/uris`, { entityType: 'workfile', ids: [ids.wf2] });
    expect(wf.body.uris[0].uri).toBe(
      'ayon+entity://res/assets/chars/hero?task=modeling&workfile=model_v002.ma',
    );
    expect((await api('POST', `${P}/uris`, { entityType: 'folder', ids: [] })).body.uris).toEqual([]);
  });

  it('takes any number of ids, past what one statement may bind one by one (65,535)', async () => {
    const many = [...Array.from({ length: 70_000 }, () => newId()), ids.hero];
    const res = await api('POST', `${P}/uris`, { entityType: 'folder', ids: many });
    expect(res.status).toBe(200);
    expect(res.body.uris).toEqual([{ id: ids.hero, uri: 'ayon+entity://res/assets/chars/hero' }]);
  });

  it('answers bad input with 422 and unknown projects with 404', async () => {
    expect((await api('POST', `${P}/uris`, { entityType: 'project', ids: [] })).status).toBe(422);
    expect((await api('POST', `${P}/uris`, { entityType: 'folder', ids: ['nope'] })).status).toBe(422);
    expect((await api('POST', '/api/projects/nowhere/uris', { entityType: 'folder', ids: [] })).status).toBe(
      404,
    );
  });

  it('round-trips through resolve for every entity type', async () => {
    const cases: [string, string, string][] = [
      ['folder', ids.hero, 'folderId'],
      ['product', ids.model, 'productId'],
      ['version', versions.v2, 'versionId'],
      ['version', versions.hero, 'versionId'],
      ['representation', abc.v3, 'representationId'],
      ['task', ids.comp, 'taskId'],
      ['workfile', ids.wf1, 'workfileId'],
    ];
    for (const [entityType, id, field] of cases) {
      const { uri } = (await api('POST', `${P}/uris`, { entityType, ids: [id] })).body.uris[0];
      const resolved = await one(uri);
      expect(resolved.error).toBeNull();
      expect(resolved.entities).toHaveLength(1);
      expect(resolved.entities[0]).toMatchObject({ projectName: 'res', target: entityType, [field]: id });
    }
  });
});

describe('POST /api/resolve', () => {
  const base = 'ayon+entity://res/assets/chars/hero';

  it('names every id down to the target and leaves the rest null', async () => {
    const { entities } = await one(`${base}?product=modelMain&version=v001&representation=abc`);
    expect(entities).toEqual([
      {
        projectName: 'res',
        folderId: ids.hero,
        productId: ids.model,
        versionId: versions.v1,
        representationId: abc.v1,
        taskId: null,
        workfileId: null,
        filePath: '{root[work]}/res/hero/modelMain/v001/hero.abc',
        target: 'representation',
      },
    ]);
    const task = await one(`${base}?task=modeling`);
    expect(task.entities).toEqual([
      expect.objectContaining({
        folderId: ids.hero,
        taskId: ids.modeling,
        productId: null,
        workfileId: null,
        filePath: null,
        target: 'task',
      }),
    ]);
  });

  it('reads every version form', async () => {
    const versionOf = async (word: string) =>
      (await one(`${base}?product=modelMain&version=${word}`)).entities.map((e) => e.versionId);
    expect(await versionOf('v002')).toEqual([versions.v2]);
    expect(await versionOf('V002')).toEqual([versions.v2]);
    expect(await versionOf('002')).toEqual([versions.v2]);
    expect(await versionOf('2')).toEqual([versions.v2]);
    expect(await versionOf('latest')).toEqual([versions.v3]);
    expect(await versionOf('latestdone')).toEqual([versions.v1]);
    expect(await versionOf('hero')).toEqual([versions.hero]);
    expect(await versionOf('HERO')).toEqual([versions.hero]);
    expect(await versionOf('v009')).toEqual([]);
    const bad = await one(`${base}?product=modelMain&version=newest`);
    expect(bad.error).toMatch(/Invalid version/);
    expect(bad.entities).toEqual([]);
  });

  it('takes latest per product, not over the whole project', async () => {
    const latest = await one('ayon+entity://res/*?product=modelMain&version=latest');
    expect(latest.entities.map((e) => e.versionId).sort()).toEqual([versions.v3, ids.shotV1].sort());
  });

  it('expands a * wildcard at the deepest level', async () => {
    const all = await one(`${base}?product=modelMain&version=*`);
    expect(all.entities.map((e) => e.versionId)).toEqual([
      versions.hero,
      versions.v1,
      versions.v2,
      versions.v3,
    ]);
    const repres = await one(`${base}?product=modelMain&version=v001&representation=*`);
    expect(repres.entities.map((e) => e.target)).toEqual(['representation', 'representation']);
    const tasks = await one(`${base}?task=*`);
    expect(tasks.entities.map((e) => e.taskId)).toEqual([ids.modeling, ids.rigging]);
    const workfiles = await one(`${base}?task=modeling&workfile=*`);
    expect(workfiles.entities.map((e) => e.workfileId)).toEqual([ids.wf1, ids.wf2]);
    const everywhere = await one('ayon://res/*?product=modelMain');
    expect(everywhere.entities.map((e) => e.productId).sort()).toEqual([ids.model, ids.shotModel].sort());
  });

  it('treats levels left out as wildcards', async () => {
    // product + representation: that representation in every version of the product.
    const inEveryVersion = await one(`${base}?product=modelMain&representation=abc`);
    expect(inEveryVersion.entities.map((e) => e.representationId).sort()).toEqual(Object.values(abc).sort());
    // version alone: that version of every product of the folder.
    const v1s = await one(`${base}?version=v001`);
    expect(v1s.entities.map((e) => e.versionId).sort()).toEqual([versions.v1, ids.lookV1].sort());
    // a workfile without a task: found in whichever task holds it.
    const wf = await one(`${base}?workfile=model_v002.ma`);
    expect(wf.entities.map((e) => [e.taskId, e.workfileId])).toEqual([[ids.modeling, ids.wf2]]);
    // nothing below the project names no entity.
    expect((await one('ayon+entity://res')).entities).toEqual([]);
  });

  it('refuses to mix the product and task groups, and bad names, per URI', async () => {
    const answers = await resolve([
      `${base}?product=modelMain&task=modeling`,
      `${base}?workfile=x.ma&representation=abc`,
      'ayon+entity://res/assets/*/hero',
      'ayon+entity://res/assets/bad name',
      'https://res/assets',
      'ayon+entity://bad-project!/x',
      `${base}?product=modelMain`,
    ]);
    expect(answers[0].error).toMatch(/cannot be queried with products/);
    expect(answers[1].error).toMatch(/cannot be queried with representations/);
    expect(answers[2].error).toMatch(/Invalid path element: \*/);
    expect(answers[3].error).toMatch(/Invalid path element/);
    expect(answers[4].error).toMatch(/Invalid URI/);
    expect(answers[5].error).toMatch(/Invalid/);
    expect(answers.slice(0, 6).every((a) => a.entities.length === 0)).toBe(true);
    expect(answers[6]).toMatchObject({
      error: null,
      entities: [expect.objectContaining({ productId: ids.model })],
    });
  });

  it('accepts the ayon:// alias and drops a USD :SDF_FORMAT_ARGS suffix', async () => {
    const short = await one('ayon://res/assets/chars/hero?product=modelMain&version=v001&representation=abc');
    expect(short.entities.map((e) => e.representationId)).toEqual([abc.v1]);
    const usd = await one(
      `${base}?product=modelMain&version=v001&representation=abc:SDF_FORMAT_ARGS:variant=a`,
    );
    expect(usd.uri).toBe(
      `${base}?product=modelMain&version=v001&representation=abc:SDF_FORMAT_ARGS:variant=a`,
    );
    expect(usd.entities.map((e) => e.representationId)).toEqual([abc.v1]);
    // Project names are matched without regard to letter case; the answer names the project as stored.
    expect((await one('ayon://RES/assets/chars/hero')).entities[0].projectName).toBe('res');
  });

  it('fills roots from the project for the platform, overridden by the site', async () => {
    const uri = `${base}?product=modelMain&version=v002&representation=abc`;
    expect((await one(uri)).entities[0].filePath).toBe('{root[work]}/res/hero/modelMain/v002/hero.abc');
    expect((await one(uri, { resolveRoots: true })).entities[0].filePath).toBe(
      '/mnt/projects/res/hero/modelMain/v002/hero.abc',
    );
    expect(
      (await one(uri, { resolveRoots: true, headers: { 'x-ayon-platform': 'windows' } })).entities[0]
        .filePath,
    ).toBe('C:\\projects\\res\\hero\\modelMain\\v002\\hero.abc');
    expect((await api('PUT', `${P}/roots/studio-b`, { work: '/srv/b/' })).status).toBe(204);
    const site = await one(uri, { resolveRoots: true, headers: { 'x-ayon-site-id': 'studio-b' } });
    expect(site.entities[0].filePath).toBe('/srv/b/res/hero/modelMain/v002/hero.abc');
    // Another site keeps the project's roots.
    expect(
      (await one(uri, { resolveRoots: true, headers: { 'x-ayon-site-id': 'studio-c' } })).entities[0]
        .filePath,
    ).toMatch(/^\/mnt\/projects\//);
    // Without a template the first file's path is used.
    const ma = await one(`${base}?product=modelMain&version=v003&representation=ma`, {
      resolveRoots: true,
      headers: { 'x-ayon-site-id': 'studio-b' },
    });
    expect(ma.entities[0].filePath).toBe('/srv/b/res/hero/v3/hero.ma');
  });

  it('answers only file paths with pathOnly', async () => {
    const answer = await one(`${base}?product=modelMain&version=latest&representation=*`, {
      pathOnly: true,
      resolveRoots: true,
    });
    expect(answer.entities).toEqual([
      { filePath: '/mnt/projects/res/hero/modelMain/v003/hero.abc' },
      { filePath: '/mnt/projects/res/hero/v3/hero.ma' },
    ]);
  });

  it('reports a project the caller cannot see as an error of that URI only', async () => {
    const answers = await resolve(
      ['ayon+entity://res/assets', 'ayon+entity://other', 'ayon+entity://missing/x'],
      { as: artist },
    );
    expect(answers[0]).toEqual({
      uri: 'ayon+entity://res/assets',
      entities: [],
      error: 'Project res not found or not accessible',
    });
    expect(answers[1]).toEqual({ uri: 'ayon+entity://other', entities: [], error: null });
    expect(answers[2].error).toBe('Project missing not found or not accessible');
    expect((await core.request('POST', '/api/resolve', { body: { uris: [] } })).status).toBe(401);
  });

  it('answers a malformed body with 422', async () => {
    const noUris = await api('POST', '/api/resolve', { resolveRoots: true });
    expect(noUris.status).toBe(422);
    expect(noUris.body.errors[0].loc).toEqual(['body', 'uris']);
    expect((await api('POST', '/api/resolve', { uris: 'ayon://res' })).status).toBe(422);
    expect((await api('POST', '/api/resolve?pathOnly=maybe', { uris: [] })).status).toBe(422);
  });
});

describe('POST /api/projects/{p}/tasksFolders', () => {
  const folders = async (body: Record<string, unknown>) => {
    const res = await api('POST', `${P}/tasksFolders`, body);
    expect(res.status).toBe(200);
    return (res.body.folderIds as string[]).sort();
  };

  it('lists folders whose tasks match the filter and the search', async () => {
    expect(await folders({})).toEqual([ids.hero, ids.shot].sort());
    expect(await folders({ filter: { conditions: [{ key: 'taskType', value: 'Compositing' }] } })).toEqual([
      ids.shot,
    ]);
    expect(
      await folders({ filter: { conditions: [{ key: 'tags', value: 'urgent', operator: 'includes' }] } }),
    ).toEqual([ids.hero]);
    expect(
      await folders({
        filter: { conditions: [{ key: 'assignees', value: ['cy', 'dee'], operator: 'includesany' }] },
      }),
    ).toEqual([ids.hero]);
    expect(
      await folders({
        filter: { conditions: [{ key: 'assignees', value: ['ann', 'bob'], operator: 'excludesall' }] },
      }),
    ).toEqual([ids.hero, ids.shot].sort());
    expect(await folders({ search: 'final' })).toEqual([ids.shot]);
    expect(await folders({ search: '100%' })).toEqual([]);
    expect(
      await folders({ filter: { conditions: [{ key: 'attrib.fps', value: 25 }] }, search: 'rig' }),
    ).toEqual([ids.hero]);
  });

  it('answers an unknown key with 422 at its place in the filter', async () => {
    const res = await api('POST', `${P}/tasksFolders`, {
      filter: { conditions: [{ conditions: [{ key: 'colour', value: 'red' }] }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['body', 'filter', 'conditions', 0, 'conditions', 0, 'key']);
  });
});

describe('POST /api/projects/{p}/repreContextFilter', () => {
  const filter = async (body: Record<string, unknown>) => {
    const res = await api('POST', `${P}/repreContextFilter`, body);
    expect(res.status).toBe(200);
    expect(res.body.ids).toEqual(res.body.representations.map((r: any) => r.id));
    return res.body;
  };

  it('filters by names, versions and context values', async () => {
    expect((await filter({ names: ['abc'], versionIds: [versions.v1, versions.v2] })).ids.sort()).toEqual(
      [abc.v1, abc.v2].sort(),
    );
    const byContext = await filter({ context: { 'folder.name': ['hero'], version: ['3', '-1'] } });
    expect(byContext.ids.sort()).toEqual([abc.v3, abc.hero].sort());
    expect(byContext.representations[0]).toMatchObject({
      name: 'abc',
      path: expect.stringMatching(/^\/assets\/chars\/hero\/modelMain\//),
    });
    // AYON clients send a list of {key, values} whose values are regular expressions.
    const ayon = await filter({
      version_ids: [versions.v1],
      context: [{ key: 'product.name', values: ['^model'] }],
    });
    expect(ayon.ids).toEqual([abc.v1]);
    expect((await filter({ names: ['nothing'] })).ids).toEqual([]);
  });

  it('takes lists of any length and names of any length, as AYON does', async () => {
    const versionIds = [...Array.from({ length: 70_000 }, () => newId()), versions.v1];
    const names = [...Array.from({ length: 70_000 }, (_, i) => `n${i}`), 'x'.repeat(1000), 'abc'];
    expect((await filter({ names, versionIds })).ids).toEqual([abc.v1]);
  });

  it('answers a bad key or pattern with 422', async () => {
    expect((await api('POST', `${P}/repreContextFilter`, { context: { 'a b': ['x'] } })).status).toBe(422);
    expect(
      (
        await api('POST', `${P}/repreContextFilter`, {
          context: [{ key: 'folder.name', values: ['(unclosed'] }],
        })
      ).status,
    ).toBe(422);
  });
});
