import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { TestCore } from '@pipewright/core/testing';
import { bootWithUsers } from './helpers.js';
import { attributesRef } from '../src/api.js';

let core: TestCore;
let admin: string;
let artist: string;

beforeAll(async () => {
  ({ core, admin, artist } = await bootWithUsers());
});
afterAll(() => core.close());

const BUILTIN_NAMES = [
  'priority',
  'fps',
  'resolutionWidth',
  'resolutionHeight',
  'pixelAspect',
  'clipIn',
  'clipOut',
  'frameStart',
  'frameEnd',
  'handleStart',
  'handleEnd',
  'startDate',
  'endDate',
  'description',
  'intent',
  'machine',
  'source',
  'comment',
  'site',
  'families',
  'colorSpace',
  'author',
  'path',
  'template',
  'extension',
  'productGroup',
  'fullName',
  'email',
  'avatarUrl',
  'developerMode',
];
const FRAMING = ['project', 'folder', 'task', 'version', 'representation'];

const put = (name: string, body: unknown, token = admin, headers: Record<string, string> = {}) =>
  core.request('PUT', `/api/attributes/${name}`, { token, body, headers });
const putList = (body: unknown, token = admin) => core.request('PUT', '/api/attributes', { token, body });
const list = async () =>
  (await core.request('GET', '/api/attributes', { token: artist })).body.attributes as any[];
const names = async () => (await list()).map((a) => a.name);
const locs = (res: { body: any }) => res.body.errors.map((e: any) => e.loc.join('.'));

describe('the built-in attributes', () => {
  it('are all there, in order, built in, for any logged-in user', async () => {
    const res = await core.request('GET', '/api/attributes', { token: artist });
    expect(res.status).toBe(200);
    expect(res.body.attributes.map((a: any) => a.name)).toEqual(BUILTIN_NAMES);
    expect(res.body.attributes.every((a: any) => a.builtin === true)).toBe(true);
    expect(res.body.attributes.map((a: any) => a.position)).toEqual(BUILTIN_NAMES.map((_, i) => i));
  });

  it('carry AYON types, scopes, limits and defaults', async () => {
    const byName = Object.fromEntries((await list()).map((a) => [a.name, a]));
    expect(byName.priority).toMatchObject({
      scope: ['project', 'folder', 'task'],
      data: { type: 'string', default: 'normal', inherit: true },
    });
    expect(byName.priority.data.enum.map((e: any) => e.value)).toEqual(['urgent', 'high', 'normal', 'low']);
    expect(byName.fps).toMatchObject({ scope: FRAMING, data: { type: 'float', default: 25, gt: 0 } });
    expect(byName.resolutionWidth).toMatchObject({
      scope: FRAMING,
      data: { type: 'integer', default: 1920, gt: 0, lt: 50000 },
    });
    expect(byName.resolutionHeight).toMatchObject({
      data: { type: 'integer', default: 1080, gt: 0, lt: 50000 },
    });
    expect(byName.pixelAspect).toMatchObject({ data: { type: 'float', default: 1, gt: 0 } });
    expect(byName.frameStart.data).toMatchObject({ type: 'integer', default: 1001 });
    expect(byName.handleEnd.data).toMatchObject({ type: 'integer', default: 0, ge: 0 });
    expect(byName.startDate).toMatchObject({
      scope: ['project', 'folder', 'task'],
      data: { type: 'datetime' },
    });
    expect(byName.endDate.data).toMatchObject({ type: 'datetime', title: 'Deadline' });
    // AYON answers every data field, null where unset: its client reads data.default of every attribute.
    expect(byName.startDate.data.default).toBeNull();
    expect(Object.keys(byName.startDate.data).sort()).toEqual(
      [
        'default',
        'description',
        'enum',
        'example',
        'ge',
        'gt',
        'inherit',
        'le',
        'lt',
        'maxItems',
        'maxLength',
        'minItems',
        'minLength',
        'regex',
        'title',
        'type',
      ].sort(),
    );
    expect(byName.description).toMatchObject({
      scope: ['project', 'folder', 'task', 'product', 'version', 'representation', 'workfile'],
      data: { type: 'string', inherit: false },
    });
    for (const name of ['intent', 'machine', 'source', 'comment', 'site', 'colorSpace', 'author']) {
      expect(byName[name]).toMatchObject({ scope: ['version'], data: { type: 'string' } });
    }
    expect(byName.families).toMatchObject({ scope: ['version'], data: { type: 'list_of_strings' } });
    expect(byName.path.scope).toEqual(['representation']);
    expect(byName.template.scope).toEqual(['representation']);
    expect(byName.extension.scope).toEqual(['representation', 'workfile']);
    expect(byName.productGroup).toMatchObject({ scope: ['product'], data: { type: 'string' } });
    expect(byName.developerMode).toMatchObject({ scope: ['user'], data: { type: 'boolean' } });
    const withDefaults = Object.values(byName)
      .filter((a: any) => a.data.default !== null)
      .map((a: any) => a.name);
    expect(withDefaults).toEqual(BUILTIN_NAMES.slice(0, 11));
  });

  it('can be read one at a time, and a missing one is 404', async () => {
    const res = await core.request('GET', '/api/attributes/fps', { token: artist });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'fps', position: 1, builtin: true, data: { type: 'float' } });
    const missing = await core.request('GET', '/api/attributes/nothingHere', { token: artist });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, detail: 'Attribute nothingHere not found' });
  });
});

