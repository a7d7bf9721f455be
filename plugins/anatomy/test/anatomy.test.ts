import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { importAddon } from '@pipewright/core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import type { Anatomy } from '../src/api.js';
import { PASSWORD } from './fixtures/anatomy-users/index.js';
import { anatomyRef } from '../src/api.js';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/anatomy-users');

let core: TestCore;
const tokens: Record<string, string> = {};
beforeAll(async () => {
  core = await bootTestCore({
    addons: ['anatomy', 'anatomy-users'],
    extraAddons: [await importAddon(fixture, false)],
  });
  for (const name of ['artist', 'producer', 'root']) {
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    if (res.status !== 200) throw new Error(`login of ${name} failed: ${res.text}`);
    tokens[name] = res.body.token;
  }
});
afterAll(() => core.close());

const as = (who: string) => ({
  get: (url: string) => core.request('GET', url, { token: tokens[who] }),
  put: (url: string, body: unknown) => core.request('PUT', url, { token: tokens[who], body }),
  post: (url: string, body?: unknown) => core.request('POST', url, { token: tokens[who], body }),
  delete: (url: string) => core.request('DELETE', url, { token: tokens[who] }),
});
const artist = as('artist');
const producer = as('producer');
const root = as('root');
const service = () => core.services.get(anatomyRef);
const presetNames = async () =>
  (await artist.get('/api/anatomy/presets')).body.presets.map((p: any) => [p.name, p.primary]);

describe('the built-in anatomy', () => {
  it('is served as "_" with a work root, v001 versions and 0001 frames', async () => {
    const res = await artist.get('/api/anatomy/presets/_');
    expect(res.status).toBe(200);
    const anatomy = res.body as Anatomy;
    expect(anatomy.roots).toEqual([
      { name: 'work', windows: 'C:/projects', linux: '/mnt/projects', darwin: '/Volumes/projects' },
    ]);
    expect(anatomy.templates).toMatchObject({
      version_padding: 3,
      frame_padding: 4,
      version: 'v{version:0>{@version_padding}}',
    });
    expect((anatomy.templates.work as any[])[0]).toMatchObject({ name: 'default' });
    expect(anatomy.attributes).toMatchObject({ fps: 25, resolutionWidth: 1920, frameStart: 1001 });
    expect(anatomy.folder_types.map((t) => t.name)).toEqual([
      'Folder',
      'Library',
      'Asset',
      'Episode',
      'Sequence',
      'Shot',
    ]);
    expect(anatomy.folder_types.find((t) => t.name === 'Shot')).toEqual({
      name: 'Shot',
      shortName: 'sh',
      icon: 'movie',
    });
    expect(anatomy.task_types).toHaveLength(16);
    expect(new Set(anatomy.task_types.map((t) => t.color)).size).toBe(16);
    expect(anatomy.link_types).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          link_type: 'reference',
          input_type: 'version',
          output_type: 'version',
          style: 'dashed',
        }),
      ]),
    );
  });

  it('has statuses in every state, and a first status for every entity type', async () => {
    const { statuses } = (await artist.get('/api/anatomy/presets/_')).body as Anatomy;
    expect(statuses[0]).toMatchObject({ name: 'Not ready', state: 'not_started' });
    expect(new Set(statuses.map((s) => s.state))).toEqual(
      new Set(['not_started', 'in_progress', 'done', 'blocked']),
    );
    for (const type of ['folder', 'task', 'product', 'version', 'representation', 'workfile']) {
      expect(statuses.some((s) => s.scope?.includes(type))).toBe(true);
    }
    expect(statuses.find((s) => s.name === 'Ready to start')?.scope).toEqual(['folder', 'task']);
  });

  it('lists "_" first and primary while nothing else is', async () => {
    const res = await artist.get('/api/anatomy/presets');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe('1.0.0');
    expect(res.body.presets[0]).toEqual({ name: '_', primary: true, version: '1.0.0' });
  });

  it('publishes the document schema, to logged-in users only', async () => {
    const res = await artist.get('/api/anatomy/schema');
    expect(res.status).toBe(200);
    expect(res.body.properties.statuses.items.properties.color).toMatchObject({ default: '#cacaca' });
    expect(res.body.properties.statuses.items.properties.state.enum).toEqual([
      'not_started',
      'in_progress',
      'done',
      'blocked',
    ]);
    expect((await core.request('GET', '/api/anatomy/schema')).status).toBe(401);
  });

  it('documents its routes in the OpenAPI description', async () => {
    const res = await core.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/anatomy/presets/{preset_name}',
        '/api/anatomy/presets/{preset_name}/rename',
      ]),
    );
  });
});

