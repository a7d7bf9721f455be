import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { defineAddon } from '@pipewright/sdk';
import { entitiesRef } from '@pipewright/plugin-entities/api';

// One project "show": a small tree with tasks, products, versions (with a hero), representations, workfiles and a
// link; "other" is a project artie cannot see. boss is a manager, artie an artist of "show"; fred reads only
// under "shots" (a fixed folder policy standing in for the access addon, which is tested on its own).
const shotsOnly = defineAddon({
  name: 'shots-only',
  version: '1.0.0',
  title: 'Fred reads shots only (test policy)',
  deps: { entities: entitiesRef },
  setup(ctx, deps) {
    deps.entities.setAccessPolicy({
      folderScope: async (caller, _project, kind) =>
        caller.name === 'fred' && kind === 'read' ? { subtree: ['shots'], below: [], assigned: false } : null,
      attributeAccess: async (caller) => (caller.name === 'fred' ? { read: ['fps'], write: null } : null),
    });
  },
});
let core: TestCore;
let boss: string;
let artie: string;
let fred: string;
const P = '/api/projects/show';
const ids: Record<string, string> = {};

const seed = (name: string, data: Record<string, unknown>) =>
  seedUser(core, name, data, { attrib: { fullName: name.toUpperCase(), email: `${name}@studio.test` } });

