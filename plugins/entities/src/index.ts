import { defineAddon } from '@pipewright/sdk';
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

// What a pipeline publishes into: folders, tasks, products, versions, representations and workfiles, in each
// project's own schema. A request goes routes/ (HTTP) -> service.ts -> read/ (selects, queries, folder trees) or
// write/ (every write, single or batched, through one processor in one unit of work).
export default defineAddon({
  name: 'entities',
  version: '1.0.0',
  title: 'Entities',
  description: 'Folders, tasks, products, versions, representations, workfiles and operations',
  dependsOn: ['projects', 'attributes', 'users'],
  migrations: { project: projectMigrations },
  frontendModules: { overview_remote: ['./Overview'] },
  frontendScopes: { project: { sidebar: 'Overview' } },
  async setup(ctx) {
    const projects = ctx.use('projects');
    const attributes = ctx.use('attributes');
    const schemaName = ctx.projects.schemaName;
    const processor = new EntityProcessor(ctx.db, ctx.events, attributes, schemaName, ctx.log);
    projects.onChange((project, change) => carryProjectRenames(ctx.db, schemaName(project.name), change));
    ctx.use('users').onRename(carryUserRenames(ctx.db));
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
    ctx.provide('entities', service);
    await ctx.app.register(entityRoutes(service));
    await ctx.app.register(operationRoutes(service));
    await ctx.app.register(folderTreeRoutes(service));
    await ctx.app.register(projectSummaryRoutes(service));
    await ctx.app.register(resolveRoutes(service));
  },
});
