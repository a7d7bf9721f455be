import { NotFound, defineAddon } from '@pipewright/sdk';
import { projectMigrations } from './migrations.js';
import { BackgroundOperations } from './write/background.js';
import { EntityProcessor } from './write/processor.js';
import { readOperation } from './write/input.js';
import { carryProjectRenames } from './write/project-renames.js';
import { HierarchyCache } from './read/hierarchy-cache.js';
import { productTypes, projectSummaryRoutes, usage } from './project-summary.js';
import { resolveRoutes } from './resolve-routes.js';
import { entityRoutes, folderTreeRoutes, readEntities } from './routes.js';

// What a pipeline publishes into: folders, tasks, products, versions, representations and workfiles, in each
// project's own schema. Every write, single or batched, goes through one transactional processor.
export default defineAddon({
  name: 'entities',
  version: '1.0.0',
  title: 'Entities',
  description: 'Folders, tasks, products, versions, representations, workfiles and operations',
  dependsOn: ['projects', 'attributes'],
  migrations: { project: projectMigrations },
  frontendModules: { overview_remote: ['./Overview'] },
  frontendScopes: { project: { sidebar: 'Overview' } },
  async setup(ctx) {
    const projects = ctx.use('projects');
    const attributes = ctx.use('attributes');
    const schemaName = ctx.projects.schemaName;
    const processor = new EntityProcessor(ctx.db, ctx.events, attributes, schemaName, ctx.log);
    projects.onChange((project, change) =>
      carryProjectRenames(ctx.db, schemaName(project.name), change),
    );
    const existing = async (name: string) => {
      const project = await projects.find(name);
      if (!project) throw new NotFound(`Project ${name} not found`);
      return project;
    };
    const reader = { db: ctx.db, attributes, processor, schemaName };
    ctx.provide('entities', {
      async get(projectName, type, id, caller) {
        const project = await projects.find(projectName);
        if (!project) return null;
        const page = await readEntities(reader, project, type, { ids: [id], limit: 1, caller });
        return page.items[0]?.entity ?? null;
      },
      query: async (projectName, type, query) =>
        readEntities(reader, await existing(projectName), type, query),
      setAccessPolicy: (policy) => processor.access.register(policy),
      usage: async (projectName) => usage(ctx.db, schemaName((await existing(projectName)).name)),
      async productTypes(projectName) {
        const project = await existing(projectName);
        return productTypes(ctx.db, schemaName(project.name), project);
      },
      async update(caller, projectName, type, id, data, sender) {
        const project = await projects.require(caller, projectName);
        await processor.runOne(
          caller,
          project,
          readOperation({ type: 'update', entityType: type, entityId: id, data }),
          sender,
        );
      },
      onDelete: (hook) => processor.onDelete(hook),
    });
    // Kept trees take this process's rows as they commit; other processes' changes as their events reach it.
    const hierarchyCache = new HierarchyCache(ctx.events);
    processor.onCommit((project, changes) => hierarchyCache.committed(project, changes));
    const background = new BackgroundOperations(processor, ctx.events, ctx.log);
    const deps = {
      db: ctx.db,
      projects,
      attributes,
      processor,
      background,
      hierarchyCache,
      schemaName,
    };
    await ctx.app.register(entityRoutes(deps));
    await ctx.app.register(folderTreeRoutes(deps));
    await ctx.app.register(projectSummaryRoutes(deps));
    await ctx.app.register(resolveRoutes(deps));
  },
});