describe('who may do what', () => {
  it('needs a login to read', async () => {
    expect((await core.request('GET', '/api/attributes')).status).toBe(401);
    expect((await core.request('GET', '/api/attributes/fps')).status).toBe(401);
  });

  it('lets only administrators write', async () => {
    const body = { position: 50, scope: ['folder'], data: { type: 'string' } };
    expect((await put('shotCode', body, artist)).status).toBe(403);
    expect((await putList({ attributes: [{ name: 'shotCode', ...body }] }, artist)).status).toBe(403);
    expect((await core.request('DELETE', '/api/attributes/fps', { token: artist })).status).toBe(403);
    expect((await core.request('PUT', '/api/attributes/shotCode', { body })).status).toBe(401);
    expect(await names()).not.toContain('shotCode');
  });
});

describe('studio attributes', () => {
  it('are created, read back and ordered by position, and each write is an event', async () => {
    const cutIn = {
      position: 100,
      scope: ['folder', 'task'],
      data: {
        type: 'string',
        title: 'Cut kind',
        default: 'full',
        enum: [
          { value: 'full', label: 'Full', color: '#00ff00' },
          { value: 'partial', label: 'Partial', icon: 'content_cut', projects: ['demo'] },
        ],
      },
    };
    const res = await put('cutKind', cutIn, admin, { 'x-sender': 'tab-1', 'x-sender-type': 'web' });
    expect(res.status).toBe(204);
    const read = await core.request('GET', '/api/attributes/cutKind', { token: artist });
    expect(read.body).toEqual({
      name: 'cutKind',
      position: 100,
      scope: ['folder', 'task'],
      builtin: false,
      data: expect.objectContaining({ ...cutIn.data, inherit: true, example: null, regex: null }),
    });

    expect(
      (
        await put('firstOfAll', {
          position: -1,
          scope: ['project'],
          data: { type: 'integer' },
          builtin: true,
        })
      ).status,
    ).toBe(204);
    const all = await names();
    expect(all[0]).toBe('firstOfAll');
    expect(all.at(-1)).toBe('cutKind');
    // builtin in a body is the server's to decide: a studio attribute stays deletable.
    expect((await core.request('GET', '/api/attributes/firstOfAll', { token: artist })).body.builtin).toBe(
      false,
    );

    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'attribute.updated')
      .orderBy('creation_order')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      user_name: 'root',
      sender: 'tab-1',
      sender_type: 'web',
      summary: { attributes: ['cutKind'] },
    });
  });

  it('are replaced by a second PUT and deleted with DELETE', async () => {
    expect(
      (
        await put('firstOfAll', {
          position: 200,
          scope: ['project', 'folder'],
          data: { type: 'float', ge: 0 },
        })
      ).status,
    ).toBe(204);
    const read = await core.request('GET', '/api/attributes/firstOfAll', { token: artist });
    expect(read.body).toMatchObject({
      position: 200,
      scope: ['project', 'folder'],
      data: { type: 'float', ge: 0 },
    });
    expect((await core.request('DELETE', '/api/attributes/firstOfAll', { token: admin })).status).toBe(204);
    expect(await names()).not.toContain('firstOfAll');
    expect((await core.request('DELETE', '/api/attributes/firstOfAll', { token: admin })).status).toBe(404);
    const deleted = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'attribute.deleted')
      .executeTakeFirstOrThrow();
    expect(deleted.summary).toEqual({ attributes: ['firstOfAll'] });
  });
});

