import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildWorld, commentOk, graph, upload, type World } from './world.js';

// The activity feed in GraphQL: project.activities and the activities of each entity node, as AYON's web app and
// python client query them.
let world: World;
let core: World['core'];
let t: World['tokens'];
let ids: World['ids'];
const comments: Record<string, string> = {};
let file: string;

const NODE = `referenceId referenceType activityId activityType entityType entityId body tags createdAt updatedAt
  creationOrder activityData referenceData active read category
  author { name attrib { fullName } } assignee { name }
  origin { id type subtype name label link } parents { type id name }
  reactions { userName fullName reaction timestamp } files { id name size mime }
  version { id name version product { name } }`;

beforeAll(async () => {
  world = await buildWorld();
  ({ core, tokens: t, ids } = world);
  comments.first = await commentOk(
    world,
    t.bea,
    { type: 'task', id: ids.modeling },
    'First [sh010](folder:' + ids.sh010 + ')',
  );
  file = await upload(world, t.artie, 'ref.txt', 'reference');
  comments.second = await commentOk(
    world,
    t.artie,
    { type: 'task', id: ids.modeling },
    {
      activityType: 'comment',
      body: 'Second',
      tags: ['wip'],
      files: [file],
      data: { category: 'internal' },
    },
  );
  comments.shot = await commentOk(world, t.bea, { type: 'task', id: ids.animation }, 'On the shot');
  await core.request('POST', `/api/projects/demo/activities/${comments.second}/reactions`, {
    token: t.bea,
    body: { reaction: 'heart' },
  });
  await core.request('PATCH', `/api/projects/demo/tasks/${ids.modeling}`, {
    token: t.boss,
    body: { assignees: ['artie', 'bea'] },
  });
  await world.settle();
});
afterAll(() => core?.close());

