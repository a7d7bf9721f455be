import { addonPackage, defineAddon } from '@pipewright/sdk';
import { projectMigrations } from './migrations.js';
import { teamRoutes } from './routes.js';
import { TeamService } from './service.js';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { teamsRef } from './api.js';
import { usersRef } from '@pipewright/plugin-users/api';

// Teams group a project's people (a lighting team, a comp team) with leaders and roles, so assignment and review
// tools can address a group instead of listing users one by one.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { projects: projectsRef, users: usersRef },
  migrations: { project: projectMigrations },
  async setup(ctx, deps) {
    const teams = new TeamService(ctx.db, ctx.events, ctx.projects.schemaName);
    deps.users.onRename((oldName, newName) => teams.renameMember(oldName, newName));
    ctx.provide(teamsRef, {
      teamsOf: (projectName, userName) => teams.teamsOf(projectName, userName),
      members: (projectName) => teams.members(projectName),
    });
    await ctx.app.register(teamRoutes(teams, deps.projects));
  },
});
