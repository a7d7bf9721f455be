import { isManagerOrAbove, type RequestUser } from '@pipewright/sdk';

/** The four levels of AYON's list access (ListAccessLevel). */
export const LEVEL = { none: 0, read: 10, update: 20, manage: 30 } as const;
export type Level = 0 | 10 | 20 | 30;

/** What the level of a caller on a list or list folder depends on. */
export interface Shared {
  owner: string | null;
  access: Record<string, number>;
}

const TEAM = 'team:';

/** True when the access map names a team, so the caller's teams must be looked up. */
export function namesTeams(access: Record<string, number>): boolean {
  return Object.keys(access).some((key) => key.startsWith(TEAM));
}

/**
 * The caller's level on a shared list. Managers, admins and service users manage every list, as the owner manages
 * theirs; anyone else gets the highest level the access map grants them by name, through a team or access group
 * they belong to in this project, or through "__everyone__". Nothing granted means no access at all: a list is
 * private to its owner until it is shared.
 */
export function levelOf(caller: RequestUser, projectName: string, shared: Shared, teams: string[]): Level {
  if (isManagerOrAbove(caller)) return LEVEL.manage;
  const me = caller.name.toLowerCase();
  if (shared.owner && shared.owner.toLowerCase() === me) return LEVEL.manage;
  const myTeams = new Set(teams.map((team) => team.toLowerCase()));
  const groupsByProject = Object.entries(caller.accessGroups ?? {});
  const myGroups = new Set(
    groupsByProject
      .filter(([project]) => project.toLowerCase() === projectName.toLowerCase())
      .flatMap(([, groups]) => groups.map((group) => group.toLowerCase())),
  );
  let level = 0;
  for (const [rawKey, granted] of Object.entries(shared.access)) {
    const key = rawKey.toLowerCase();
    const applies =
      key === '__everyone__' ||
      key === me ||
      key === `user:${me}` ||
      (key.startsWith(TEAM) && myTeams.has(key.slice(TEAM.length))) ||
      (key.startsWith('group:') && myGroups.has(key.slice('group:'.length)));
    if (applies && granted > level) level = granted;
  }
  // Stored maps only hold the four levels (the schemas say so); anything between rounds down.
  return level >= 30 ? 30 : level >= 20 ? 20 : level >= 10 ? 10 : 0;
}
