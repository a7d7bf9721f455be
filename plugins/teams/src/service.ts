import { sql } from 'kysely';
import {
  NotFound,
  ValidationFailed,
  schemasWithTable,
  type Database,
  type EventBus,
  type Problem,
} from '@pipewright/sdk';
import type { TeamInput, TeamMember } from './schemas.js';

interface Row {
  name: string;
  members: TeamMember[];
}

/** User names are unique regardless of case (users addon), so "Alice" and "alice" are one member. */
const sameUser = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A member as stored: flags filled in, each role once. */
function normalise(member: { name: string; leader?: boolean; roles?: string[] }): TeamMember {
  return { name: member.name, leader: member.leader ?? false, roles: [...new Set(member.roles ?? [])] };
}

/** Problems of one team's member list: the same user twice. */
function duplicateMembers(members: { name: string }[], loc: (string | number)[]): Problem[] {
  const problems: Problem[] = [];
  members.forEach((member, i) => {
    if (members.findIndex((other) => sameUser(other.name, member.name)) < i) {
      problems.push({
        loc: [...loc, i, 'name'],
        msg: `${member.name} is listed more than once`,
        type: 'value_error.duplicate',
      });
    }
  });
  return problems;
}

export class TeamService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly schemaName: (projectName: string) => string,
  ) {}

  private teams(projectName: string) {
    return this.db.withSchema(this.schemaName(projectName));
  }

  /** A renamed user stays a member of their teams, in every project, in the rename's transaction. */
  async renameMember(oldName: string, newName: string): Promise<void> {
    for (const schema of await schemasWithTable(this.db, 'teams')) {
      const rows: Row[] = await this.db
        .withSchema(schema)
        .selectFrom('teams')
        .select(['name', 'members'])
        .execute();
      for (const row of rows.filter((team) =>
        team.members.some((member) => sameUser(member.name, oldName)),
      )) {
        const members = row.members.map((member) =>
          sameUser(member.name, oldName) ? { ...member, name: newName } : member,
        );
        await this.db
          .withSchema(schema)
          .updateTable('teams')
          .set({ members: JSON.stringify(members) })
          .where('name', '=', row.name)
          .execute();
      }
    }
  }

  /** Names of the project's teams that list the user as a member. */
  async teamsOf(projectName: string, userName: string): Promise<string[]> {
    const rows: Row[] = await this.teams(projectName)
      .selectFrom('teams')
      .select(['name', 'members'])
      .execute();
    return rows
      .filter((row) => row.members.some((member) => sameUser(member.name, userName)))
      .map((row) => row.name);
  }

  /** Names of everyone in at least one of the project's teams (each user once). */
  async members(projectName: string): Promise<string[]> {
    const rows: Row[] = await this.teams(projectName)
      .selectFrom('teams')
      .select(['name', 'members'])
      .execute();
    const byName = new Map(
      rows.flatMap((row) => row.members.map((m) => [m.name.toLowerCase(), m.name] as const)),
    );
    return [...byName.values()];
  }

  async list(projectName: string, showMembers: boolean) {
    const rows: Row[] = await this.teams(projectName)
      .selectFrom('teams')
      .select(['name', 'members'])
      .orderBy('name')
      .execute();
    return rows.map((row) => ({
      name: row.name,
      memberCount: row.members.length,
      ...(showMembers ? { members: row.members } : {}),
      // Whole member entries, as AYON answers: a leader's roles are shown with the name.
      leaders: row.members.filter((member) => member.leader),
    }));
  }

  /** Make the project's teams exactly this list, in one transaction; a bad list changes nothing. */
  async replaceAll(projectName: string, teams: TeamInput[], actor: string): Promise<void> {
    const problems: Problem[] = [];
    teams.forEach((team, i) => {
      if (teams.findIndex((other) => other.name === team.name) < i) {
        problems.push({
          loc: ['body', i, 'name'],
          msg: `Team ${team.name} is listed more than once`,
          type: 'value_error.duplicate',
        });
      }
      problems.push(...duplicateMembers(team.members, ['body', i, 'members']));
    });
    if (problems.length) throw new ValidationFailed(problems);

    await this.db.transaction().execute(async () => {
      // One array parameter, however many teams the list holds.
      const names = teams.map((team) => team.name);
      await this.teams(projectName)
        .deleteFrom('teams')
        .where(sql<boolean>`name <> all(${names}::text[])`)
        .execute();
      // Teams that stay keep their data column; only their members are replaced.
      for (const team of teams) await this.upsert(projectName, team.name, team.members.map(normalise));
      await this.changed(projectName, actor, { teams: names }, 'Teams replaced');
    });
  }

  /** Create a team or replace its members. */
  async save(projectName: string, teamName: string, members: TeamMember[], actor: string): Promise<void> {
    const problems = duplicateMembers(members, ['body', 'members']);
    if (problems.length) throw new ValidationFailed(problems);
    await this.db.transaction().execute(async () => {
      await this.upsert(projectName, teamName, members.map(normalise));
      await this.changed(projectName, actor, { teamName }, `Team ${teamName} saved`);
    });
  }

  async remove(projectName: string, teamName: string, actor: string): Promise<void> {
    await this.db.transaction().execute(async () => {
      const deleted = await this.teams(projectName)
        .deleteFrom('teams')
        .where('name', '=', teamName)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw new NotFound(`Team ${teamName} not found`);
      await this.changed(projectName, actor, { teamName, deleted: true }, `Team ${teamName} deleted`);
    });
  }

  /** Add a member, or change an existing one; flags not given keep their current value (or the default). */
  async saveMember(
    projectName: string,
    teamName: string,
    memberName: string,
    change: { leader?: boolean; roles?: string[] },
    actor: string,
  ): Promise<void> {
    await this.db.transaction().execute(async () => {
      await this.changeMembers(projectName, teamName, (members) => {
        const at = members.findIndex((member) => sameUser(member.name, memberName));
        const current = at >= 0 ? members[at] : normalise({ name: memberName });
        const updated = normalise({
          name: memberName,
          leader: change.leader ?? current.leader,
          roles: change.roles ?? current.roles,
        });
        return at >= 0 ? members.map((member, i) => (i === at ? updated : member)) : [...members, updated];
      });
      const summary = { teamName, memberName };
      await this.changed(projectName, actor, summary, `${memberName} saved in team ${teamName}`);
    });
  }

  async removeMember(
    projectName: string,
    teamName: string,
    memberName: string,
    actor: string,
  ): Promise<void> {
    await this.db.transaction().execute(async () => {
      await this.changeMembers(projectName, teamName, (members) => {
        const kept = members.filter((member) => !sameUser(member.name, memberName));
        if (kept.length === members.length)
          throw new NotFound(`${memberName} is not a member of team ${teamName}`);
        return kept;
      });
      const summary = { teamName, memberName, removed: true };
      await this.changed(projectName, actor, summary, `${memberName} removed from team ${teamName}`);
    });
  }

  /** The team.changed event of a write, stored in the write's own unit of work. */
  private changed(projectName: string, actor: string, summary: Record<string, unknown>, description: string) {
    return this.events.emit({
      topic: 'team.changed',
      project: projectName,
      user: actor,
      description,
      summary,
    });
  }

  /** Read, change and write one team's members under a row lock, so two member edits at once both land. */
  private async changeMembers(
    projectName: string,
    teamName: string,
    change: (members: TeamMember[]) => TeamMember[],
  ): Promise<void> {
    await this.db.transaction().execute(async () => {
      const row: Row | undefined = await this.teams(projectName)
        .selectFrom('teams')
        .select(['name', 'members'])
        .where('name', '=', teamName)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw new NotFound(`Team ${teamName} not found`);
      await this.teams(projectName)
        .updateTable('teams')
        .set({ members: JSON.stringify(change(row.members)) })
        .where('name', '=', teamName)
        .execute();
    });
  }

  private async upsert(projectName: string, teamName: string, members: TeamMember[]): Promise<void> {
    await this.teams(projectName)
      .insertInto('teams')
      .values({ name: teamName, members: JSON.stringify(members) })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ members: JSON.stringify(members) }))
      .execute();
  }
}