async function create(plural: string, body: Record<string, unknown>, project = 'show') {
  const res = await core.request('POST', `/api/projects/${project}/${plural}`, { token: boss, body });
  if (res.status !== 201) throw new Error(`create ${plural}: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** Run a query; fail the test on GraphQL errors unless they are expected. */
async function gql(query: string, variables: Record<string, unknown> = {}, token = boss) {
  const res = await core.request('POST', '/graphql', { token, body: { query, variables } });
  return res;
}
async function data(query: string, variables: Record<string, unknown> = {}, token = boss) {
  const res = await gql(query, variables, token);
  if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Every node of a project connection, paged through with first/after in pages of `size`. */
async function pageAll(field: string, size: number): Promise<any[]> {
  const nodes: any[] = [];
  let after: string | null = null;
  for (;;) {
    const d: any = await data(
      `query($after: String) { project(name: "show") { ${field}(first: ${size}, after: $after) { edges { node { id } cursor } pageInfo { hasNextPage endCursor } } } }`,
      { after },
    );
    const connection = d.project[field];
    nodes.push(...connection.edges.map((e: any) => e.node));
    if (!connection.pageInfo.hasNextPage) return nodes;
    after = connection.pageInfo.endCursor;
  }
}

beforeAll(async () => {
  core = await bootTestCore({
    addons: ['graphql', 'shots-only'],
    extraAddons: [shotsOnly],
  });
  boss = await seed('boss', { isAdmin: true, isManager: true });
  artie = await seed('artie', { accessGroups: { show: ['artist'] } });
  fred = await seed('fred', { accessGroups: { show: ['freelancer'] } });
  for (const name of ['show', 'other']) {
    const res = await core.request('POST', '/api/projects', { token: boss, body: { name, code: name } });
    expect(res.status).toBe(201);
  }
  expect((await core.request('PATCH', P, { token: boss, body: { attrib: { fps: 24 } } })).status).toBe(204);
  ids.assets = await create('folders', { name: 'assets', folderType: 'Folder', attrib: { fps: 50 } });
  ids.tree = await create('folders', { name: 'tree', folderType: 'Asset', parentId: ids.assets });
  ids.rock = await create('folders', {
    name: 'rock',
    folderType: 'Asset',
    parentId: ids.assets,
    tags: ['hero'],
  });
  ids.shots = await create('folders', { name: 'shots', folderType: 'Folder' });
  for (const name of ['sh010', 'sh020', 'sh030'])
    ids[name] = await create('folders', { name, folderType: 'Shot', parentId: ids.shots });
  ids.model = await create('tasks', {
    name: 'modeling',
    taskType: 'Modeling',
    folderId: ids.tree,
    assignees: ['artie'],
  });
  ids.lookdev = await create('tasks', { name: 'lookdev', taskType: 'Lookdev', folderId: ids.tree });
  ids.anim = await create('tasks', { name: 'animation', taskType: 'Animation', folderId: ids.sh010 });
  ids.product = await create('products', { name: 'modelMain', folderId: ids.tree, productType: 'model' });
  ids.v1 = await create('versions', {
    version: 1,
    productId: ids.product,
    taskId: ids.model,
    author: 'artie',
  });
  ids.v2 = await create('versions', {
    version: 2,
    productId: ids.product,
    taskId: ids.model,
    author: 'boss',
  });
  ids.hero = await create('versions', { version: -2, productId: ids.product });
  ids.abc = await create('representations', {
    name: 'abc',
    versionId: ids.v2,
    files: [{ name: 'tree.abc', path: '{root[work]}/tree.abc', size: 10 }],
  });
  ids.usd = await create('representations', { name: 'usd', versionId: ids.v2 });
  ids.workfile = await create('workfiles', { path: 'show/assets/tree/work/tree_v001.ma', taskId: ids.model });
  const types = await core.request('PUT', `${P}/links/types/reference|version|version`, {
    token: boss,
    body: {},
  });
  expect(types.status).toBe(204);
  const link = await core.request('POST', `${P}/links`, {
    token: boss,
    body: { input: ids.v2, output: ids.v1, linkType: 'reference|version|version' },
  });
  expect(link.status).toBe(200);
  ids.link = link.body.id;
  await create('folders', { name: 'elsewhere', folderType: 'Folder' }, 'other');
});

afterAll(async () => {
  await core?.close();
});

describe('access', () => {
  it('answers 401 in the REST error shape without a login, on POST and GET', async () => {
    const post = await core.request('POST', '/graphql', { body: { query: '{ me { name } }' } });
    expect(post.status).toBe(401);
    expect(post.body.detail).toBeTruthy();
    const get = await core.request('GET', `/graphql?query=${encodeURIComponent('{ me { name } }')}`);
    expect(get.status).toBe(401);
  });

  it('answers a query that does not validate with 400 and each problem named', async () => {
    const res = await gql('{ me { name password } project(name: "show") { nothing } }');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.message)).toEqual([
      expect.stringContaining('"password"'),
      expect.stringContaining('"nothing"'),
    ]);
    expect(res.body.errors[0].extensions.status).toBe(400);
  });

  it('answers GET /graphql with a query string for a logged-in user', async () => {
    const res = await core.request(
      'GET',
      `/graphql?query=${encodeURIComponent('{ me { name isManager } }')}`,
      { token: boss },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.me).toEqual({ name: 'boss', isManager: true });
  });

  it('refuses a project the user has no access group for, with status 403 in extensions', async () => {
    const res = await gql('{ project(name: "other") { name } }', {}, artie);
    // project is non-null, as in AYON: the error takes the whole answer with it.
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.status).toBe(403);
    const missing = await gql('{ project(name: "nowhere") { name } }');
    expect(missing.body.errors[0].extensions.status).toBe(404);
  });

  it('lists only the projects the caller can see', async () => {
    const mine = await data('{ projects { edges { node { name } } } }', {}, artie);
    expect(mine.projects.edges.map((e: any) => e.node.name)).toEqual(['show']);
    const all = await data('{ projects { edges { node { name code active library } } } }');
    expect(all.projects.edges.map((e: any) => e.node.name)).toEqual(['other', 'show']);
  });

  it('lists users for a project to non-managers, as AYON does (studio-wide listing is for managers)', async () => {
    const refused = await gql('{ users { edges { node { name } } } }', {}, artie);
    expect(refused.body.errors[0].extensions.status).toBe(403);
    const seen = await data(
      '{ users(projectName: "show") { edges { node { name attrib { fullName email } isManager } } } }',
      {},
      artie,
    );
    const bossNode = seen.users.edges.find((e: any) => e.node.name === 'boss').node;
    expect(bossNode).toEqual({
      name: 'boss',
      attrib: { fullName: 'BOSS', email: 'boss@studio.test' },
      isManager: true,
    });
    const own = await data('{ me { name accessGroups } }', {}, artie);
    expect(JSON.parse(own.me.accessGroups)).toEqual({ show: ['artist'] });
    const byManager = await data('{ user(name: "artie") { accessGroups } }');
    expect(JSON.parse(byManager.user.accessGroups)).toEqual({ show: ['artist'] });
    const nobody = await gql('{ user(name: "ghost") { name } }');
    expect(nobody.body.errors[0].extensions.status).toBe(404);
  });
});

describe('project', () => {
  it('exposes the anatomy lists and typed attributes', async () => {
    const d = await data(`{ project(name: "show") {
      name code attrib { fps resolutionWidth } allAttrib
      taskTypes { name } folderTypes { name } statuses { name state scope } tags { name } linkTypes { name linkType inputType outputType }
      productTypes { name color icon }
    } }`);
    const p = d.project;
    expect(p.attrib).toEqual({ fps: 24, resolutionWidth: 1920 });
    expect(JSON.parse(p.allAttrib).fps).toBe(24);
    expect(p.taskTypes.map((t: any) => t.name)).toContain('Modeling');
    expect(p.folderTypes.map((t: any) => t.name)).toContain('Shot');
    expect(p.statuses.length).toBeGreaterThan(0);
    expect(p.linkTypes).toContainEqual({
      name: 'reference|version|version',
      linkType: 'reference',
      inputType: 'version',
      outputType: 'version',
    });
    expect(p.productTypes).toEqual([expect.objectContaining({ name: 'model' })]);
    const root = await data('{ productTypes { name } }');
    expect(root.productTypes).toEqual([{ name: 'model' }]);
  });

  it('gives folders and tasks inherited attributes, with ownAttrib listing only their own keys', async () => {
    const d = await data(
      `query($id: String!) { project(name: "show") {
      folder(id: $id) { name path attrib { fps } ownAttrib allAttrib parent { name attrib { fps } ownAttrib } }
      task(id: "${ids.model}") { name attrib { fps } ownAttrib folder { name } }
      shots: folder(id: "${ids.shots}") { attrib { fps } }
    } }`,
      { id: ids.tree },
    );
    expect(d.project.folder).toMatchObject({
      name: 'tree',
      path: '/assets/tree',
      attrib: { fps: 50 },
      ownAttrib: [],
      parent: { name: 'assets', attrib: { fps: 50 }, ownAttrib: ['fps'] },
    });
    expect(JSON.parse(d.project.folder.allAttrib).fps).toBe(50);
    expect(d.project.task).toEqual({
      name: 'modeling',
      attrib: { fps: 50 },
      ownAttrib: [],
      folder: { name: 'tree' },
    });
    expect(d.project.shots.attrib.fps).toBe(24);
  });

  it('answers null for an id that does not exist or is not an id', async () => {
    const d = await data(
      '{ project(name: "show") { a: folder(id: "0123456789abcdef0123456789abcdef") { id } b: task(id: "nope") { id } } }',
    );
    expect(d.project).toEqual({ a: null, b: null });
  });
});

describe('connections', () => {
  it('pages forwards with first/after and backwards with last/before over the same nodes', async () => {
    const forward = await pageAll('folders', 2);
    expect(forward.map((n) => n.id)).toEqual([
      ids.assets,
      ids.tree,
      ids.rock,
      ids.shots,
      ids.sh010,
      ids.sh020,
      ids.sh030,
    ]);
    const last = await data(
      '{ project(name: "show") { folders(last: 2) { edges { node { name } cursor } pageInfo { hasNextPage hasPreviousPage startCursor } } } }',
    );
    const page = last.project.folders;
    expect(page.edges.map((e: any) => e.node.name)).toEqual(['sh020', 'sh030']);
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await data(
      'query($before: String) { project(name: "show") { folders(last: 10, before: $before) { edges { node { name } } pageInfo { hasPreviousPage hasNextPage } } } }',
      {
        before: page.pageInfo.startCursor,
      },
    );
    expect(before.project.folders.edges.map((e: any) => e.node.name)).toEqual([
      'assets',
      'tree',
      'rock',
      'shots',
      'sh010',
    ]);
    expect(before.project.folders.pageInfo).toEqual({ hasPreviousPage: false, hasNextPage: true });
  });

  it('answers the has* flags of folders when asked for', async () => {
    const d = await data(
      `{ project(name: "show") { folders(ids: ["${ids.assets}", "${ids.tree}", "${ids.rock}"]) { edges { node { name hasChildren hasTasks hasVersions } } } } }`,
    );
    expect(d.project.folders.edges.map((e: any) => e.node)).toEqual([
      { name: 'assets', hasChildren: true, hasTasks: false, hasVersions: true },
      { name: 'tree', hasChildren: false, hasTasks: true, hasVersions: true },
      { name: 'rock', hasChildren: false, hasTasks: false, hasVersions: false },
    ]);
  });

  it('filters folders by parent ("root" for the top level), path, type, name pattern, tags and a QueryFilter', async () => {
    const names = async (args: string) =>
      (
        await data(`{ project(name: "show") { folders(${args}) { edges { node { name } } } } }`)
      ).project.folders.edges.map((e: any) => e.node.name);
    expect(await names('parentId: "root"')).toEqual(['assets', 'shots']);
    expect(await names(`parentIds: ["${ids.assets}"]`)).toEqual(['tree', 'rock']);
    expect(await names('paths: ["/shots/sh020", "assets/rock"]')).toEqual(['rock', 'sh020']);
    expect(await names('folderTypes: ["Shot"], name: "sh0%0", first: 2')).toEqual(['sh010', 'sh020']);
    expect(await names('tags: ["hero"]')).toEqual(['rock']);
    expect(await names('names: ["TREE", "Rock"]')).toEqual(['tree', 'rock']);
    const filter = JSON.stringify({
      conditions: [
        { key: 'attrib.fps', value: 50 },
        { key: 'folderType', value: 'Asset' },
      ],
      operator: 'and',
    });
    expect(await names(`filter: ${JSON.stringify(filter)}`)).toEqual(['tree', 'rock']);
  });

  it('reports a bad filter or cursor as an error with status 422', async () => {
    const badJson = await gql(
      '{ project(name: "show") { folders(filter: "{nope") { edges { node { id } } } } }',
    );
    expect(badJson.body.errors[0].extensions.status).toBe(422);
    const badKey = await gql(
      `{ project(name: "show") { folders(filter: ${JSON.stringify(JSON.stringify({ conditions: [{ key: 'password', value: 1 }] }))}) { edges { node { id } } } } }`,
    );
    expect(badKey.body.errors[0].extensions).toMatchObject({ status: 422 });
    const badCursor = await gql(
      '{ project(name: "show") { folders(after: "garbage") { edges { node { id } } } } }',
    );
    expect(badCursor.body.errors[0].extensions.status).toBe(422);
    const tooMany = await gql(
      '{ project(name: "show") { folders(first: 100000) { edges { node { id } } } } }',
    );
    expect(tooMany.body.errors[0].extensions.status).toBe(422);
  });

  it('filters tasks by type and assignee, and versions by latest, hero, author and task', async () => {
    const d = await data(`{ project(name: "show") {
      assigned: tasks(assignees: ["artie"]) { edges { node { name } } }
      lookdev: tasks(taskTypes: ["Lookdev"]) { edges { node { name } } }
      latest: versions(latestOnly: true) { edges { node { name version } } }
      hero: versions(heroOnly: true) { edges { node { name } } }
      heroOrLatest: versions(heroOrLatestOnly: true) { edges { node { name } } }
      byArtie: versions(authors: ["artie"]) { edges { node { version } } }
      byTask: versions(taskIds: ["${ids.model}"], versions: [2]) { edges { node { version } } }
    } }`);
    const names = (key: string) => d.project[key].edges.map((e: any) => e.node.name ?? e.node.version);
    expect(names('assigned')).toEqual(['modeling']);
    expect(names('lookdev')).toEqual(['lookdev']);
    expect(d.project.latest.edges.map((e: any) => e.node)).toEqual([{ name: 'v002', version: 2 }]);
    expect(names('hero')).toEqual(['HERO']);
    expect(names('heroOrLatest')).toEqual(['HERO']);
    expect(names('byArtie')).toEqual([1]);
    expect(names('byTask')).toEqual([2]);
  });

  it('nests tasks, products, versions and representations with a limit and hasNextPage per parent', async () => {
    // Pages are named at every level: left at the default of 100 each, this query could answer 5 million
    // representations, far over GRAPHQL_MAX_COST.
    const d = await data(`{ project(name: "show") {
      folders(parentIds: ["${ids.assets}"], first: 10) { edges { node {
      name
      tasks(first: 1) { edges { node { name assignees } } pageInfo { hasNextPage } }
      products(first: 10) { edges { node { name productType productBaseType folder { name }
        versions(first: 5) { edges { node { name author task { name } product { name }
          representations(first: 10) { edges { node { name fileCount files { name size } version { version } } } }
        } } }
      } } }
    } } } } }`);
    const [tree, rock] = d.project.folders.edges.map((e: any) => e.node);
    expect(tree.tasks.edges.map((e: any) => e.node.name)).toEqual(['modeling']);
    expect(tree.tasks.pageInfo.hasNextPage).toBe(true);
    expect(rock.tasks).toEqual({ edges: [], pageInfo: { hasNextPage: false } });
    const product = tree.products.edges[0].node;
    expect(product).toMatchObject({
      name: 'modelMain',
      productType: 'model',
      productBaseType: 'model',
      folder: { name: 'tree' },
    });
    const versions = product.versions.edges.map((e: any) => e.node);
    expect(versions.map((v: any) => v.name)).toEqual(['v001', 'v002', 'HERO']);
    expect(versions[1]).toMatchObject({
      author: 'boss',
      task: { name: 'modeling' },
      product: { name: 'modelMain' },
    });
    expect(versions[2].task).toBeNull();
    expect(versions[1].representations.edges.map((e: any) => e.node)).toEqual([
      { name: 'abc', fileCount: 1, files: [{ name: 'tree.abc', size: '10' }], version: { version: 2 } },
      { name: 'usd', fileCount: 0, files: [], version: { version: 2 } },
    ]);
  });

  it('reads task versions and workfiles, and a workfile back to its task', async () => {
    const d = await data(`{ project(name: "show") {
      task(id: "${ids.model}") { versions { edges { node { version } } } workfiles { edges { node { name path task { name } } } } }
    } }`);
    expect(d.project.task.versions.edges.map((e: any) => e.node.version)).toEqual([1, 2]);
    expect(d.project.task.workfiles.edges[0].node).toEqual({
      name: 'tree_v001.ma',
      path: 'show/assets/tree/work/tree_v001.ma',
      task: { name: 'modeling' },
    });
  });

  it('reads a nested level for many parents in one query, not one per parent (no N+1)', async () => {
    const entities = core.services.get(entitiesRef);
    const original = entities.query;
    let calls = 0;
    entities.query = (...args) => {
      calls += 1;
      return original.apply(entities, args);
    };
    try {
      await data(
        '{ project(name: "show") { folders { edges { node { name parent { name } tasks { edges { node { name folder { name } } } } products { edges { node { name } } } } } } } }',
      );
    } finally {
      entities.query = original;
    }
    // folders, their parents, their tasks, the tasks' folders, their products: five reads for seven folders.
    expect(calls).toBe(5);
  });

  it('shows links on each entity as AYON edges: the link seen from that entity, node the other end', async () => {
    const d = await data(`{ project(name: "show") {
      version(id: "${ids.v2}") { links { edges { id direction entityId entityType linkType author description node { id name ... on VersionNode { version } } } } }
      v1: version(id: "${ids.v1}") { links(direction: "out") { edges { id } } inbound: links(direction: "in", linkTypes: ["reference"]) { edges { entityId } } }
    } }`);
    expect(d.project.version.links.edges).toEqual([
      {
        id: ids.link,
        direction: 'out',
        entityId: ids.v1,
        entityType: 'version',
        linkType: 'reference',
        author: 'boss',
        description: 'reference link with input version and output version',
        node: { id: ids.v1, name: 'v001', version: 1 },
      },
    ]);
    expect(d.project.v1.links.edges).toEqual([]);
    expect(d.project.v1.inbound.edges[0].entityId).toBe(ids.v2);
  });

  it('returns exactly as many nodes per type as the project stats count', async () => {
    const stats = await core.request('GET', `${P}/stats`, { token: boss });
    const plural = {
      folders: 'folders',
      tasks: 'tasks',
      products: 'products',
      versions: 'versions',
      representations: 'representations',
      workfiles: 'workfiles',
    };
    for (const [key, field] of Object.entries(plural)) {
      const nodes = await pageAll(field, 2);
      expect({ [key]: nodes.length }).toEqual({ [key]: stats.body.counts[key] });
      expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
    }
  });
});

describe('folder access', () => {
  it('leaves out rows outside the read scope at every level, without errors', async () => {
    const d = await data(
      `{ project(name: "show") {
        folders { edges { node { name tasks { edges { node { name } } } } } }
        tasks { edges { node { name } } }
        products { edges { node { name } } }
        hidden: folder(id: "${ids.tree}") { name }
      } }`,
      {},
      fred,
    );
    expect(d.project.folders.edges.map((e: any) => e.node.name)).toEqual([
      'shots',
      'sh010',
      'sh020',
      'sh030',
    ]);
    expect(d.project.folders.edges[1].node.tasks.edges.map((e: any) => e.node.name)).toEqual(['animation']);
    expect(d.project.tasks.edges.map((e: any) => e.node.name)).toEqual(['animation']);
    expect(d.project.products.edges).toEqual([]);
    expect(d.project.hidden).toBeNull();
    // Attributes outside the read list are hidden too: typed attrib answers null, allAttrib leaves them out.
    const shot = await data(
      `{ project(name: "show") { folder(id: "${ids.sh010}") { attrib { fps resolutionWidth } allAttrib ownAttrib } } }`,
      {},
      fred,
    );
    expect(shot.project.folder.attrib).toEqual({ fps: 24, resolutionWidth: null });
    expect(Object.keys(JSON.parse(shot.project.folder.allAttrib))).toEqual(['fps']);
  });
});

describe('events and inbox', () => {
  it('lists events by topic; non-managers see only their own', async () => {
    const all = await data(
      '{ events(topics: ["entity.folder.*"], last: 100) { edges { node { topic user project summary } } } }',
    );
    const topics = all.events.edges.map((e: any) => e.node.topic);
    expect(topics.filter((t: string) => t === 'entity.folder.created').length).toBe(8);
    expect(JSON.parse(all.events.edges[0].node.summary)).toHaveProperty('entityId');
    const artieSees = await data('{ events { edges { node { user } } } }', {}, artie);
    expect(artieSees.events.edges.every((e: any) => e.node.user === 'artie')).toBe(true);
    const filter = JSON.stringify({
      conditions: [
        { key: 'topic', value: 'entity.task.created' },
        { key: 'user', value: 'boss' },
      ],
    });
    const filtered = await data(
      `{ events(filter: ${JSON.stringify(filter)}) { edges { node { topic user } } } }`,
    );
    expect(filtered.events.edges.map((e: any) => e.node)).toEqual(
      Array(3).fill({ topic: 'entity.task.created', user: 'boss' }),
    );
    const badFilter = await gql(
      `{ events(filter: ${JSON.stringify(JSON.stringify({ conditions: [{ key: 'secret', value: 1 }] }))}) { edges { node { id } } } }`,
    );
    expect(badFilter.body.errors[0].extensions.status).toBe(422);
    const none = await data(
      '{ events(projects: ["nowhere"]) { edges { node { id } } pageInfo { hasNextPage } } }',
    );
    expect(none.events).toEqual({ edges: [], pageInfo: { hasNextPage: false } });
  });

  it('answers an empty inbox', async () => {
    const d = await data('{ inbox { edges { node { activityId } } pageInfo { hasNextPage } } }', {}, artie);
    expect(d.inbox).toEqual({ edges: [], pageInfo: { hasNextPage: false } });
  });
});

describe('explorer', () => {
  it('serves GraphiQL and its assets from the server itself', async () => {
    const page = await core.request('GET', '/graphiql');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/graphiql/assets/graphiql.js');
    expect(page.text).not.toMatch(/https?:\/\//);
    // Its own policy replaces the pages' one, which would block its inline start script.
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css']) {
      const res = await core.request('GET', `/graphiql/assets/${asset}`);
      expect(res.status).toBe(200);
      expect(res.text.length).toBeGreaterThan(1000);
    }
    expect((await core.request('GET', '/graphiql/assets/other.js')).status).toBe(404);
  });
});
