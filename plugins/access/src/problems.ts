import type { Permissions, Problem } from '@pipewright/sdk';
import { groupIn, type GroupTable } from './group-cache.js';
import { FOLDER_KINDS } from './permissions.js';

// What a schema cannot check in a request about groups: folder paths a whitelist entry needs, and group names
// that mean nothing where they are given. Each problem carries its AYON location.

/** Hierarchy and children entries must name a folder; the others need none. */
export function pathProblems(permissions: Permissions, loc: (string | number)[]): Problem[] {
  const problems: Problem[] = [];
  for (const kind of FOLDER_KINDS) {
    permissions[kind].access_list.forEach((entry, i) => {
      const needsPath = entry.access_type === 'hierarchy' || entry.access_type === 'children';
      if (needsPath && !(entry.path ?? '').replace(/\//g, '')) {
        problems.push({
          loc: [...loc, kind, 'access_list', i, 'path'],
          msg: `A ${entry.access_type} entry needs a folder path`,
          type: 'value_error.missing',
        });
      }
    });
  }
  return problems;
}

/** Problems for group names that mean nothing in a project (neither a studio group nor one of the project's). */
export function unknownGroupProblems(
  table: GroupTable,
  names: string[],
  projectNames: string[],
  loc: (string | number)[],
): Problem[] {
  const problems: Problem[] = [];
  names.forEach((name, i) => {
    const missing = projectNames.filter((project) => !groupIn(table, name, project));
    if (missing.length) {
      problems.push({
        loc: [...loc, i],
        msg: `Access group ${name} does not exist${missing.length === projectNames.length ? '' : ` in ${missing.join(', ')}`}`,
        type: 'value_error.unknown_access_group',
      });
    }
  });
  return problems;
}
