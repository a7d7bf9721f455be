import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import type { TestCore } from '@pipewright/core/testing';
import type { AttributeLibrary } from '../src/api.js';
import { bootWithUsers, libraryOf } from './helpers.js';

let core: TestCore;
let admin: string;
let library: AttributeLibrary;

beforeAll(async () => {
  ({ core, admin } = await bootWithUsers());
  library = libraryOf(core);
});
afterAll(() => core.close());

const put = (name: string, body: unknown) =>
  core.request('PUT', `/api/attributes/${name}`, { token: admin, body });
const LOC = ['body', 'attrib'];
const problem = (key: string | (string | number)[], type: string) =>
  expect.objectContaining({
    loc: [...LOC, ...(Array.isArray(key) ? key : [key])],
    type,
    msg: expect.any(String),
  });

describe('defaults and inheritance', () => {
  it('gives new projects the AYON defaults', async () => {
    expect(await library.defaults('project')).toEqual({
      priority: 'normal',
      fps: 25,
      resolutionWidth: 1920,
      resolutionHeight: 1080,
      pixelAspect: 1,
      clipIn: 1,
      clipOut: 1,
      frameStart: 1001,
      frameEnd: 1001,
      handleStart: 0,
      handleEnd: 0,
    });
    expect(await library.defaults('user')).toEqual({});
  });

  it('lets folders inherit everything but the description', async () => {
    const inherited = await library.inheritable('folder');
    expect(inherited).not.toContain('description');
    expect(inherited).toEqual([
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
    ]);
  });

  it('lists the definitions of one entity type', async () => {
    expect((await library.list('user')).map((a) => a.name)).toEqual([
      'fullName',
      'email',
      'avatarUrl',
      'developerMode',
    ]);
    expect((await library.list('workfile')).map((a) => a.name)).toEqual(['description', 'extension']);
    expect((await library.list()).length).toBe(30);
  });
});

