import { createServiceRef } from '@pipewright/sdk';

/** Provided by the teams addon: who belongs to which project team. */
export interface TeamDirectory {
  /** Names of the project's teams that list the user as a member (user names compared regardless of case). */
  teamsOf(projectName: string, userName: string): Promise<string[]>;
  /** Names of everyone in at least one of the project's teams, as stored. */
  members(projectName: string): Promise<string[]>;
}

/** The teams service of the teams addon. */
export const teamsRef = createServiceRef<TeamDirectory>({ addon: 'teams', id: 'teams' });
