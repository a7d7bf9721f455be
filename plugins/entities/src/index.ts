import { addonPackage, defineAddon } from '@pipewright/sdk';
import { projectMigrations } from './migrations.js';
import { HierarchyCache } from './read/hierarchy-cache.js';
import { entityRoutes } from './routes/entities.js';
import { folderTreeRoutes } from './routes/folders.js';
import { operationRoutes } from './routes/operations.js';
import { resolveRoutes } from './routes/resolve.js';
import { projectSummaryRoutes } from './routes/summary.js';
import { EntityService } from './service.js';
import { BackgroundOperations } from './write/background.js';
import { EntityProcessor } from './write/processor.js';
import { carryProjectRenames } from './write/project-renames.js';
import { carryUserRenames } from './write/user-renames.js';
import { attributesRef } from '@pipewright/plugin-attributes/api';
import { entitiesRef } from './api.js';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { usersRef } from '@pipewright/plugin-users/api';

// What a pipeline publishes into: folders, tasks, products, versions, representations and workfiles, in each
// project's own schema. A request goes routes/ (HTTP) -> service.ts -> read/ (selects, queries, folder trees) or
// write/ (every write, single or batched, through one processor in one unit of work).
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { attributes: attributesRef, projects: projectsRef, users: usersRef },
  migrations: { project: projectMigrations },
  frontendModules: { overview_remote: ['./Overview'] },
  frontendScopes: { project: { sidebar: 'Overview' } },
  async setup(ctx, deps) {
    const projects = deps.projects;
    const attributes = deps.attributes;
    const schemaName = ctx.projects.schemaName;
    const processor = new EntityProcessor(ctx.db, ctx.events, attributes, schemaName, ctx.log);
    projects.onChange((project, change) => carryProjectRenames(ctx.db, schemaName(project.name), change));
    deps.users.onRename(carryUserRenames(ctx.db));
    // Kept trees take this process's rows as they commit; other processes' changes as their events reach it.
    const hierarchyCache = new HierarchyCache(ctx.events);
    processor.onCommit((project, changes) => hierarchyCache.committed(project, changes));
    const background = new BackgroundOperations(processor, ctx.events, ctx.log);
    const service = new EntityService({
      db: ctx.db,
      projects,
      attributes,
      processor,
      background,
      hierarchyCache,
      schemaName,
    });
    ctx.provide(entitiesRef, service);
    await ctx.app.register(entityRoutes(service));
    await ctx.app.register(operationRoutes(service));
    await ctx.app.register(folderTreeRoutes(service));
    await ctx.app.register(projectSummaryRoutes(service));
    await ctx.app.register(resolveRoutes(service));
  },
});