describe('validate', () => {
  it('accepts good values and null (which means: inherit again)', async () => {
    const good = {
      priority: 'urgent',
      fps: 23.976,
      resolutionWidth: 4096,
      handleStart: 0,
      startDate: '2025-02-28T09:30:00Z',
      endDate: '2025-03-01',
      description: 'Chase through the market',
    };
    expect(await library.validate('folder', good, LOC)).toEqual([]);
    const cleared = Object.fromEntries(Object.keys(good).map((k) => [k, null]));
    expect(await library.validate('task', cleared, LOC)).toEqual([]);
    expect(await library.validate('version', { families: ['render', 'review'], fps: null }, LOC)).toEqual([]);
  });

  it('refuses attributes unknown for the entity type', async () => {
    const problems = await library.validate('version', { priority: 'high', nonsense: 1, fps: 24 }, LOC);
    expect(problems).toEqual([
      {
        loc: [...LOC, 'priority'],
        msg: "unknown attribute 'priority' for version",
        type: 'unknown_attribute',
      },
      {
        loc: [...LOC, 'nonsense'],
        msg: "unknown attribute 'nonsense' for version",
        type: 'unknown_attribute',
      },
    ]);
    // Unknown stays unknown even when null: there is nothing to inherit.
    expect(await library.validate('folder', { nonsense: null }, LOC)).toEqual([
      problem('nonsense', 'unknown_attribute'),
    ]);
  });

  it('checks types and the built-in limits', async () => {
    const problems = await library.validate(
      'folder',
      {
        fps: 'fast',
        resolutionWidth: 1.5,
        resolutionHeight: 50000,
        pixelAspect: 0,
        handleStart: -1,
        priority: 'whenever',
        startDate: 'tomorrow',
        endDate: '2025-02-30T10:00:00Z',
        description: 42,
      },
      LOC,
    );
    expect(problems).toEqual([
      problem('fps', 'type'),
      problem('resolutionWidth', 'type'),
      problem('resolutionHeight', 'exclusiveMaximum'),
      problem('pixelAspect', 'exclusiveMinimum'),
      problem('handleStart', 'minimum'),
      problem('priority', 'enum'),
      problem('startDate', 'format'),
      problem('endDate', 'format'),
      problem('description', 'type'),
    ]);
    expect(await library.validate('folder', { startDate: 20250101 }, LOC)).toEqual([
      problem('startDate', 'type'),
    ]);
    expect(await library.validate('version', { families: 'render' }, LOC)).toEqual([
      problem('families', 'type'),
    ]);
    expect(await library.validate('version', { families: ['render', 3] }, LOC)).toEqual([
      problem(['families', 1], 'type'),
    ]);
    expect(await library.validate('user', { developerMode: 'yes', fullName: ['A'] }, LOC)).toEqual([
      problem('developerMode', 'type'),
      problem('fullName', 'type'),
    ]);
  });

  it('picks up definitions changed through the routes (the cache is refreshed)', async () => {
    expect(await library.validate('folder', { shotCode: 'AB' }, LOC)).toEqual([
      problem('shotCode', 'unknown_attribute'),
    ]);
    expect(
      (
        await put('shotCode', {
          position: 40,
          scope: ['folder'],
          data: { type: 'string', minLength: 2, maxLength: 4, regex: '^[A-Z]+$' },
        })
      ).status,
    ).toBe(204);
    expect(await library.validate('folder', { shotCode: 'AB' }, LOC)).toEqual([]);
    expect(await library.validate('folder', { shotCode: 'A' }, LOC)).toEqual([
      problem('shotCode', 'minLength'),
    ]);
    expect(await library.validate('folder', { shotCode: 'ABCDE' }, LOC)).toEqual([
      problem('shotCode', 'maxLength'),
    ]);
    expect(await library.validate('folder', { shotCode: 'ab' }, LOC)).toEqual([
      problem('shotCode', 'pattern'),
    ]);

    expect(
      (await put('shotCode', { position: 40, scope: ['folder'], data: { type: 'string', maxLength: 6 } }))
        .status,
    ).toBe(204);
    expect(await library.validate('folder', { shotCode: 'abcde' }, LOC)).toEqual([]);
    expect(await library.inheritable('folder')).toContain('shotCode');

    expect((await core.request('DELETE', '/api/attributes/shotCode', { token: admin })).status).toBe(204);
    expect(await library.validate('folder', { shotCode: 'AB' }, LOC)).toEqual([
      problem('shotCode', 'unknown_attribute'),
    ]);
  });

  it('checks every other type and limit of studio attributes', async () => {
    const res = await core.request('PUT', '/api/attributes', {
      token: admin,
      body: {
        attributes: [
          { name: 'weight', position: 50, scope: ['task'], data: { type: 'float', ge: 0, le: 1 } },
          { name: 'takes', position: 51, scope: ['task'], data: { type: 'integer', gt: 0, lt: 10 } },
          {
            name: 'labels',
            position: 52,
            scope: ['task'],
            data: {
              type: 'list_of_strings',
              minItems: 1,
              maxItems: 2,
              enum: [
                { value: 'a', label: 'A' },
                { value: 'b', label: 'B' },
                { value: 'c', label: 'C' },
              ],
            },
          },
          { name: 'frames', position: 53, scope: ['task'], data: { type: 'list_of_integers' } },
          { name: 'anything', position: 54, scope: ['task'], data: { type: 'list_of_any', maxItems: 1 } },
          { name: 'shots', position: 55, scope: ['task'], data: { type: 'list_of_submodels' } },
          { name: 'extra', position: 56, scope: ['task'], data: { type: 'dict' } },
          { name: 'approved', position: 57, scope: ['task'], data: { type: 'boolean', inherit: false } },
        ],
      },
    });
    expect(res.status).toBe(204);
    const good = {
      weight: 0,
      takes: 9,
      labels: ['a', 'c'],
      frames: [1, 2],
      anything: [{ x: 1 }],
      shots: [{ name: 'sh010' }],
      extra: { a: [1] },
      approved: true,
    };
    expect(await library.validate('task', good, LOC)).toEqual([]);
    expect(await library.inheritable('task')).not.toContain('approved');

    const bad = {
      weight: 1.5,
      takes: 0,
      labels: ['a', 'b', 'z'],
      frames: [1, 2.5],
      anything: [1, 2],
      shots: [{}, 'sh020'],
      extra: ['not', 'a', 'dict'],
      approved: 1,
    };
    expect(await library.validate('task', bad, LOC)).toEqual([
      problem('weight', 'maximum'),
      problem('takes', 'exclusiveMinimum'),
      problem('labels', 'maxItems'),
      problem(['labels', 2], 'enum'),
      problem(['frames', 1], 'type'),
      problem('anything', 'maxItems'),
      problem(['shots', 1], 'type'),
      problem('extra', 'type'),
      problem('approved', 'type'),
    ]);
    expect(await library.validate('task', { weight: -0.1, takes: 10, labels: [], extra: null }, LOC)).toEqual(
      [problem('weight', 'minimum'), problem('takes', 'exclusiveMaximum'), problem('labels', 'minItems')],
    );
  });

  it('hears about changes made by other server processes through attribute events', async () => {
    expect(await library.validate('product', { reel: 'r1' }, LOC)).toEqual([
      problem('reel', 'unknown_attribute'),
    ]);
    // Another process writes the row and announces it; this process only learns of it from the event.
    await sql`INSERT INTO attributes (name, position, scope, builtin, data) VALUES ('reel', 90, ARRAY['product']::text[], false, ${JSON.stringify({ type: 'string', inherit: true })}::jsonb)`.execute(
      core.db,
    );
    expect(await library.validate('product', { reel: 'r1' }, LOC)).toEqual([
      problem('reel', 'unknown_attribute'),
    ]);
    await core.events.emit({ topic: 'attribute.updated', summary: { attributes: ['reel'] } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await library.validate('product', { reel: 'r1' }, LOC)).toEqual([]);
  });
});
