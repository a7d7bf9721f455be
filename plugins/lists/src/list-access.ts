import { Forbidden, NotFound, isManagerOrAbove, type RequestUser } from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { TeamDirectory } from '@pipewright/plugin-teams/api';
import { LEVEL, levelOf, namesTeams, type Level } from './access-level.js';
import type { ListRow, ListStore } from './store.js';

/** A list the caller reached: the project's canonical name, the row and the caller's level on it. */
export interface Opened {
  project: string;
  row: ListRow;
  level: Level;
}

const VERB: Record<number, string> = {
  [LEVEL.read]: 'read',
  [LEVEL.update]: 'update',
  [LEVEL.manage]: 'admin',
};

/** The checks every use of a list starts with: the project, the list, and the caller's level on it. */
export class ListAccess {
  constructor(
    private readonly projects: ProjectDirectory,
    private readonly store: ListStore,
    private readonly teams: TeamDirectory,
  ) {}

  /** The caller's level on each list; their teams are only looked up when one of the lists is shared with a team. */
  async levels(caller: RequestUser, projectName: string, rows: ListRow[]): Promise<Level[]> {
    const teams =
      !isManagerOrAbove(caller) && rows.some((row) => namesTeams(row.access))
        ? await this.teams.teamsOf(projectName, caller.name)
        : [];
    return rows.map((row) => levelOf(caller, projectName, row, teams));
  }

  /**
   * The list, when the caller may use the project and has at least the level asked for: 404 for a list that does
   * not exist, 403 "access denied" below read, 403 "cannot update/admin" below what the action needs.
   */
  async open(caller: RequestUser, projectName: string, id: string, needed: Level): Promise<Opened> {
    const project = await this.projects.require(caller, projectName);
    const row = await this.store.findList(project.name, id);
    if (!row) throw new NotFound(`Entity list ${id} not found`);
    const [level] = await this.levels(caller, project.name, [row]);
    if (level < LEVEL.read) throw new Forbidden(`Access denied to entity list ${row.label}`);
    if (level < needed) throw new Forbidden(`Cannot ${VERB[needed]} entity list ${row.label}`);
    return { project: project.name, row, level };
  }

  /** The list locked against concurrent changes for the rest of the transaction. */
  async lock(project: string, id: string): Promise<ListRow> {
    const row = await this.store.findList(project, id, true);
    if (!row) throw new NotFound(`Entity list ${id} not found`);
    return row;
  }
}
