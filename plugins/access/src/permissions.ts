import type {
  FolderAccessEntry,
  FolderAccessKind,
  FolderScope,
  FolderWhitelist,
  Permissions,
} from '@pipewright/sdk';

// Pure rules about permission objects: filling in what a group left out, combining a user's groups, and turning a
// folder whitelist into the scope the entities addon filters by. No storage here, so all of it is unit-tested.

export const FOLDER_KINDS: FolderAccessKind[] = ['create', 'read', 'update', 'publish', 'delete'];

/** The highest project level; managers and above hold it everywhere. */
export const TOP_LEVEL = 3;

type Json = Record<string, any>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
const level = (value: unknown) =>
  Number.isInteger(value) ? Math.max(0, Math.min(TOP_LEVEL, value as number)) : 0;
const strings = (value: unknown) =>
  Array.isArray(value) ? [...new Set(value.filter((v): v is string => typeof v === 'string'))] : [];
const section = (value: unknown): Json => (isObject(value) ? value : {});

function whitelist(value: unknown): FolderWhitelist {
  const given = section(value);
  const entries = Array.isArray(given.access_list) ? given.access_list.filter(isObject) : [];
  return {
    enabled: bool(given.enabled, false),
    access_list: uniqueEntries(
      entries.map((entry) => ({
        access_type: entry.access_type,
        ...(typeof entry.path === 'string' ? { path: entry.path } : {}),
      })) as FolderAccessEntry[],
    ),
  };
}

function uniqueEntries(entries: FolderAccessEntry[]): FolderAccessEntry[] {
  const seen = new Set<string>();
  return entries.filter((entry) => {
    const key = `${entry.access_type}\u0000${entry.path ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A complete permission object from whatever a group stores or a client sends: missing sections and fields take
 * their defaults (nothing restricted, levels 0, studio flags false, sibling tasks shown), unknown ones are dropped.
 */
export function completePermissions(value: unknown): Permissions {
  const given = section(value);
  const studio = section(given.studio);
  const project = section(given.project);
  const attribRead = section(given.attrib_read);
  const attribWrite = section(given.attrib_write);
  const endpoints = section(given.endpoints);
  const links = section(given.links);
  return {
    studio: {
      enabled: bool(studio.enabled, false),
      create_projects: bool(studio.create_projects, false),
      list_all_users: bool(studio.list_all_users, false),
    },
    project: {
      enabled: bool(project.enabled, false),
      anatomy: level(project.anatomy),
      access: level(project.access),
      settings: level(project.settings),
    },
    create: whitelist(given.create),
    read: whitelist(given.read),
    update: whitelist(given.update),
    publish: whitelist(given.publish),
    delete: whitelist(given.delete),
    attrib_read: { enabled: bool(attribRead.enabled, false), attributes: strings(attribRead.attributes) },
    attrib_write: {
      enabled: bool(attribWrite.enabled, false),
      attributes: strings(attribWrite.attributes),
      fields: strings(attribWrite.fields),
    },
    endpoints: { enabled: bool(endpoints.enabled, false), endpoints: strings(endpoints.endpoints) },
    links: { enabled: bool(links.enabled, false), link_types: strings(links.link_types) },
    advanced: { show_sibling_tasks: bool(section(given.advanced).show_sibling_tasks, true) },
  };
}

/** What managers, admins and service users get: no whitelist, every level at the top, every studio flag. */
export function unrestrictedPermissions(): Permissions {
  const all = completePermissions({});
  all.studio = { enabled: true, create_projects: true, list_all_users: true };
  all.project = { enabled: true, anatomy: TOP_LEVEL, access: TOP_LEVEL, settings: TOP_LEVEL };
  return all;
}

/** What a user without any group in a project gets: every whitelist restricted to nothing, no levels. */
export function noPermissions(): Permissions {
  const none = completePermissions({ advanced: { show_sibling_tasks: false } });
  for (const kind of FOLDER_KINDS) none[kind].enabled = true;
  none.attrib_read.enabled = true;
  none.attrib_write.enabled = true;
  none.endpoints.enabled = true;
  none.links.enabled = true;
  return none;
}

// A restrictable list section: unrestricted as soon as one group leaves it open, else the union of the lists.
function unionSection<T extends { enabled: boolean }>(parts: T[], lists: (keyof T)[]): T {
  if (parts.some((part) => !part.enabled)) {
    return { ...parts[0], enabled: false, ...Object.fromEntries(lists.map((key) => [key, []])) };
  }
  const merged: Json = { enabled: true };
  for (const key of lists)
    merged[key as string] = [...new Set(parts.flatMap((part) => part[key] as unknown as string[]))];
  return merged as T;
}

function unionWhitelist(parts: FolderWhitelist[]): FolderWhitelist {
  if (parts.some((part) => !part.enabled)) return { enabled: false, access_list: [] };
  return { enabled: true, access_list: uniqueEntries(parts.flatMap((part) => part.access_list)) };
}

/**
 * The permissions of a user holding all these groups: the most generous of them. A list section is unrestricted
 * when any group leaves it so, otherwise the lists are joined; levels take the highest value, flags are or-ed.
 * No group at all gives nothing (noPermissions).
 */
export function combinePermissions(groups: Permissions[]): Permissions {
  if (groups.length === 0) return noPermissions();
  const max = (pick: (p: Permissions) => number) => Math.max(...groups.map(pick));
  const any = (pick: (p: Permissions) => boolean) => groups.some(pick);
  const combined: Permissions = {
    studio: {
      enabled: any((p) => p.studio.enabled),
      create_projects: any((p) => p.studio.create_projects),
      list_all_users: any((p) => p.studio.list_all_users),
    },
    project: {
      enabled: any((p) => p.project.enabled),
      anatomy: max((p) => p.project.anatomy),
      access: max((p) => p.project.access),
      settings: max((p) => p.project.settings),
    },
    create: unionWhitelist(groups.map((p) => p.create)),
    read: unionWhitelist(groups.map((p) => p.read)),
    update: unionWhitelist(groups.map((p) => p.update)),
    publish: unionWhitelist(groups.map((p) => p.publish)),
    delete: unionWhitelist(groups.map((p) => p.delete)),
    attrib_read: unionSection(
      groups.map((p) => p.attrib_read),
      ['attributes'],
    ),
    attrib_write: unionSection(
      groups.map((p) => p.attrib_write),
      ['attributes', 'fields'],
    ),
    endpoints: unionSection(
      groups.map((p) => p.endpoints),
      ['endpoints'],
    ),
    links: unionSection(
      groups.map((p) => p.links),
      ['link_types'],
    ),
    advanced: { show_sibling_tasks: any((p) => p.advanced.show_sibling_tasks) },
  };
  return combined;
}

/** A folder path as scopes hold it: no leading or trailing slash. */
export function normalisePath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/** Where a whitelist lets its holder act: null when it does not restrict. */
export function whitelistScope(list: FolderWhitelist): FolderScope | null {
  if (!list.enabled) return null;
  const scope: FolderScope = { subtree: [], below: [], assigned: false };
  for (const entry of list.access_list) {
    if (entry.access_type === 'assigned') {
      scope.assigned = true;
      continue;
    }
    const path = normalisePath(entry.path ?? '');
    // An empty path would mean "the whole project", which a whitelist entry is not meant to express; skip it.
    if (!path) continue;
    // Any other kind of entry (AYON stores whatever it is sent) grants nothing, as in AYON.
    const target =
      entry.access_type === 'hierarchy'
        ? scope.subtree
        : entry.access_type === 'children'
          ? scope.below
          : null;
    if (target && !target.includes(path)) target.push(path);
  }
  return scope;
}