describe('built-in attributes stay usable', () => {
  it('refuses to delete one with 409', async () => {
    const res = await core.request('DELETE', '/api/attributes/fps', { token: admin });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 409, detail: 'Attribute fps is built in and cannot be deleted' });
  });

  it('refuses to change the type of one with 409, but accepts other edits', async () => {
    const fps = (await core.request('GET', '/api/attributes/fps', { token: admin })).body;
    const retyped = await put('fps', { ...fps, data: { ...fps.data, type: 'string' } });
    expect(retyped.status).toBe(409);
    expect(retyped.body.detail).toBe(
      'The type of the built-in attribute fps cannot be changed from float to string',
    );
    const listed = await putList({ attributes: [{ ...fps, data: { ...fps.data, type: 'integer' } }] });
    expect(listed.status).toBe(409);

    expect((await put('fps', { ...fps, data: { ...fps.data, title: 'Frame rate' } })).status).toBe(204);
    expect((await core.request('GET', '/api/attributes/fps', { token: admin })).body).toMatchObject({
      builtin: true,
      data: { title: 'Frame rate', type: 'float' },
    });
    expect((await put('fps', fps)).status).toBe(204);
  });
});

describe('PUT /api/attributes', () => {
  const custom = (name: string, position: number) => ({
    name,
    position,
    scope: ['task'],
    data: { type: 'string' },
  });

  it('saves several at once and keeps unlisted ones unless deleteMissing', async () => {
    expect((await putList({ attributes: [custom('alpha', 300), custom('beta', 301)] })).status).toBe(204);
    expect(await names()).toEqual(expect.arrayContaining(['alpha', 'beta', 'cutKind']));

    expect((await putList({ attributes: [custom('alpha', 302)], deleteMissing: false })).status).toBe(204);
    expect(await names()).toEqual(expect.arrayContaining(['alpha', 'beta', 'cutKind']));

    expect(
      (
        await putList({
          attributes: [{ ...custom('alpha', 303), data: { type: 'integer' } }],
          deleteMissing: true,
        })
      ).status,
    ).toBe(204);
    const after = await list();
    expect(after.map((a) => a.name)).toEqual([...BUILTIN_NAMES, 'alpha']);
    expect(after.at(-1)).toMatchObject({ position: 303, data: { type: 'integer' } });
    const deleted = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'attribute.deleted')
      .orderBy('creation_order', 'desc')
      .executeTakeFirstOrThrow();
    expect([...(deleted.summary as any).attributes].sort()).toEqual(['beta', 'cutKind']);
  });

  it('never deletes built-in attributes, even when none are listed', async () => {
    expect((await putList({ attributes: [], deleteMissing: true })).status).toBe(204);
    expect(await names()).toEqual(BUILTIN_NAMES);
  });

  it('writes all or nothing', async () => {
    const fps = (await core.request('GET', '/api/attributes/fps', { token: admin })).body;
    const res = await putList({ attributes: [custom('gamma', 400), { ...fps, data: { type: 'string' } }] });
    expect(res.status).toBe(409);
    expect(await names()).not.toContain('gamma');
  });
});