describe('stored presets', () => {
  it('are created, read and replaced by managers', async () => {
    const builtin = (await artist.get('/api/anatomy/presets/_')).body;
    const film = {
      ...builtin,
      roots: [{ name: 'work', windows: 'P:/', linux: '/prod', darwin: '/Volumes/prod' }],
    };
    const created = await core.request('PUT', '/api/anatomy/presets/film', {
      token: tokens.producer,
      body: film,
      headers: { 'x-sender': 'web-tab-1' },
    });
    expect(created.status).toBe(204);
    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'anatomy.preset.changed')
      .where('user_name', '=', 'producer')
      .executeTakeFirst();
    expect(event).toMatchObject({ sender: 'web-tab-1', summary: { presetName: 'film', action: 'created' } });
    expect((await artist.get('/api/anatomy/presets/film')).body.roots[0].linux).toBe('/prod');
    const replaced = { ...film, tags: [{ name: 'hero' }] };
    expect((await root.put('/api/anatomy/presets/film', replaced)).status).toBe(204);
    const read = (await artist.get('/api/anatomy/presets/film')).body;
    expect(read.tags).toEqual([{ name: 'hero', color: '#cacaca' }]);
    expect(read.roots[0].linux).toBe('/prod');
    expect(await presetNames()).toEqual([
      ['_', true],
      ['film', false],
    ]);
    const update = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'anatomy.preset.changed')
      .where('user_name', '=', 'root')
      .executeTakeFirst();
    expect(update?.summary).toMatchObject({ presetName: 'film', action: 'updated' });
  });

  it('fill what a partial preset leaves out from the built-in, and item defaults', async () => {
    const statuses = [{ name: 'Todo' }, { name: 'Done', state: 'done', color: '#00ff00', scope: ['task'] }];
    const res = await producer.put('/api/anatomy/presets/statuses-only', {
      statuses,
      attributes: { fps: 24 },
    });
    expect(res.status).toBe(204);
    const read = (await artist.get('/api/anatomy/presets/statuses-only')).body as Anatomy;
    expect(read.statuses).toEqual([
      {
        name: 'Todo',
        shortName: '',
        state: 'not_started',
        icon: '',
        color: '#cacaca',
        scope: ['folder', 'task', 'product', 'version', 'representation', 'workfile'],
      },
      { name: 'Done', shortName: '', state: 'done', icon: '', color: '#00ff00', scope: ['task'] },
    ]);
    expect(read.roots[0].name).toBe('work');
    expect(read.templates.version_padding).toBe(3);
    expect(read.attributes).toMatchObject({ fps: 24, resolutionWidth: 1920 });
    expect(read.folder_types).toHaveLength(6);
  });

  it('answers 404 for an unknown preset', async () => {
    const res = await artist.get('/api/anatomy/presets/nothing_here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, detail: 'Anatomy preset nothing_here not found' });
  });

  it('switch the primary preset, which "_" then serves', async () => {
    await producer.put('/api/anatomy/presets/tv', {
      roots: [{ name: 'tv', windows: 'T:/', linux: '/tv', darwin: '/tv' }],
    });
    expect((await producer.post('/api/anatomy/presets/film/primary')).status).toBe(204);
    expect((await artist.get('/api/anatomy/presets/_')).body.roots[0].linux).toBe('/prod');
    expect((await producer.post('/api/anatomy/presets/tv/primary')).status).toBe(204);
    expect((await artist.get('/api/anatomy/presets/_')).body.roots[0].name).toBe('tv');
    expect(await presetNames()).toEqual([
      ['_', false],
      ['film', false],
      ['statuses-only', false],
      ['tv', true],
    ]);
    // Replacing the primary keeps it primary.
    await producer.put('/api/anatomy/presets/tv', {
      roots: [{ name: 'tv', windows: 'T:/', linux: '/tv2', darwin: '/tv' }],
    });
    expect((await artist.get('/api/anatomy/presets/_')).body.roots[0].linux).toBe('/tv2');
    expect((await producer.delete('/api/anatomy/presets/tv/primary')).status).toBe(204);
    expect((await artist.get('/api/anatomy/presets/_')).body.roots[0].name).toBe('work');
    expect((await producer.post('/api/anatomy/presets/missing/primary')).status).toBe(404);
    expect((await producer.delete('/api/anatomy/presets/missing/primary')).status).toBe(404);
    await producer.post('/api/anatomy/presets/film/primary');
    expect((await producer.post('/api/anatomy/presets/_/primary')).status).toBe(204);
    expect((await presetNames())[0]).toEqual(['_', true]);
  });

  it('are renamed, keeping their primary flag; 409 when taken, 404 when missing', async () => {
    await producer.post('/api/anatomy/presets/tv/primary');
    expect((await producer.post('/api/anatomy/presets/tv/rename', { name: 'series' })).status).toBe(204);
    expect((await artist.get('/api/anatomy/presets/tv')).status).toBe(404);
    expect((await artist.get('/api/anatomy/presets/_')).body.roots[0].name).toBe('tv');
    expect(await presetNames()).toContainEqual(['series', true]);
    const taken = await producer.post('/api/anatomy/presets/series/rename', { name: 'film' });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe('An anatomy preset named film already exists');
    expect((await producer.post('/api/anatomy/presets/tv/rename', { name: 'other' })).status).toBe(404);
    expect((await producer.post('/api/anatomy/presets/series/rename', { name: '_' })).status).toBe(422);
    expect((await producer.post('/api/anatomy/presets/series/rename', { name: '' })).status).toBe(422);
  });

  it('are deleted; deleting the primary brings back the built-in', async () => {
    expect((await producer.delete('/api/anatomy/presets/series')).status).toBe(204);
    expect((await artist.get('/api/anatomy/presets/series')).status).toBe(404);
    expect((await producer.delete('/api/anatomy/presets/series')).status).toBe(404);
    expect((await artist.get('/api/anatomy/presets/_')).body.roots[0].name).toBe('work');
    expect((await presetNames())[0]).toEqual(['_', true]);
  });
});

