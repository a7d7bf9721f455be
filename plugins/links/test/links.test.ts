import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';
import { linksRef } from '../src/api.js';

// The users addon is the user source. "show" is deployed from the default anatomy minus its link types, so the
// link types the tests use are made through the routes; "empty" is created bare with PUT.
let core: TestCore;
let boss: string;
let artie: string;
let bob: string;
let eve: string;
const P = '/api/projects/show';

const as = (token: string | undefined) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });
const create = async (plural: string, body: Record<string, unknown>) => {
  const res = await as(boss)('POST', `${P}/${plural}`, body);
  if (res.status !== 201) throw new Error(`create ${plural} failed: ${res.status} ${res.text}`);
  return res.body.id as string;
};
const link = async (token: string, body: Record<string, unknown>) => {
  const res = await as(token)('POST', `${P}/links`, body);
  if (res.status !== 200) throw new Error(`link failed: ${res.status} ${res.text}`);
  return res.body.id as string;
};
const types = async (project = 'show') =>
  (await as(boss)('GET', `/api/projects/${project}/links/types`)).body.types as any[];
const events = (topic: string) =>
  core.db.selectFrom('events').selectAll().where('topic', '=', topic).orderBy('creation_order').execute();

let shot: string;
let tree: string;
let rock: string;
let version: string;
let otherVersion: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['links', 'users'] });
  boss = await seedUser(core, 'boss', { isManager: true });
  artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  bob = await seedUser(core, 'bob', { accessGroups: { show: ['artist'] } });
  eve = await seedUser(core, 'eve', { accessGroups: { elsewhere: ['artist'] } });
  expect(
    (await as(boss)('POST', '/api/projects', { name: 'show', code: 'sh', anatomy: { link_types: [] } }))
      .status,
  ).toBe(201);
  shot = await create('folders', { name: 'sh010', folderType: 'Shot' });
  tree = await create('folders', { name: 'tree', folderType: 'Asset' });
  rock = await create('folders', { name: 'rock', folderType: 'Asset' });
  const product = await create('products', { name: 'modelMain', folderId: tree, productType: 'model' });
  version = await create('versions', { version: 1, productId: product });
  otherVersion = await create('versions', { version: 2, productId: product });
});
afterAll(() => core.close());

