import type { RequestUser, UserRecord } from '@pipewright/sdk';

// The groups a user holds, as stored in their data: a map of project name -> group names, whose keys may be
// spelled in any case. Pure functions over that map, and the identity of a stored user built from it.

export type GroupMap = Record<string, string[]>;

/** Project and user names compare without regard to case. */
export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A user's project -> groups map, whatever is stored (non-list values are skipped). */
export function groupMapOf(value: unknown): GroupMap {
  if (!isObject(value)) return {};
  const map: GroupMap = {};
  for (const [project, groups] of Object.entries(value)) {
    if (Array.isArray(groups)) map[project] = groups.filter((g): g is string => typeof g === 'string');
  }
  return map;
}

/** The groups a map gives in a project; keys match regardless of case, and all matching keys count. */
export function groupsInProject(map: GroupMap, projectName: string): string[] {
  const names = Object.entries(map)
    .filter(([project]) => sameName(project, projectName))
    .flatMap(([, groups]) => groups);
  return [...new Set(names)];
}

/**
 * The data patch that sets a user's groups in some projects: the project's canonical name is the key, other
 * spellings of it are removed, and an empty list removes the project altogether. Null when nothing changes.
 */
export function accessGroupsPatch(
  current: GroupMap,
  changes: Map<string, string[]>,
): Record<string, string[] | null> | null {
  const patch: Record<string, string[] | null> = {};
  for (const [project, groups] of changes) {
    for (const key of Object.keys(current)) if (key !== project && sameName(key, project)) patch[key] = null;
    if (groups.length) patch[project] = [...new Set(groups)];
    else if (project in current) patch[project] = null;
  }
  return Object.keys(patch).length ? patch : null;
}

/** The request identity of a stored user, for questions asked about someone other than the caller. */
export function identityOf(user: UserRecord): RequestUser {
  const flag = (key: string) => user.data[key] === true;
  return {
    name: user.name,
    isAdmin: flag('isAdmin'),
    isManager: flag('isManager'),
    isService: flag('isService'),
    isGuest: flag('isGuest'),
    accessGroups: groupMapOf(user.data.accessGroups),
    sessionId: null,
    isApiKey: false,
  };
}

export function userLevel(user: RequestUser): 'admin' | 'manager' | 'user' {
  if (user.isAdmin || user.isService) return 'admin';
  return user.isManager ? 'manager' : 'user';
}
