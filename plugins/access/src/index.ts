import { addonPackage, defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { projectAccessRoutes } from './project-access-routes.js';
import { accessRoutes } from './routes.js';
import { AccessService } from './service.js';
import { accessRef } from './api.js';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { usersRef } from '@pipewright/plugin-users/api';

// Access groups say what a normal user may do inside a project they were given: which folders they may create,
// read, update, publish to and delete, which attributes they see, which project settings they manage. This addon
// stores the groups, combines a user's groups per project and tells the entities addon where a caller may act.
//
// Group rows are cached in each process and read again on access_group.updated / access_group.deleted, which every
// server process hears (through Redis when there are several).
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { entities: entitiesRef, projects: projectsRef, users: usersRef },
  migrations: { studio: studioMigrations },
  async setup(ctx, deps) {
    const projects = deps.projects;
    const access = new AccessService(ctx.db, ctx.events, projects, deps.users, ctx.log);
    // Read the groups before the first request, so no question ever waits for the database (see groups()).
    await access.refresh();
    ctx.provide(accessRef, access);
    // Who may list every user (list_all_users) is a question for the users addon, answered from the groups.
    deps.users.setStudioPermissionSource((caller) => access.studioPermissions(caller));
    deps.entities.setAccessPolicy({
      folderScope: (caller, project, kind) => access.folderScope(caller, project, kind),
      attributeAccess: (caller, project) => access.attributeAccess(caller, project),
    });

    ctx.events.subscribe('access_group.*', () => access.forget());
    ctx.events.subscribe('entity.project.created', async (message) => {
      if (message.project) await access.applyDefaults(message.project);
    });
    ctx.events.subscribe('entity.project.deleted', async (message) => {
      if (message.project) await access.dropProject(message.project);
    });

    await ctx.app.register(accessRoutes(access, projects));
    await ctx.app.register(projectAccessRoutes(access, projects));
  },
});