describe('link types', () => {
  it('a project created with PUT has none; one deployed from an anatomy has what the anatomy names', async () => {
    expect((await as(boss)('PUT', '/api/projects/empty', {})).status).toBe(201);
    expect(await types('empty')).toEqual([]);
    expect(await types('show')).toEqual([]);
    expect((await as(boss)('POST', '/api/projects', { name: 'film', code: 'flm' })).status).toBe(201);
    expect((await types('film')).map((t) => t.name)).toEqual(
      expect.arrayContaining(['breakdown|folder|folder']),
    );
  });

  it('are created with PUT, drawn solid grey unless told otherwise, and updated in place', async () => {
    const res = await as(boss)('PUT', `${P}/links/types/breakdown|folder|folder`, {
      data: { color: '#ff0000' },
    });
    expect(res.status).toBe(204);
    expect((await as(boss)('PUT', `${P}/links/types/reference%7Cversion%7Cversion`)).status).toBe(204);
    expect((await as(boss)('PUT', `${P}/links/types/uses|folder|version`, {})).status).toBe(204);
    expect(await types()).toEqual([
      {
        name: 'breakdown|folder|folder',
        linkType: 'breakdown',
        inputType: 'folder',
        outputType: 'folder',
        data: { color: '#ff0000', style: 'solid' },
      },
      {
        name: 'reference|version|version',
        linkType: 'reference',
        inputType: 'version',
        outputType: 'version',
        data: { color: '#9e9e9e', style: 'solid' },
      },
      {
        name: 'uses|folder|version',
        linkType: 'uses',
        inputType: 'folder',
        outputType: 'version',
        data: { color: '#9e9e9e', style: 'solid' },
      },
    ]);
    await as(boss)('PUT', `${P}/links/types/breakdown|folder|folder`, {
      data: { style: 'dashed', note: 'kept' },
    });
    const [breakdown, ...rest] = await types();
    expect(breakdown.data).toEqual({ color: '#9e9e9e', style: 'dashed', note: 'kept' });
    expect(rest).toHaveLength(2);
    // They are the project's link types, so the project (camelCase, as AYON's model sends them) and its anatomy
    // (snake_case) show them too.
    const project = (await as(boss)('GET', P)).body;
    expect(project.linkTypes).toEqual(await types());
    const anatomy = (await as(boss)('GET', `${P}/anatomy`)).body;
    expect(anatomy.link_types[0]).toEqual({
      link_type: 'breakdown',
      input_type: 'folder',
      output_type: 'folder',
      color: '#9e9e9e',
      style: 'dashed',
    });
    const changed = (await events('entity.project.changed')).at(-1);
    expect(changed).toMatchObject({
      project_name: 'show',
      user_name: 'boss',
      summary: { name: 'show', fields: ['linkTypes'] },
    });
  });

  it('refuse malformed names with 400, and keep whatever data a client gives them, as AYON does', async () => {
    const malformed = [
      'nope',
      'a|folder',
      'a|planet|folder',
      'a|folder|folder|x',
      'a|Folder|folder',
      'a/b|folder|folder',
    ];
    for (const name of malformed) {
      const res = await as(boss)('PUT', `${P}/links/types/${name}`, {});
      expect([name, res.status]).toEqual([name, 400]);
      expect(res.body).toMatchObject({ code: 400, detail: expect.stringMatching(/^Link type/) });
      expect((await as(boss)('DELETE', `${P}/links/types/${name}`)).status).toBe(400);
    }
    // AYON sets no rule on the type's own name: spaces, any length, even none.
    const free = ['a%20b|folder|folder', `${'x'.repeat(101)}|folder|folder`, '|folder|folder'];
    for (const name of free) {
      expect([name, (await as(boss)('PUT', `${P}/links/types/${name}`, {})).status]).toEqual([name, 204]);
      expect((await as(boss)('DELETE', `${P}/links/types/${name}`)).status).toBe(204);
    }
    expect((await types()).map((t) => t.name)).not.toContain('a b|folder|folder');
    // AYON's model takes any data and ignores unknown fields; how to draw a link is the client's business.
    const data = await as(boss)('PUT', `${P}/links/types/ok|folder|folder`, {
      data: { color: 'red', style: 'dotted', icon: 'star' },
      extra: 1,
    });
    expect(data.status).toBe(204);
    expect((await types()).find((t) => t.name === 'ok|folder|folder').data).toEqual({
      color: 'red',
      style: 'dotted',
      icon: 'star',
    });
    expect((await as(boss)('PUT', `${P}/links/types/ok|folder|folder`, { data: 'text' })).status).toBe(422);
    expect((await as(boss)('DELETE', `${P}/links/types/ok|folder|folder`)).status).toBe(204);
  });

  it('are read by anyone with access to the project and changed by managers only', async () => {
    expect((await as(artie)('GET', `${P}/links/types`)).body.types).toHaveLength(3);
    expect((await as(artie)('PUT', `${P}/links/types/mine|folder|folder`, {})).status).toBe(403);
    expect((await as(artie)('DELETE', `${P}/links/types/breakdown|folder|folder`)).status).toBe(403);
    expect((await as(eve)('GET', `${P}/links/types`)).status).toBe(403);
    expect((await as(undefined)('GET', `${P}/links/types`)).status).toBe(401);
    expect((await as(undefined)('PUT', `${P}/links/types/mine|folder|folder`, {})).status).toBe(401);
    expect((await as(boss)('GET', '/api/projects/nowhere/links/types')).status).toBe(404);
    expect((await as(boss)('PUT', '/api/projects/nowhere/links/types/mine|folder|folder', {})).status).toBe(
      404,
    );
    expect(await types()).toHaveLength(3);
  });
});