describe('permissions', () => {
  it('refuse writes to normal users with 403', async () => {
    expect((await artist.put('/api/anatomy/presets/mine', {})).status).toBe(403);
    expect((await artist.post('/api/anatomy/presets/film/primary')).status).toBe(403);
    expect((await artist.delete('/api/anatomy/presets/film/primary')).status).toBe(403);
    expect((await artist.post('/api/anatomy/presets/film/rename', { name: 'x' })).status).toBe(403);
    expect((await artist.delete('/api/anatomy/presets/film')).status).toBe(403);
    expect((await artist.get('/api/anatomy/presets/mine')).status).toBe(404);
  });

  it('refuse anonymous callers with 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/anatomy/presets'],
      ['GET', '/api/anatomy/presets/_'],
      ['PUT', '/api/anatomy/presets/x'],
      ['DELETE', '/api/anatomy/presets/film'],
    ]) {
      expect((await core.request(method, url, method === 'PUT' ? { body: {} } : {})).status).toBe(401);
    }
  });
});

describe('validation', () => {
  const put = (name: string, body: unknown) => producer.put(`/api/anatomy/presets/${name}`, body);
  const locs = (res: { body: any }) => res.body.errors.map((e: any) => e.loc.join('.'));

  it('takes any preset name AYON takes, up to the index bound', async () => {
    expect((await put('Feature%20film%20%232', {})).status).toBe(204);
    expect((await artist.get('/api/anatomy/presets/Feature%20film%20%232')).status).toBe(200);
    expect((await producer.delete('/api/anatomy/presets/Feature%20film%20%232')).status).toBe(204);
    const long = await put('x'.repeat(501), {});
    expect(long.status).toBe(422);
    expect(locs(long)).toEqual(['path.preset_name']);
  });

  it('refuses writing "_"', async () => {
    const res = await put('_', {});
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        loc: ['path', 'preset_name'],
        msg: expect.stringContaining('reserved'),
        type: 'value_error.reserved',
      },
    ]);
    expect((await producer.delete('/api/anatomy/presets/_')).status).toBe(422);
  });

  it('refuses colours that are not text, zero paddings, unknown states and bad root names', async () => {
    const colour = await put('p', { tags: [{ name: 'a', color: 5 }] });
    expect(colour.status).toBe(422);
    expect(locs(colour)).toEqual(['body.tags.0.color']);
    expect(locs(await put('p', { templates: { version_padding: 0 } }))).toEqual([
      'body.templates.version_padding',
    ]);
    expect(locs(await put('p', { templates: { frame_padding: 0 } }))).toEqual([
      'body.templates.frame_padding',
    ]);
    const state = await put('p', { statuses: [{ name: 'x', state: 'finished' }] });
    expect(state.status).toBe(422);
    expect(locs(state)).toEqual(['body.statuses.0.state']);
    expect(locs(await put('p', { roots: [{ name: 'my root' }] }))).toEqual(['body.roots.0.name']);
    expect(locs(await put('p', { folder_types: [{ name: '' }] }))).toEqual(['body.folder_types.0.name']);
    expect(
      locs(
        await put('p', {
          link_types: [{ link_type: 'x', input_type: 'folder', output_type: 'folder', style: 'dotted' }],
        }),
      ),
    ).toEqual(['body.link_types.0.style']);
    expect((await artist.get('/api/anatomy/presets/p')).status).toBe(404);
  });

  it('refuses duplicate names and link types, pointing at the duplicate', async () => {
    const res = await put('dups', { statuses: [{ name: 'Done' }, { name: 'WIP' }, { name: 'done' }] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        loc: ['body', 'statuses', 2, 'name'],
        msg: "status 'done' is defined more than once",
        type: 'value_error.duplicate',
      },
    ]);
    const link = { link_type: 'ref', input_type: 'version', output_type: 'version' };
    expect(locs(await put('dups', { link_types: [link, { ...link, input_type: 'folder' }, link] }))).toEqual([
      'body.link_types.2',
    ]);
    expect(
      locs(
        await put('dups', {
          task_types: [{ name: 'A' }, { name: 'A' }],
          tags: [{ name: 't' }, { name: 't' }],
        }),
      ),
    ).toEqual(['body.task_types.1.name', 'body.tags.1.name']);
  });
});

