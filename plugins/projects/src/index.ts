import { addonPackage, defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { projectRoutes } from './routes.js';
import { ProjectService } from './service.js';
import { anatomyRef } from '@pipewright/plugin-anatomy/api';
import { attributesRef } from '@pipewright/plugin-attributes/api';
import { authRef } from '@pipewright/plugin-auth/api';
import { projectsRef } from './api.js';

// Projects are the unit a studio works in: each gets its own PostgreSQL schema, created with the project and
// dropped with it, where the entity addons keep its folders, tasks, products and versions.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { anatomy: anatomyRef, attributes: attributesRef, auth: authRef },
  migrations: { studio: studioMigrations },
  frontendModules: { projects_remote: ['./Projects'] },
  frontendScopes: { settings: { sidebar: 'Projects' } },
  async setup(ctx, deps) {
    const projects = new ProjectService(ctx.db, ctx.events, ctx.projects, deps.attributes, deps.anatomy);
    ctx.provide(projectsRef, projects);
    ctx.events.subscribe('entity.project.*', (message) => projects.forget(message.project));
    ctx.events.subscribe('attribute.*', () => projects.forget());
    await ctx.app.register(projectRoutes(projects));
  },
});
