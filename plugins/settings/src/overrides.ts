// How settings values and their overrides relate, walked along the addon's settings schema (a TypeBox TObject,
// which is plain JSON Schema). Objects with declared properties merge key by key; every other value (scalars,
// lists, free dictionaries) is replaced whole, so an override of a list stores the whole list. These functions are
// pure: the service loads the stored overrides, calls them and stores the result.

export type Json = Record<string, unknown>;

/** A node of a JSON schema, as far as these functions read it. */
export interface SchemaNode {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  default?: unknown;
  [keyword: string]: unknown;
}

/** Where an override comes from, as GET .../overrides reports it. */
export type OverrideLevel = 'default' | 'studio' | 'project' | 'site';

/** One entry of the override map, keyed by the form field id root_<key>_<key>. */
export interface OverrideEntry {
  path: string[];
  type?: 'branch' | 'list';
  value?: unknown;
  level: OverrideLevel;
  inGroup: string[] | null;
}

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const clone = <T>(value: T): T => (value === undefined ? value : structuredClone(value));

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

/** An object whose keys the schema declares: merged and overridden key by key. */
export function isStruct(
  node: SchemaNode | null | undefined,
): node is SchemaNode & { properties: Record<string, SchemaNode> } {
  return !!node && isObject(node.properties);
}

/**
 * The schema of one key of an object, or null when the key is not part of the settings. Undeclared keys are
 * dropped (as AYON's settings models ignore them) unless the object explicitly allows more keys.
 */
export function childSchema(node: SchemaNode | null | undefined, key: string): SchemaNode | null {
  if (!node) return null;
  const declared = node.properties && Object.hasOwn(node.properties, key) ? node.properties[key] : undefined;
  if (declared) return declared;
  if (isObject(node.additionalProperties)) return node.additionalProperties as SchemaNode;
  if (node.additionalProperties === true) return {};
  return isStruct(node) ? null : {};
}

/**
 * The default value a schema describes: an object gets its properties' defaults, recursively; a default written on
 * the object itself wins over them, key by key.
 */
export function defaultsOf(node: SchemaNode): unknown {
  if (!isStruct(node)) return clone(node.default);
  const built: Json = {};
  for (const [key, child] of Object.entries(node.properties)) {
    const value = defaultsOf(child);
    if (value !== undefined) built[key] = value;
  }
  if (isObject(node.default)) return applyOverrides(node, built, node.default);
  return node.default !== undefined ? clone(node.default) : built;
}

/** The defaults of a whole settings schema (always an object). */
export function settingsDefaults(schema: SchemaNode): Json {
  const value = defaultsOf(schema);
  return isObject(value) ? value : {};
}

/** base with the overrides laid over it: declared objects merge recursively, everything else is replaced. */
export function applyOverrides(node: SchemaNode, base: Json, overrides: Json): Json {
  const merged: Json = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const child = childSchema(node, key);
    if (child === null) continue;
    const below = merged[key];
    merged[key] =
      isStruct(child) && isObject(value) && isObject(below)
        ? applyOverrides(child, below, value)
        : clone(value);
  }
  return merged;
}

/** Keys marked as overridden whatever their value: the existing overrides with pins added and unpins removed. */
export function markedKeys(existing: Json, pins: string[][] = [], unpins: string[][] = []): Json {
  const marked = clone(existing);
  for (const path of pins) {
    let at = marked;
    for (const [i, key] of path.entries()) {
      const last = i === path.length - 1;
      if (!Object.hasOwn(at, key)) at[key] = last ? true : {};
      if (last || !isObject(at[key])) break; // a whole value is already marked
      at = at[key] as Json;
    }
  }
  for (const path of unpins) removePath(marked, path, false);
  return marked;
}

/**
 * What to store for next, given the value inherited from the level below: the keys whose value differs, plus the
 * keys already overridden (marked), which stay overridden until removed even when they equal the inherited value
 * again (as AYON keeps them, so a pinned field is not lost on the next save).
 */
export function extractOverrides(node: SchemaNode, inherited: Json, next: Json, marked: Json): Json {
  const overrides: Json = {};
  for (const [key, value] of Object.entries(next)) {
    const child = childSchema(node, key);
    if (child === null) continue;
    const below = inherited[key];
    const isMarked = Object.hasOwn(marked, key);
    if (!isMarked && deepEqual(value, below)) continue;
    overrides[key] =
      isStruct(child) && isObject(value)
        ? extractOverrides(
            child,
            isObject(below) ? below : {},
            value,
            isObject(marked[key]) ? marked[key] : {},
          )
        : clone(value);
  }
  return overrides;
}

