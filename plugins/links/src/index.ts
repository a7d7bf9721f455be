import { defineAddon, renameUserIn } from '@pipewright/sdk';
import { projectMigrations } from './migrations.js';
import { linkRoutes } from './routes.js';
import { LinkService } from './service.js';

// Links say how entities feed each other (a shot breaks down into assets, a version references another). They
// live in each project's schema beside the entities, typed by the link types the project declares.
export default defineAddon({
  name: 'links',
  version: '1.0.0',
  title: 'Links',
  description: 'Typed links between project entities, and the link types of each project',
  dependsOn: ['entities', 'projects', 'users'],
  migrations: { project: projectMigrations },
  async setup(ctx) {
    const projects = ctx.use('projects');
    const entities = ctx.use('entities');
    const links = new LinkService(ctx.db, ctx.events, projects, entities, ctx.projects.schemaName);
    entities.onDelete((projectName, removed) =>
      links.dropEntityLinks(
        projectName,
        removed.map((entity) => entity.id),
      ),
    );
    projects.onChange((project) => links.dropUntypedLinks(project));
    ctx.use('users').onRename(renameUserIn(ctx.db, [['links', 'author']]));
    ctx.provide('links', {
      query: (projectName, query) => links.query(projectName, query),
      presence: (projectName, mode) => links.presence(projectName, mode),
      usedTypes: (projectName) => links.usedTypes(projectName),
    });
    await ctx.app.register(linkRoutes(links));
  },
});
