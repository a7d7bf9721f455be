import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// AYON's connection arguments and node fields, each read through real data: a project "show" with two trees,
// tasks with assignees and tags, a product with versions, a workfile, a link and an entity list.
let core: TestCore;
let boss: string;
let artie: string;
const P = '/api/projects/show';
const ids: Record<string, string> = {};

async function create(plural: string, body: Record<string, unknown>) {
  const res = await core.request('POST', `${P}/${plural}`, { token: boss, body });
  if (res.status !== 201) throw new Error(`create ${plural}: ${res.status} ${res.text}`);
  return res.body.id as string;
}

async function gql(query: string, variables: Record<string, unknown> = {}, token = boss) {
  return core.request('POST', '/graphql', { token, body: { query, variables } });
}
async function data(query: string, variables: Record<string, unknown> = {}, token = boss) {
  const res = await gql(query, variables, token);
  if (res.status !== 200 || res.body.errors) throw new Error(`GraphQL failed: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Names (or versions) of a project connection read with these arguments. */
async function names(field: string, args: string, token = boss): Promise<unknown[]> {
  const d = await data(
    `{ project(name: "show") { ${field}(${args}) { edges { node { name } } } } }`,
    {},
    token,
  );
  return d.project[field].edges.map((e: any) => e.node.name);
}

beforeAll(async () => {
  core = await bootTestCore({ addons: ['graphql', 'lists'] });
  boss = await seedUser(core, 'boss', { isAdmin: true, isManager: true });
  artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  expect(
    (await core.request('POST', '/api/projects', { token: boss, body: { name: 'show', code: 'sh' } })).status,
  ).toBe(201);
  const patch = await core.request('PATCH', P, {
    token: boss,
    body: { data: { bundle: { production: 'Prod-1' } } },
  });
  expect(patch.status).toBe(204);
  ids.assets = await create('folders', { name: 'assets', folderType: 'Folder' });
  ids.tree = await create('folders', {
    name: 'tree',
    label: 'Oak Tree',
    folderType: 'Asset',
    parentId: ids.assets,
    attrib: { fps: 30 },
  });
  ids.rock = await create('folders', {
    name: 'rock',
    folderType: 'Asset',
    parentId: ids.assets,
    tags: ['hero'],
  });
  ids.shots = await create('folders', { name: 'shots', folderType: 'Folder' });
  ids.sh010 = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.shots });
  ids.model = await create('tasks', {
    name: 'modeling',
    taskType: 'Modeling',
    folderId: ids.tree,
    assignees: ['artie', 'boss'],
    tags: ['urgent'],
  });
  ids.lookdev = await create('tasks', {
    name: 'lookdev',
    taskType: 'Lookdev',
    folderId: ids.tree,
    assignees: ['boss'],
    attrib: { priority: 'high', endDate: '2030-01-01T00:00:00+00:00' },
  });
  ids.anim = await create('tasks', { name: 'animation', taskType: 'Animation', folderId: ids.sh010 });
  ids.product = await create('products', { name: 'modelMain', folderId: ids.tree, productType: 'model' });
  ids.rockProduct = await create('products', { name: 'ModelRock', folderId: ids.rock, productType: 'model' });
  ids.v1 = await create('versions', { version: 1, productId: ids.product, taskId: ids.model });
  ids.v2 = await create('versions', {
    version: 2,
    productId: ids.product,
    taskId: ids.model,
    thumbnailId: '0123456789abcdef0123456789abcdef',
    data: { thumbnailInfo: { sourceEntityType: 'version', relation: 'self' } },
  });
  ids.abc = await create('representations', {
    name: 'abc',
    versionId: ids.v2,
    data: { context: { representation: 'abc' } },
    files: [
      {
        id: 'f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1',
        name: 'tree.abc',
        path: '/work/tree.abc',
        size: 5_000_000_000,
      },
    ],
  });
  ids.workfile = await create('workfiles', { path: 'show/assets/tree/work/tree_v001.ma', taskId: ids.model });
  expect(
    (await core.request('PUT', `${P}/links/types/reference|version|version`, { token: boss, body: {} }))
      .status,
  ).toBe(204);
  const link = await core.request('POST', `${P}/links`, {
    token: boss,
    body: { input: ids.v2, output: ids.v1, linkType: 'reference|version|version', name: 'ref-main' },
  });
  expect(link.status).toBe(200);
  const list = await core.request('POST', `${P}/lists`, {
    token: boss,
    body: {
      label: 'Dailies',
      entityType: 'version',
      items: [{ entityId: ids.v2, attrib: { fps: 12 } }, { entityId: ids.v1 }],
    },
  });
  expect(list.status).toBe(201);
  ids.list = list.body.id;
});

afterAll(async () => {
  await core?.close();
});

describe('ProjectNode', () => {
  it('answers data, bundle, dates, used tags and the type lists limited to what is used', async () => {
    const d = await data(`{ project(name: "show") {
      data bundle { production staging } createdAt updatedAt usedTags thumbnail { id }
      allTaskTypes: taskTypes { name } taskTypes(activeOnly: true) { name }
      folderTypes(activeOnly: true) { name } linkTypes(activeOnly: true) { name style }
      productTypes { name icon color }
    } }`);
    const p = d.project;
    expect(JSON.parse(p.data).bundle).toEqual({ production: 'Prod-1' });
    expect(p.bundle).toEqual({ production: 'Prod-1', staging: null });
    expect(Date.parse(p.createdAt)).not.toBeNaN();
    expect(p.usedTags).toEqual(['hero', 'urgent']);
    expect(p.thumbnail).toBeNull();
    expect(p.allTaskTypes.length).toBeGreaterThan(3);
    expect(p.taskTypes.map((t: any) => t.name).sort()).toEqual(['Animation', 'Lookdev', 'Modeling']);
    expect(p.folderTypes.map((t: any) => t.name).sort()).toEqual(['Asset', 'Folder', 'Shot']);
    expect(p.linkTypes).toEqual([{ name: 'reference|version|version', style: 'solid' }]);
    expect(p.productTypes).toEqual([{ name: 'model', icon: expect.any(String), color: expect.any(String) }]);
  });

  it('finds a project by code, and lists projects by name pattern', async () => {
    const d = await data(
      '{ project(code: "SH") { name } projects(name: "sh%") { edges { node { name } } } }',
    );
    expect(d.project.name).toBe('show');
    expect(d.projects.edges.map((e: any) => e.node.name)).toEqual(['show']);
  });
});

describe('connection arguments', () => {
  it('searches names, labels, types and paths word by word', async () => {
    expect(await names('folders', 'search: "oak"')).toEqual(['tree']);
    expect(await names('folders', 'search: "assets r"')).toEqual(['tree', 'rock']);
    expect(await names('tasks', 'search: "tree look"')).toEqual(['lookdev']);
    expect(await names('products', 'search: "rock"')).toEqual(['ModelRock']);
    const versions = await data(
      '{ project(name: "show") { versions(search: "modelmain v2") { edges { node { version } } } } }',
    );
    expect(versions.project.versions.edges.map((e: any) => e.node.version)).toEqual([2]);
    expect(await names('workfiles', 'search: "tree_v001"')).toEqual(['tree_v001.ma']);
  });

  it('sorts by a column, by path and by an attribute, and pages through the sorted order', async () => {
    expect(await names('folders', 'sortBy: "name"')).toEqual(['assets', 'rock', 'sh010', 'shots', 'tree']);
    expect(await names('tasks', 'sortBy: "path", last: 3')).toEqual(['lookdev', 'modeling', 'animation']);
    expect(await names('folders', 'sortBy: "attrib.fps", last: 1')).toEqual(['tree']);
    const first = await data(
      '{ project(name: "show") { folders(sortBy: "name", first: 2) { edges { cursor } pageInfo { endCursor } } } }',
    );
    const rest = await data(
      'query($after: String) { project(name: "show") { folders(sortBy: "name", after: $after) { edges { node { name } } } } }',
      { after: first.project.folders.pageInfo.endCursor },
    );
    expect(rest.project.folders.edges.map((e: any) => e.node.name)).toEqual(['sh010', 'shots', 'tree']);
    const bad = await gql('{ project(name: "show") { folders(sortBy: "size") { edges { node { id } } } } }');
    expect(bad.body.errors[0].extensions.status).toBe(422);
  });

  it('filters by attribute values and by links', async () => {
    expect(await names('folders', 'attributes: [{ name: "fps", values: ["30"] }]')).toEqual(['tree']);
    expect(await names('tasks', 'attributes: [{ name: "fps", values: ["30"] }]')).toEqual([
      'modeling',
      'lookdev',
    ]);
    const linked = async (mode: string) =>
      (
        await data(`{ project(name: "show") { versions(hasLinks: ${mode}) { edges { node { version } } } } }`)
      ).project.versions.edges.map((e: any) => e.node.version);
    expect(await linked('OUT')).toEqual([2]);
    expect(await linked('IN')).toEqual([1]);
    expect(await linked('ANY')).toEqual([1, 2]);
    expect(await linked('BOTH')).toEqual([]);
    expect(await names('folders', 'hasLinks: NONE, parentId: "root"')).toEqual(['assets', 'shots']);
  });

  it('matches regular expressions and names regardless of case on products and paths', async () => {
    expect(await names('products', 'nameEx: "^model"')).toEqual(['modelMain']);
    expect(await names('products', 'namesCi: ["MODELROCK"]')).toEqual(['ModelRock']);
    expect(await names('products', 'pathEx: "^/assets/r"')).toEqual(['ModelRock']);
    expect(await names('folders', 'pathEx: "^/assets/"')).toEqual(['tree', 'rock']);
    expect(await names('workfiles', 'pathEx: "tree_v0+1"')).toEqual(['tree_v001.ma']);
    const bad = await gql('{ project(name: "show") { products(nameEx: "(") { edges { node { id } } } } }');
    expect(bad.body.errors[0].extensions.status).toBe(422);
  });

  it('filters tasks by all or any assignees and tags, and folders by their tasks and children', async () => {
    expect(await names('tasks', 'assignees: ["artie", "boss"]')).toEqual(['modeling']);
    expect(await names('tasks', 'assignees: []')).toEqual(['animation']);
    expect(await names('tasks', 'assigneesAny: ["artie", "boss"]')).toEqual(['modeling', 'lookdev']);
    expect(await names('tasks', 'tags: []')).toEqual(['lookdev', 'animation']);
    expect(await names('tasks', 'tagsAny: []')).toEqual(['modeling']);
    expect(await names('tasks', `folderIds: ["${ids.assets}"], includeFolderChildren: true`)).toEqual([
      'modeling',
      'lookdev',
    ]);
    expect(await names('tasks', `folderIds: ["${ids.assets}"]`)).toEqual([]);
    expect(await names('folders', 'assignees: ["artie"]')).toEqual(['tree']);
    expect(await names('folders', 'hasChildren: true')).toEqual(['assets', 'shots']);
    expect(await names('folders', 'hasProducts: true')).toEqual(['tree', 'rock']);
    expect(await names('folders', 'hasTasks: false, hasChildren: false')).toEqual(['rock']);
    const v = await data('{ project(name: "show") { versions(version: 2) { edges { node { version } } } } }');
    expect(v.project.versions.edges.map((e: any) => e.node.version)).toEqual([2]);
  });
});

describe('entity nodes', () => {
  it('answers counts, type, parents, thumbnails, version lists and representation context', async () => {
    const d = await data(`{ project(name: "show") {
      folder(id: "${ids.assets}") { type childCount productCount taskCount hasChildren hasProducts hasTasks parents hasReviewables data }
      tree: folder(id: "${ids.tree}") { productCount taskCount hasProducts parents }
      task(id: "${ids.model}") { type parents path }
      product(id: "${ids.product}") { type parents versionList { id version name } latestVersion { version } }
      version(id: "${ids.v2}") { parents thumbnail { id sourceEntityType sourceEntityId relation } createdAt }
      representation(id: "${ids.abc}") { parents context files { id size hashType } }
      workfile(id: "${ids.workfile}") { parents }
    } }`);
    const p = d.project;
    expect(p.folder).toEqual({
      type: 'Folder',
      childCount: 2,
      productCount: 0,
      taskCount: 0,
      hasChildren: true,
      hasProducts: false,
      hasTasks: false,
      parents: [],
      hasReviewables: false,
      data: null,
    });
    expect(p.tree).toEqual({ productCount: 1, taskCount: 2, hasProducts: true, parents: ['assets'] });
    expect(p.task).toEqual({ type: 'Modeling', parents: ['assets', 'tree'], path: '/assets/tree/modeling' });
    expect(p.product).toEqual({
      type: 'model',
      parents: ['assets', 'tree'],
      versionList: [
        { id: ids.v1, version: 1, name: 'v001' },
        { id: ids.v2, version: 2, name: 'v002' },
      ],
      latestVersion: { version: 2 },
    });
    expect(p.version.parents).toEqual(['assets', 'tree', 'modelMain']);
    expect(p.version.thumbnail).toEqual({
      id: '0123456789abcdef0123456789abcdef',
      sourceEntityType: 'version',
      sourceEntityId: null,
      relation: 'self',
    });
    expect(p.representation).toEqual({
      parents: ['assets', 'tree', 'modelMain', 'v002'],
      context: JSON.stringify({ representation: 'abc' }),
      files: [{ id: 'f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1', size: '5000000000', hashType: 'md5' }],
    });
    expect(p.workfile.parents).toEqual(['assets', 'tree', 'modeling']);
  });

  it('reads any entity through BaseNode fragments', async () => {
    const d = await data(`{ project(name: "show") { version(id: "${ids.v2}") {
      links { edges { name node { __typename projectName id name parents ... on VersionNode { version } } } }
    } } }`);
    expect(d.project.version.links.edges).toEqual([
      {
        name: 'ref-main',
        node: {
          __typename: 'VersionNode',
          projectName: 'show',
          id: ids.v1,
          name: 'v001',
          parents: ['assets', 'tree', 'modelMain'],
          version: 1,
        },
      },
    ]);
  });
});

describe('entity lists and kanban', () => {
  it('lists entity lists with their items and the listed entities', async () => {
    const d = await data(`{ project(name: "show") {
      entityLists(sortBy: "label") { edges { node { id label entityType count owner } } }
      entityList(id: "${ids.list}") {
        items(sortBy: "position") { edges { position entityId folderPath ownAttrib allAttrib node { ... on VersionNode { version } } } }
        filtered: items(filter: ${JSON.stringify(JSON.stringify({ conditions: [{ key: 'position', value: 1 }] }))}) { edges { entityId } }
      }
    } }`);
    expect(d.project.entityLists.edges.map((e: any) => e.node)).toEqual([
      { id: ids.list, label: 'Dailies', entityType: 'version', count: 2, owner: 'boss' },
    ]);
    const items = d.project.entityList.items.edges;
    expect(items.map((e: any) => [e.position, e.node.version, e.folderPath])).toEqual([
      [0, 2, 'assets/tree'],
      [1, 1, 'assets/tree'],
    ]);
    expect(items[0].ownAttrib).toEqual(['fps']);
    expect(JSON.parse(items[0].allAttrib).fps).toBe(12);
    expect(d.project.entityList.filtered.edges).toEqual([{ entityId: ids.v1 }]);
  });

  it('shows the kanban board: everyone for managers, their own tasks for others', async () => {
    const all = await data(
      '{ kanban { edges { node { projectName projectCode name folderName folderPath priority dueDate hasReviewables lastVersionWithThumbnailId } } } }',
    );
    const cards = all.kanban.edges.map((e: any) => e.node);
    expect(cards.map((c: any) => c.name)).toEqual(['lookdev', 'animation', 'modeling']);
    expect(cards[0]).toMatchObject({
      projectName: 'show',
      projectCode: 'sh',
      name: 'lookdev',
      folderName: 'tree',
      folderPath: 'assets/tree',
      priority: 'high',
      hasReviewables: false,
    });
    expect(cards.find((c: any) => c.name === 'modeling').lastVersionWithThumbnailId).toBe(ids.v2);
    const mine = await data('{ kanban { edges { node { name } } } }', {}, artie);
    expect(mine.kanban.edges.map((e: any) => e.node.name)).toEqual(['modeling']);
  });
});
