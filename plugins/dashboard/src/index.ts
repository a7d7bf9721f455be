import { defineAddon } from '@pipewright/sdk';
import { dashboardRoutes } from './routes.js';

// The project dashboard of the web app: how big a project is, how its tasks are going, who works on it and how
// busy it has been. Everything is read; nothing is stored of its own.
export default defineAddon({
  name: 'dashboard',
  version: '1.0.0',
  title: 'Project dashboard',
  description: 'Entity counts, task health, the people on a project and its recent activity',
  dependsOn: ['projects', 'entities', 'users', 'attributes', 'teams', 'files'],
  frontendModules: { dashboard_screens: ['./Dashboard'] },
  frontendScopes: { project: { sidebar: 'Dashboard' } },
  async setup(ctx) {
    await ctx.app.register(
      dashboardRoutes({
        db: ctx.db,
        projects: ctx.use('projects'),
        users: ctx.use('users'),
        attributes: ctx.use('attributes'),
        teams: ctx.use('teams'),
        files: ctx.use('files'),
        schemaName: ctx.projects.schemaName,
      }),
    );
  },
});
