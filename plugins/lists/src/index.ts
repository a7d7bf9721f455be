import { addonPackage, defineAddon, renameUserIn } from '@pipewright/sdk';
import { EntityLookup } from './entity-lookup.js';
import { listGraphQL } from './graphql.js';
import { ListFolderService } from './folders.js';
import { projectMigrations } from './migrations.js';
import { listFolderRoutes, listRoutes } from './routes.js';
import { EntityListService } from './service.js';
import { ListStore } from './store.js';
import { attributesRef } from '@pipewright/plugin-attributes/api';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { graphqlRef } from '@pipewright/plugin-graphql/api';
import { listsRef } from './api.js';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { teamsRef } from '@pipewright/plugin-teams/api';
import { usersRef } from '@pipewright/plugin-users/api';

// Entity lists gather entities of one type from anywhere in a project (a playlist of versions for dailies, the
// shots of a client delivery, a review session), in an order people choose, shared per user or team.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: {
    attributes: attributesRef,
    entities: entitiesRef,
    graphql: graphqlRef,
    projects: projectsRef,
    teams: teamsRef,
    users: usersRef,
  },
  frontendModules: { lists_screens: ['./Lists', './ListStrip', './ShareVersion'] },
  frontendScopes: { project: { sidebar: 'Lists' } },
  migrations: { project: projectMigrations },
  async setup(ctx, deps) {
    const projects = deps.projects;
    const entities = deps.entities;
    const schemaName = ctx.projects.schemaName;
    const store = new ListStore(ctx.db, schemaName);
    const folders = new ListFolderService(ctx.db, projects, schemaName);
    const lookup = new EntityLookup(entities);
    deps.users.onRename(
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
      deps.users,
      deps.attributes,
      store,
      folders,
      deps.teams,
      lookup,
    );
    // Items of deleted entities go in the same transaction, so a list never points at nothing.
    entities.onDelete((projectName, removed) =>
      store.dropEntityItems(
        projectName,
        removed.map((entity) => entity.id),
      ),
    );
    ctx.provide(listsRef, {
      visible: (caller, project) => lists.visible(caller, project),
      get: (caller, project, id) => lists.get(caller, project, id),
    });
    deps.graphql.extend(
      listGraphQL({ db: ctx.db, schemaName, projects, entities, teams: deps.teams, lookup }),
    );
    await ctx.app.register(listRoutes(lists));
    await ctx.app.register(listFolderRoutes(folders));
  },
});
