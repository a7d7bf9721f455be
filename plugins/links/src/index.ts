import { addonPackage, defineAddon, renameUserIn } from '@pipewright/sdk';
import { projectMigrations } from './migrations.js';
import { linkRoutes } from './routes.js';
import { LinkService } from './service.js';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { historyRef } from '@pipewright/plugin-history/api';
import { linksRef } from './api.js';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { usersRef } from '@pipewright/plugin-users/api';

// Links say how entities feed each other (a shot breaks down into assets, a version references another). They
// live in each project's schema beside the entities, typed by the link types the project declares.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { entities: entitiesRef, history: historyRef, projects: projectsRef, users: usersRef },
  migrations: { project: projectMigrations },
  async setup(ctx, deps) {
    const projects = deps.projects;
    const entities = deps.entities;
    const links = new LinkService(
      ctx.db,
      ctx.events,
      projects,
      entities,
      deps.history,
      ctx.projects.schemaName,
    );
    entities.onDelete((projectName, removed) =>
      links.dropEntityLinks(
        projectName,
        removed.map((entity) => entity.id),
      ),
    );
    projects.onChange((project) => links.dropUntypedLinks(project));
    deps.users.onRename(renameUserIn(ctx.db, [['links', 'author']]));
    ctx.provide(linksRef, {
      query: (projectName, query) => links.query(projectName, query),
      presence: (projectName, mode) => links.presence(projectName, mode),
      usedTypes: (projectName) => links.usedTypes(projectName),
    });
    await ctx.app.register(linkRoutes(links));
  },
});
