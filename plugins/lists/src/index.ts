import { defineAddon, renameUserIn } from '@pipewright/sdk';
import { EntityLookup } from './entity-lookup.js';
import { listGraphQL } from './graphql.js';
import { ListFolderService } from './folders.js';
import { projectMigrations } from './migrations.js';
import { listFolderRoutes, listRoutes } from './routes.js';
import { EntityListService } from './service.js';
import { ListStore } from './store.js';

// Entity lists gather entities of one type from anywhere in a project (a playlist of versions for dailies, the
// shots of a client delivery, a review session), in an order people choose, shared per user or team.
export default defineAddon({
  name: 'lists',
  version: '1.0.0',
  title: 'Entity lists',
  description: 'Ordered, shareable lists of folders, tasks, products, versions, representations or workfiles',
  dependsOn: ['projects', 'entities', 'users', 'attributes', 'teams', 'graphql'],
  frontendModules: { lists_screens: ['./Lists', './ListStrip'] },
  frontendScopes: { project: { sidebar: 'Lists' } },
  migrations: { project: projectMigrations },
  async setup(ctx) {
    const projects = ctx.use('projects');
    const entities = ctx.use('entities');
    const schemaName = ctx.projects.schemaName;
    const store = new ListStore(ctx.db, schemaName);
    const folders = new ListFolderService(ctx.db, projects, schemaName);
    const lookup = new EntityLookup(entities);
    ctx.use('users').onRename(
      renameUserIn(ctx.db, [
        ['entity_list_folders', 'owner'],
        ['entity_lists', 'owner'],
        ['entity_lists', 'created_by'],
        ['entity_lists', 'updated_by'],
        ['entity_list_items', 'created_by'],
        ['entity_list_items', 'updated_by'],
      ]),
    );
    const lists = new EntityListService(
      ctx.db,
      ctx.events,
      projects,
      entities,
      ctx.use('users'),
      ctx.use('attributes'),
      store,
      folders,
      ctx.use('teams'),
      lookup,
    );
    // Items of deleted entities go in the same transaction, so a list never points at nothing.
    entities.onDelete((projectName, removed) =>
      store.dropEntityItems(
        projectName,
        removed.map((entity) => entity.id),
      ),
    );
    ctx.provide('lists', {
      visible: (caller, project) => lists.visible(caller, project),
      get: (caller, project, id) => lists.get(caller, project, id),
    });
    ctx
      .use('graphql')
      .extend(listGraphQL({ db: ctx.db, schemaName, projects, entities, teams: ctx.use('teams'), lookup }));
    await ctx.app.register(listRoutes(lists));
    await ctx.app.register(listFolderRoutes(folders));
  },
});