describe('entity.activities', () => {
  it('lists what concerns an entity, oldest first, with everything a feed shows', async () => {
    const data = await graph(
      world,
      t.bea,
      `query($id: String!) { project(name: "demo") { task(id: $id) { activities { edges { cursor node { ${NODE} } } pageInfo { hasNextPage hasPreviousPage } } } } }`,
      { id: ids.modeling },
    );
    const nodes = data.project.task.activities.edges.map((e: any) => e.node);
    expect(nodes.map((n: any) => `${n.activityType}/${n.referenceType}`)).toEqual([
      'version.publish/relation',
      'comment/origin',
      'watch/origin',
      'comment/origin',
      'watch/origin',
      'assignee.add/origin',
    ]);
    const [publish, first, , second, , added] = nodes;
    expect(first).toMatchObject({
      activityId: comments.first,
      entityType: 'task',
      entityId: ids.modeling,
      author: { name: 'bea', attrib: { fullName: 'Bea Person' } },
      origin: {
        id: ids.modeling,
        type: 'task',
        subtype: 'Modeling',
        name: 'modeling',
        label: null,
        link: `[modeling](task:${ids.modeling})`,
      },
      parents: [{ type: 'folder', id: ids.tree, name: 'tree' }],
      version: null,
      category: null,
      active: true,
    });
    expect(second).toMatchObject({
      tags: ['wip'],
      category: 'internal',
      files: [{ id: file, name: 'ref.txt', size: '9', mime: 'text/plain' }],
      reactions: [{ userName: 'bea', fullName: 'Bea Person', reaction: 'heart' }],
    });
    expect(JSON.parse(second.activityData)).toMatchObject({ author: 'artie' });
    expect(publish.version).toMatchObject({
      id: ids.v1,
      name: 'v001',
      version: 1,
      product: { name: 'modelMain' },
    });
    expect(added).toMatchObject({ assignee: { name: 'bea' }, author: { name: 'boss' } });
  });

  it('filters by activity and reference types, and pages in both directions', async () => {
    const query = `query($id: String!, $first: Int, $after: String, $last: Int, $before: String, $types: [String!], $refs: [String!]) {
      project(name: "demo") { task(id: $id) {
        activities(first: $first, after: $after, last: $last, before: $before, activityTypes: $types, referenceTypes: $refs) {
          edges { cursor node { activityId activityType } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        } } } }`;
    const page = async (variables: Record<string, unknown>) =>
      (await graph(world, t.bea, query, { id: ids.modeling, ...variables })).project.task.activities;
    const commentsOnly = await page({ types: ['comment'] });
    expect(commentsOnly.edges.map((e: any) => e.node.activityId)).toEqual([comments.first, comments.second]);
    const first = await page({ types: ['comment'], first: 1 });
    expect(first.edges.map((e: any) => e.node.activityId)).toEqual([comments.first]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = await page({ types: ['comment'], first: 1, after: first.pageInfo.endCursor });
    expect(next.edges.map((e: any) => e.node.activityId)).toEqual([comments.second]);
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const last = await page({ types: ['comment'], last: 1 });
    expect(last.edges.map((e: any) => e.node.activityId)).toEqual([comments.second]);
    const before = await page({ types: ['comment'], last: 1, before: last.pageInfo.startCursor });
    expect(before.edges.map((e: any) => e.node.activityId)).toEqual([comments.first]);
    const relations = await page({ refs: ['relation'] });
    expect(relations.edges.map((e: any) => e.node.activityType)).toEqual(['version.publish']);
    const mentioned = await graph(
      world,
      t.bea,
      `query($id: String!) { project(name: "demo") { folder(id: $id) { activities(referenceTypes: ["mention"]) { edges { node { activityId } } } } } }`,
      { id: ids.sh010 },
    );
    expect(mentioned.project.folder.activities.edges.map((e: any) => e.node.activityId)).toEqual([
      comments.first,
    ]);
  });

  it('reads the feeds of many entities in one request', async () => {
    const data = await graph(
      world,
      t.root,
      `{ project(name: "demo") { tasks { edges { node { name activities(activityTypes: ["comment"]) { edges { node { body } } } } } } } }`,
    );
    const byTask = Object.fromEntries(
      data.project.tasks.edges.map((e: any) => [
        e.node.name,
        e.node.activities.edges.map((a: any) => a.node.body),
      ]),
    );
    expect(byTask).toEqual({
      modeling: [`First [sh010](folder:${ids.sh010})`, 'Second'],
      lookdev: [],
      animation: ['On the shot'],
    });
  });

  it('answers 422-coded errors for bad cursors and page sizes', async () => {
    const res = await core.request('POST', '/graphql', {
      token: t.bea,
      body: {
        query: `{ project(name: "demo") { tasks { edges { node { activities(after: "bad") { edges { cursor } } } } } } }`,
      },
    });
    expect(res.body.errors[0].extensions.status).toBe(422);
    const big = await core.request('POST', '/graphql', {
      token: t.bea,
      body: { query: `{ project(name: "demo") { activities(first: 100000) { edges { cursor } } } }` },
    });
    expect(big.body.errors[0].extensions.status).toBe(422);
  });
});

describe('project.activities', () => {
  const feed = async (token: string, args: string) =>
    (
      await graph(
        world,
        token,
        `{ project(name: "demo") { activities(${args}) { edges { node { activityId activityType referenceType entityId } } } } }`,
      )
    ).project.activities.edges.map((e: any) => e.node);

  it('lists each activity once (by its origin) unless entities are named', async () => {
    const all = await feed(t.root, 'activityTypes: ["comment"]');
    expect(all.map((n: any) => n.activityId)).toEqual([comments.first, comments.second, comments.shot]);
    expect(all.every((n: any) => n.referenceType === 'origin')).toBe(true);
    const named = await feed(t.root, `entityIds: ["${ids.modeling}"], activityTypes: ["comment"]`);
    expect(named.map((n: any) => n.activityId)).toEqual([comments.first, comments.second]);
    // Named by id, an activity comes with every reference it has (AYON applies no origin default then).
    const byIds = await feed(t.root, `activityIds: ["${comments.shot}"]`);
    expect(new Set(byIds.map((n: any) => n.activityId))).toEqual(new Set([comments.shot]));
    expect(byIds.map((n: any) => n.referenceType)).toContain('origin');
    const tagged = await feed(t.root, 'tags: ["wip"]');
    expect(tagged.map((n: any) => n.activityId)).toEqual([comments.second]);
    const internal = await feed(t.root, 'categories: ["internal"]');
    expect(internal.map((n: any) => n.activityId)).toEqual([comments.second]);
    const users = await feed(
      t.root,
      'entityNames: ["bea"], referenceTypes: ["author"], activityTypes: ["comment"]',
    );
    expect(users.map((n: any) => n.activityId)).toEqual([comments.first, comments.shot]);
    const later = await feed(t.root, `changedAfter: "2100-01-01T00:00:00Z"`);
    expect(later).toEqual([]);
    const typed = await feed(t.root, 'entityType: "version"');
    expect(typed.map((n: any) => n.activityType)).toEqual(['version.publish']);
  });

  it('leaves out activities on entities the caller cannot read', async () => {
    const fred = await feed(t.fred, 'activityTypes: ["comment"]');
    expect(fred.map((n: any) => n.activityId)).toEqual([comments.first, comments.second]);
    const hidden = await graph(
      world,
      t.fred,
      `query($id: String!) { project(name: "demo") { activities(entityIds: [$id]) { edges { node { activityId } } } } }`,
      { id: ids.animation },
    );
    expect(hidden.project.activities.edges).toEqual([]);
  });

  it('is refused outside the project', async () => {
    const res = await core.request('POST', '/graphql', {
      token: t.olga,
      body: { query: `{ project(name: "demo") { activities { edges { cursor } } } }` },
    });
    expect(res.body.errors[0].extensions.status).toBe(403);
  });
});