describe('links', () => {
  it('join two existing entities of the types the link type names', async () => {
    const id = await link(boss, {
      input: shot,
      output: tree,
      linkType: 'breakdown|folder|folder',
      name: 'tree in shot',
      data: { count: 3 },
    });
    const res = await as(artie)('GET', `${P}/links/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      name: 'tree in shot',
      linkType: 'breakdown|folder|folder',
      input: shot,
      output: tree,
      author: 'boss',
      data: { count: 3 },
      createdAt: expect.any(String),
    });
    const event = (await events('link.created')).at(-1);
    expect(event).toMatchObject({
      project_name: 'show',
      user_name: 'boss',
      summary: {
        id,
        linkType: 'breakdown',
        inputType: 'folder',
        outputType: 'folder',
        inputId: shot,
        outputId: tree,
        input: shot,
        output: tree,
      },
    });
  });

  it('accept the older "link" field, snake_case link_type, a client id and the sender headers', async () => {
    await link(boss, { input: shot, output: rock, link: 'breakdown|folder|folder' });
    const id = newId();
    const res = await core.request('POST', `${P}/links`, {
      token: boss,
      body: { id, input: version, output: otherVersion, link_type: 'reference|version|version' },
      headers: { 'x-sender': 'tray-1', 'x-sender-type': 'publisher' },
    });
    expect(res.status).toBe(200); // as AYON answers it, not 201
    expect(res.body).toEqual({ id });
    expect(res.body.id).toBe(id);
    expect((await events('link.created')).at(-1)).toMatchObject({
      sender: 'tray-1',
      sender_type: 'publisher',
      summary: { id },
    });
    const again = await as(boss)('POST', `${P}/links`, {
      id,
      input: tree,
      output: rock,
      linkType: 'breakdown|folder|folder',
    });
    expect(again.status).toBe(409);
  });

  it('refuse the same link twice with 409', async () => {
    const dup = await as(boss)('POST', `${P}/links`, {
      input: shot,
      output: tree,
      linkType: 'breakdown|folder|folder',
    });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 409 });
    // The other direction is another link.
    await link(boss, { input: tree, output: shot, linkType: 'breakdown|folder|folder' });
  });

  it('take a name of any length, as AYON does (no index holds it)', async () => {
    const name = 'n'.repeat(5000);
    const id = await link(boss, { input: rock, output: tree, linkType: 'breakdown|folder|folder', name });
    expect((await as(boss)('GET', `${P}/links/${id}`)).body.name).toBe(name);
    expect((await as(boss)('DELETE', `${P}/links/${id}`)).status).toBe(204);
  });

  it('are looked up for any number of entities, past what one statement may bind one by one', async () => {
    const directory = core.services.get(linksRef);
    const entityIds = [...Array.from({ length: 70_000 }, () => newId()), tree];
    const found = await directory.query('show', { entityIds, linkTypes: ['breakdown'] });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((l) => l.inputId === tree || l.outputId === tree)).toBe(true);
  });

  it('need a link type the project declares, and answer 400 as AYON does when not', async () => {
    const post = (body: object) => as(boss)('POST', `${P}/links`, { input: shot, output: tree, ...body });
    const unknown = await post({ linkType: 'nope|folder|folder' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/^Unsupported link type/);
    expect((await post({ link: 'nope|folder|folder' })).status).toBe(400);
    const missing = await post({});
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('Link type is not specified');
    const malformed = await post({ linkType: 'breakdown' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail).toMatch(/^Link type must be in the format/);
    const elsewhere = await as(boss)('POST', '/api/projects/film/links', {
      input: shot,
      output: tree,
      linkType: 'uses|folder|version',
    });
    expect(elsewhere.status).toBe(400);
  });

  it('answer 404 for an entity that does not exist and 422 for one of the wrong type', async () => {
    const input = await as(boss)('POST', `${P}/links`, {
      input: newId(),
      output: tree,
      linkType: 'breakdown|folder|folder',
    });
    expect(input.status).toBe(404);
    expect(input.body.detail).toMatch(/^Input folder/);
    const output = await as(boss)('POST', `${P}/links`, {
      input: shot,
      output: newId(),
      linkType: 'uses|folder|version',
    });
    expect(output.status).toBe(404);
    expect(output.body.detail).toMatch(/^Output version/);
    const mismatch = await as(boss)('POST', `${P}/links`, {
      input: shot,
      output: tree,
      linkType: 'uses|folder|version',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors[0]).toMatchObject({ loc: ['body', 'output'], type: 'entity_type_mismatch' });
    const inputMismatch = await as(boss)('POST', `${P}/links`, {
      input: version,
      output: tree,
      linkType: 'breakdown|folder|folder',
    });
    expect(inputMismatch.body.errors[0].loc).toEqual(['body', 'input']);
  });

  it('refuse an entity linked to itself and bad input', async () => {
    const self = await as(boss)('POST', `${P}/links`, {
      input: shot,
      output: shot,
      linkType: 'breakdown|folder|folder',
    });
    expect(self.status).toBe(400);
    const bad = await as(boss)('POST', `${P}/links`, {
      input: 'x',
      output: 7,
      linkType: 'breakdown|folder|folder',
      colour: 'red',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.loc.join('.')).sort()).toEqual(['body.input', 'body.output']);
    expect((await as(boss)('GET', `${P}/links/nope`)).status).toBe(422);
    expect((await as(boss)('GET', `${P}/links/${newId()}`)).status).toBe(404);
    expect((await as(boss)('DELETE', `${P}/links/${newId()}`)).status).toBe(404);
  });

  it('need access to the project', async () => {
    const body = { input: tree, output: version, linkType: 'uses|folder|version' };
    expect((await as(undefined)('POST', `${P}/links`, body)).status).toBe(401);
    expect((await as(eve)('POST', `${P}/links`, body)).status).toBe(403);
    const id = await link(boss, body);
    expect((await as(undefined)('GET', `${P}/links/${id}`)).status).toBe(401);
    expect((await as(eve)('GET', `${P}/links/${id}`)).status).toBe(403);
    expect((await as(eve)('DELETE', `${P}/links/${id}`)).status).toBe(403);
    expect((await as(boss)('GET', `/api/projects/nowhere/links/${id}`)).status).toBe(404);
  });
});

describe('deleting links', () => {
  it('lets normal users delete only their own links, and managers any', async () => {
    const mine = await link(artie, { input: rock, output: tree, linkType: 'breakdown|folder|folder' });
    expect((await as(boss)('GET', `${P}/links/${mine}`)).body.author).toBe('artie');
    expect((await as(bob)('DELETE', `${P}/links/${mine}`)).status).toBe(403);
    expect((await as(artie)('DELETE', `${P}/links/${mine}`)).status).toBe(204);
    expect((await as(boss)('GET', `${P}/links/${mine}`)).status).toBe(404);
    const deleted = (await events('link.deleted')).at(-1);
    expect(deleted).toMatchObject({
      project_name: 'show',
      user_name: 'artie',
      summary: { id: mine, linkType: 'breakdown', inputId: rock, outputId: tree },
    });

    const bosses = await link(boss, { input: rock, output: version, linkType: 'uses|folder|version' });
    expect((await as(artie)('DELETE', `${P}/links/${bosses}`)).status).toBe(403);
    const artists = await link(bob, { input: rock, output: tree, linkType: 'breakdown|folder|folder' });
    expect((await as(boss)('DELETE', `${P}/links/${artists}`)).status).toBe(204);
    expect((await as(boss)('DELETE', `${P}/links/${bosses}`)).status).toBe(204);
    expect((await as(boss)('DELETE', `${P}/links/${bosses}`)).status).toBe(404);
  });

  it('removes the links of an entity when the entity is deleted, and only those', async () => {
    const folder = await create('folders', { name: 'bush', folderType: 'Asset' });
    const asInput = await link(boss, { input: folder, output: tree, linkType: 'breakdown|folder|folder' });
    const asOutput = await link(boss, { input: shot, output: folder, linkType: 'breakdown|folder|folder' });
    const toVersion = await link(boss, { input: folder, output: version, linkType: 'uses|folder|version' });
    const bystander = await link(boss, { input: rock, output: version, linkType: 'uses|folder|version' });
    expect((await as(boss)('DELETE', `${P}/folders/${folder}`)).status).toBe(204);
    for (const id of [asInput, asOutput, toVersion])
      expect((await as(boss)('GET', `${P}/links/${id}`)).status).toBe(404);
    expect((await as(boss)('GET', `${P}/links/${bystander}`)).status).toBe(200);

    const product = await create('products', { name: 'lookMain', folderId: rock, productType: 'look' });
    const v1 = await create('versions', { version: 1, productId: product });
    const reference = await link(boss, { input: v1, output: version, linkType: 'reference|version|version' });
    expect((await as(boss)('DELETE', `${P}/versions/${v1}`)).status).toBe(204);
    expect((await as(boss)('GET', `${P}/links/${reference}`)).status).toBe(404);
  });

  it('removes the links of entities deleted along with a folder (subfolders, versions of forced products)', async () => {
    const parent = await create('folders', { name: 'grove', folderType: 'Asset' });
    const child = await create('folders', { name: 'oak', folderType: 'Asset', parentId: parent });
    const product = await create('products', { name: 'modelOak', folderId: child, productType: 'model' });
    const v1 = await create('versions', { version: 1, productId: product });
    const childLink = await link(boss, { input: child, output: tree, linkType: 'breakdown|folder|folder' });
    const versionLink = await link(boss, {
      input: v1,
      output: version,
      linkType: 'reference|version|version',
    });
    expect((await as(boss)('DELETE', `${P}/folders/${parent}?force=true`)).status).toBe(204);
    expect((await as(boss)('GET', `${P}/links/${childLink}`)).status).toBe(404);
    expect((await as(boss)('GET', `${P}/links/${versionLink}`)).status).toBe(404);
  });

  it('removes the links of a link type with it', async () => {
    const uses = await link(boss, { input: tree, output: otherVersion, linkType: 'uses|folder|version' });
    const breakdown = await link(boss, { input: rock, output: shot, linkType: 'breakdown|folder|folder' });
    expect((await as(boss)('DELETE', `${P}/links/types/uses|folder|version`)).status).toBe(204);
    expect((await as(boss)('GET', `${P}/links/${uses}`)).status).toBe(404);
    expect((await as(boss)('GET', `${P}/links/${breakdown}`)).status).toBe(200);
    expect((await types()).map((t) => t.name)).toEqual([
      'breakdown|folder|folder',
      'reference|version|version',
    ]);
    expect((await as(boss)('DELETE', `${P}/links/types/uses|folder|version`)).status).toBe(404);
    const gone = await as(boss)('POST', `${P}/links`, {
      input: tree,
      output: version,
      linkType: 'uses|folder|version',
    });
    expect(gone.status).toBe(400);
    // A project change that drops a type by another route takes its links along as well.
    await as(boss)('PATCH', P, { linkTypes: (await types()).filter((t) => t.linkType !== 'breakdown') });
    expect((await as(boss)('GET', `${P}/links/${breakdown}`)).status).toBe(404);
  });
});