describe('the anatomy service', () => {
  it('turns an anatomy into project fields and back without loss', async () => {
    const presets = service();
    const builtin = await presets.get('_');
    const layout = presets.toProject(builtin);
    expect(layout.config.roots).toEqual({
      work: { windows: 'C:/projects', linux: '/mnt/projects', darwin: '/Volumes/projects' },
    });
    expect(layout.linkTypes[0]).toEqual({
      name: 'generative|version|version',
      link_type: 'generative',
      input_type: 'version',
      output_type: 'version',
      data: { color: expect.stringMatching(/^#/), style: 'solid' },
    });
    expect(layout.attrib).toEqual(builtin.attributes);
    expect(layout.config.productBaseTypes).toEqual({});
    expect(presets.fromProject(layout)).toEqual(builtin);

    const renamed = presets.validate(
      { folder_types: [{ name: 'Shot', original_name: 'Plate' }], tags: [{ name: 'x', original_name: 'y' }] },
      [],
    ).anatomy!;
    expect(presets.fromProject(JSON.parse(JSON.stringify(presets.toProject(renamed))))).toEqual(renamed);
  });

  it('validates documents, locating problems under the given loc', () => {
    const presets = service();
    const bad = presets.validate({ statuses: [{ name: 'x', color: 5 }], templates: { frame_padding: 0 } }, [
      'body',
      'anatomy',
    ]);
    expect(bad.anatomy).toBeNull();
    expect(bad.problems.map((p) => p.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'anatomy', 'statuses', 0, 'color'],
        ['body', 'anatomy', 'templates', 'frame_padding'],
      ]),
    );
    expect(bad.problems.find((p) => p.loc.includes('color'))?.type).toBe('type');
    // Colours, short names and icons are free text in AYON: kept as sent.
    const free = presets.validate(
      { tags: [{ name: 'a', color: 'red' }], attributes: { handleStart: -5 } },
      [],
    );
    expect(free.problems).toEqual([]);
    expect(free.anatomy?.tags[0].color).toBe('red');
    expect(free.anatomy?.attributes.handleStart).toBe(-5);
    const state = presets.validate({ statuses: [{ name: 'x', state: 'nope' }] }, []);
    expect(state.problems).toEqual([
      {
        loc: ['statuses', 0, 'state'],
        msg: "must be one of 'not_started', 'in_progress', 'done', 'blocked'",
        type: 'enum',
      },
    ]);
    const document = { tags: [{ name: 'a' }] };
    const good = presets.validate(document, ['anatomy']);
    expect(good.problems).toEqual([]);
    expect(good.anatomy?.tags).toEqual([{ name: 'a', color: '#cacaca' }]);
    expect(document).toEqual({ tags: [{ name: 'a' }] });
    expect(presets.validate('nonsense', ['x']).problems[0].loc).toEqual(['x']);
  });

  it('answers NotFound for unknown presets', async () => {
    await expect(service().get('nope')).rejects.toMatchObject({ status: 404 });
  });
});
