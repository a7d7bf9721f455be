import { describe, expect, it } from '@jest/globals';
import { Type } from '@pipewright/sdk';
import {
  applyOverrides,
  extractOverrides,
  markedKeys,
  pinPath,
  removePath,
  settingsDefaults,
  settingsScopes,
  type SchemaNode,
} from '../src/overrides.js';

// The value rules on their own: defaults from a schema, merging, diffs, pins and removal.
const schema = Type.Object({
  name: Type.String({ default: 'x' }),
  note: Type.Optional(Type.String()),
  nested: Type.Object(
    { a: Type.Integer({ default: 1 }), b: Type.Object({ c: Type.Integer({ default: 2 }) }) },
    { default: { b: { c: 5 } } },
  ),
  list: Type.Array(Type.Integer(), { default: [1, 2] }),
  open: Type.Object({ fixed: Type.Integer({ default: 0 }) }, { additionalProperties: Type.Integer() }),
}) as unknown as SchemaNode;

describe('defaults', () => {
  it('walks the schema; a default on an object wins key by key; optional fields without default stay out', () => {
    expect(settingsDefaults(schema)).toEqual({
      name: 'x',
      nested: { a: 1, b: { c: 5 } },
      list: [1, 2],
      open: { fixed: 0 },
    });
  });
});

describe('applying overrides', () => {
  it('merges declared objects, replaces lists, drops undeclared keys unless the object allows more', () => {
    const base = settingsDefaults(schema);
    const merged = applyOverrides(schema, base, {
      nested: { b: { c: 9 } },
      list: [7],
      stray: true,
      open: { extra: 3 },
    });
    expect(merged).toEqual({
      name: 'x',
      nested: { a: 1, b: { c: 9 } },
      list: [7],
      open: { fixed: 0, extra: 3 },
    });
    // The inputs are not changed.
    expect(base.list).toEqual([1, 2]);
  });
});

describe('extracting overrides', () => {
  const inherited = settingsDefaults(schema);

  it('keeps what differs, down to the changed key of nested objects, and whole lists', () => {
    const next = applyOverrides(schema, inherited, { nested: { b: { c: 6 } }, list: [1, 2, 3] });
    expect(extractOverrides(schema, inherited, next, {})).toEqual({
      nested: { b: { c: 6 } },
      list: [1, 2, 3],
    });
    expect(extractOverrides(schema, inherited, inherited, {})).toEqual({});
  });

  it('keeps marked keys even when equal to the inherited value; unpinned ones go', () => {
    const marked = markedKeys({ name: 'x', list: [1, 2] }, [['nested', 'a']], [['list']]);
    expect(marked).toEqual({ name: 'x', nested: { a: true } });
    expect(extractOverrides(schema, inherited, inherited, marked)).toEqual({ name: 'x', nested: { a: 1 } });
  });
});

describe('pinning and removing', () => {
  const current = applyOverrides(schema, settingsDefaults(schema), { nested: { a: 4 } });

  it('pins a key inside an object, a whole object, or refuses an unknown path', () => {
    expect(pinPath(schema, current, {}, ['nested', 'b', 'c'])).toEqual({ nested: { b: { c: 5 } } });
    expect(pinPath(schema, current, {}, ['nested'])).toEqual({ nested: { a: 4, b: { c: 5 } } });
    expect(pinPath(schema, current, {}, ['list', '0'])).toEqual({ list: [1, 2] });
    expect(pinPath(schema, current, {}, ['nested', 'zz'])).toBeNull();
  });

  it('removes a key and the objects it leaves empty, or reports that nothing was there', () => {
    const overrides = { nested: { b: { c: 9 } }, name: 'y' };
    expect(removePath(overrides, ['nested', 'b', 'c'])).toBe(true);
    expect(overrides).toEqual({ name: 'y' });
    expect(removePath(overrides, ['nested', 'b'])).toBe(false);
  });
});

it('reads the levels fields offer from their scope (studio and project by default)', () => {
  expect(settingsScopes(schema)).toEqual({ studio: true, project: true, site: false });
  const siteOnly = Type.Object({ root: Type.String({ scope: ['site'] }) }) as unknown as SchemaNode;
  expect(settingsScopes(siteOnly)).toEqual({ studio: false, project: false, site: true });
  expect(settingsScopes(null)).toEqual({ studio: false, project: false, site: false });
});
