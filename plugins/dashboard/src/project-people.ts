import type { UserRecord } from '@pipewright/sdk';

export interface ProjectPeople {
  teamSizeActive: number;
  teamSizeTotal: number;
  usersWithAccessActive: number;
  usersWithAccessTotal: number;
  roles: Record<string, number>;
}

/** The access groups a user has in a project (project names compared regardless of case). */
function groupsIn(user: UserRecord, projectName: string): string[] {
  const byProject = (user.data.accessGroups ?? {}) as Record<string, unknown>;
  const key = Object.keys(byProject).find((name) => name.toLowerCase() === projectName.toLowerCase());
  const groups = key === undefined ? [] : byProject[key];
  return Array.isArray(groups) ? groups.filter((group): group is string => typeof group === 'string') : [];
}

/**
 * Who works on a project, as AYON's dashboard counts it: team members who are users; users with access (admins,
 * managers, and users given access groups in the project); how many users each access group of the project has.
 * AYON 1.x keeps a user's project roles as access groups, so those are the roles counted.
 */
export function countPeople(users: UserRecord[], projectName: string, members: Set<string>): ProjectPeople {
  const people: ProjectPeople = {
    teamSizeActive: 0,
    teamSizeTotal: 0,
    usersWithAccessActive: 0,
    usersWithAccessTotal: 0,
    roles: {},
  };
  for (const user of users) {
    if (members.has(user.name.toLowerCase())) {
      people.teamSizeTotal += 1;
      if (user.active) people.teamSizeActive += 1;
    }
    const groups = groupsIn(user, projectName);
    if (user.data.isAdmin === true || user.data.isManager === true || groups.length > 0) {
      people.usersWithAccessTotal += 1;
      if (user.active) people.usersWithAccessActive += 1;
    }
    for (const group of new Set(groups)) people.roles[group] = (people.roles[group] ?? 0) + 1;
  }
  return people;
}