describe('bad definitions answer 422 in the AYON shape', () => {
  const ok = { position: 1, scope: ['folder'], data: { type: 'string' } };

  it('checks the name', async () => {
    for (const name of ['x', 'bad-name', 'a'.repeat(65), 'under_score']) {
      const res = await put(name, ok);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ loc: ['path', 'attribute_name'], type: 'pattern' }),
      ]);
    }
    const listed = await putList({ attributes: [{ name: 'no way', ...ok }] });
    expect(locs(listed)).toEqual(['body.attributes.0.name']);
  });

  it('keeps a scope no entity type has, as AYON does: it never applies', async () => {
    expect((await put('shotOnly', { ...ok, scope: ['folder', 'shot'] })).status).toBe(204);
    expect((await core.request('GET', '/api/attributes/shotOnly', { token: admin })).body.scope).toEqual([
      'folder',
      'shot',
    ]);
    const library = core.services.get(attributesRef);
    expect((await library.list('folder')).map((d) => d.name)).toContain('shotOnly');
    expect((await library.list('task')).map((d) => d.name)).not.toContain('shotOnly');
    expect((await core.request('DELETE', '/api/attributes/shotOnly', { token: admin })).status).toBe(204);
  });

  it('checks scope, type and enum colours', async () => {
    const scope = await put('goodName', { ...ok, scope: ['folder', 5] });
    expect(scope.status).toBe(422);
    expect(scope.body.errors).toEqual([expect.objectContaining({ loc: ['body', 'scope', 1], type: 'type' })]);
    const type = await put('goodName', { ...ok, data: { type: 'timecode' } });
    expect(locs(type)).toEqual(['body.data.type']);
    const colour = await put('goodName', {
      ...ok,
      data: { type: 'string', enum: [{ value: 'a', label: 'A', color: 'red' }] },
    });
    expect(locs(colour)).toEqual(['body.data.enum.0.color']);
    expect(colour.body).toMatchObject({
      detail: expect.any(String),
      errors: [{ msg: expect.any(String), type: 'pattern' }],
    });
    const missing = await put('goodName', { scope: ['folder'], data: {} });
    expect(locs(missing).sort()).toEqual(['body.data.type', 'body.position']);
  });

  it('checks that the regex compiles', async () => {
    const res = await put('goodName', { ...ok, data: { type: 'string', regex: '^[a-z' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        loc: ['body', 'data', 'regex'],
        msg: expect.stringContaining('not a valid regular expression'),
        type: 'regex',
      },
    ]);
    const listed = await putList({
      attributes: [
        { name: 'goodName', ...ok },
        { name: 'otherName', ...ok, data: { type: 'string', regex: '(' } },
      ],
    });
    expect(locs(listed)).toEqual(['body.attributes.1.data.regex']);
  });

  it('checks that the default satisfies the definition', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'integer', default: 'ten' }, 'type'],
      [{ type: 'integer', default: 0, gt: 0 }, 'exclusiveMinimum'],
      [{ type: 'string', default: 'ABC', regex: '^[a-z]+$' }, 'pattern'],
      [{ type: 'string', default: 'maybe', enum: [{ value: 'yes', label: 'Yes' }] }, 'enum'],
      [{ type: 'datetime', default: 'next week' }, 'format'],
    ];
    for (const [data, type] of cases) {
      const res = await put('goodName', { ...ok, data });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ loc: ['body', 'data', 'default'], type })]);
    }
    expect(await names()).not.toContain('goodName');
  });

  it('accepts a definition sent back with its name, but not with another name', async () => {
    const res = await put('goodName', { name: 'otherName', ...ok });
    expect(res.status).toBe(422);
    expect(locs(res)).toEqual(['body.name']);
  });

  it('checks duplicates in a list', async () => {
    const res = await putList({
      attributes: [
        { name: 'twin', ...ok },
        { name: 'twin', ...ok },
      ],
    });
    expect(locs(res)).toEqual(['body.attributes.1.name']);
  });
});