/**
 * The override map of one level, in AYON's shape: every overridden key of values (the effective settings at that
 * level) with its path and level; objects as "branch", lists as "list" followed by their items.
 */
export function listOverrides(
  node: SchemaNode,
  values: Json,
  overrides: Json,
  level: OverrideLevel,
  crumbs: string[] = [],
  inGroup: string[] | null = null,
): Record<string, OverrideEntry> {
  const entries: Record<string, OverrideEntry> = {};
  const root = crumbs.length ? `root_${crumbs.join('_')}` : 'root';
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const value = values[name];
    const id = `${root}_${name}`;
    const path = [...crumbs, name];
    const overridden = Object.hasOwn(overrides, name);
    if (isStruct(child)) {
      if (overridden) entries[id] = { path, type: 'branch', level, inGroup };
      const own = isObject(overrides[name]) ? (overrides[name] as Json) : {};
      Object.assign(entries, listOverrides(child, isObject(value) ? value : {}, own, level, path, inGroup));
    } else if (Array.isArray(value)) {
      if (!overridden) continue;
      entries[id] = { path, type: 'list', level, inGroup };
      const own = Array.isArray(overrides[name]) ? (overrides[name] as unknown[]) : [];
      value.forEach((item, i) => {
        const itemPath = [...path, String(i)];
        if (isStruct(child.items) && isObject(item)) {
          const itemOverrides = isObject(own[i]) ? (own[i] as Json) : {};
          Object.assign(
            entries,
            listOverrides(child.items, item, itemOverrides, level, itemPath, inGroup ?? path),
          );
        } else {
          entries[`${id}_${i}`] = { path: itemPath, level: 'default', value: item, inGroup: inGroup ?? path };
        }
      });
    } else if (overridden) {
      entries[id] = { path, value: overrides[name], level, inGroup };
    }
  }
  return entries;
}

/**
 * The overrides with the current value at path stored as an override (pinned), or null when the path names
 * nothing in the schema. Pinning inside an object pins only that key; pinning a list, a scalar or a whole object
 * stores its whole current value.
 */
export function pinPath(node: SchemaNode, current: Json, overrides: Json, path: string[]): Json | null {
  const result = clone(overrides);
  let target = result;
  let values: Json = current;
  let schema: SchemaNode = node;
  for (const [i, key] of path.entries()) {
    const child = childSchema(schema, key);
    if (child === null) return null;
    const value = values[key];
    if (isStruct(child) && i < path.length - 1) {
      if (!isObject(target[key])) target[key] = {};
      target = target[key] as Json;
      values = isObject(value) ? value : {};
      schema = child;
      continue;
    }
    if (value !== undefined) target[key] = clone(value);
    break;
  }
  return result;
}

/** Remove the key at path (in place) and, unless asked not to, the objects left empty above it. */
export function removePath(overrides: Json, path: string[], dropEmptyParents = true): boolean {
  const parents: Json[] = [overrides];
  for (const key of path.slice(0, -1)) {
    const next = parents[parents.length - 1]![key];
    if (!isObject(next)) return false;
    parents.push(next);
  }
  const last = path[path.length - 1];
  const holder = parents[parents.length - 1]!;
  if (last === undefined || !Object.hasOwn(holder, last)) return false;
  delete holder[last];
  if (dropEmptyParents) {
    for (let i = parents.length - 1; i > 0; i--) {
      if (Object.keys(parents[i]!).length > 0) break;
      delete parents[i - 1]![path[i - 1]!];
    }
  }
  return true;
}

/** Which settings levels the schema's fields offer (a field's `scope`, default studio and project, as in AYON). */
export function settingsScopes(schema: SchemaNode | null): {
  studio: boolean;
  project: boolean;
  site: boolean;
} {
  const found = { studio: false, project: false, site: false };
  for (const field of Object.values(schema?.properties ?? {})) {
    const scope = Array.isArray(field.scope) ? (field.scope as string[]) : ['studio', 'project'];
    if (scope.includes('studio')) found.studio = true;
    if (scope.includes('project')) found.project = true;
    if (scope.includes('site')) found.site = true;
  }
  return found;
}
