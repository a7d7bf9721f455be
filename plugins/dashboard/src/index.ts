import { addonPackage, defineAddon } from '@pipewright/sdk';
import { dashboardRoutes } from './routes.js';
import { attributesRef } from '@pipewright/plugin-attributes/api';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { eventLogRef } from '@pipewright/plugin-events/api';
import { filesRef } from '@pipewright/plugin-files/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { teamsRef } from '@pipewright/plugin-teams/api';
import { usersRef } from '@pipewright/plugin-users/api';

// The project dashboard of the web app: how big a project is, how its tasks are going, who works on it and how
// busy it has been. Everything is read; nothing is stored of its own.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: {
    attributes: attributesRef,
    files: filesRef,
    projects: projectsRef,
    teams: teamsRef,
    users: usersRef,
    entities: entitiesRef,
    events: eventLogRef,
  },
  frontendModules: { dashboard_screens: ['./Dashboard'] },
  frontendScopes: { project: { sidebar: 'Dashboard' } },
  async setup(ctx, deps) {
    await ctx.app.register(
      dashboardRoutes({
        db: ctx.db,
        log: deps.events,
        projects: deps.projects,
        users: deps.users,
        attributes: deps.attributes,
        teams: deps.teams,
        files: deps.files,
        schemaName: ctx.projects.schemaName,
      }),
    );
  },
});
