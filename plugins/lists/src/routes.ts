import { type AddonApp, NoContent, ProjectParams } from '@pipewright/sdk';
import { camelizeDefinitions } from './camelize.js';
import { listItemRoutes } from './item-routes.js';
import { Done, P, done, listIn, preValidation, projectIn } from './route-conventions.js';
import {
  EntityList,
  ListAttributeDefinitions,
  ListCreate,
  ListEntities,
  ListParams,
  ListPatch,
  ListQuery,
  ListSummary,
} from './schemas.js';
import type { EntityListService } from './service.js';

export { listFolderRoutes } from './folder-routes.js';

/** Routes of lists, their items, attributes and entities. */
export function listRoutes(lists: EntityListService) {
  return async (app: AddonApp) => {
    app.post(
      `${P}/lists`,
      {
        preValidation,
        schema: {
          summary: 'Create a new entity list.',
          description:
            'Any user of the project may create a list; they own it and manage it (level 30). Items given here ' +
            'are added in the order given (their positions are ignored). Answers the summary of the new list.',
          params: ProjectParams,
          body: ListCreate,
          response: { 201: ListSummary },
        },
      },
      async (request, reply) => reply.code(201).send(await lists.create(...projectIn(request), request.body)),
    );

    app.get(
      `${P}/lists/:entity_list_id`,
      {
        schema: {
          summary: 'Get entity list',
          description: 'The list with its items in order (level 10); metadata_only leaves the items out.',
          params: ListParams,
          querystring: ListQuery,
          response: { 200: EntityList },
        },
      },
      async (request) => lists.get(...listIn(request), request.query.metadata_only ?? false),
    );

    app.patch(
      `${P}/lists/:entity_list_id`,
      {
        preValidation,
        schema: {
          summary: 'Update entity list metadata',
          description:
            'Level 30. attrib and data merge (null removes a key); access, tags and template replace.',
          params: ListParams,
          body: ListPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => lists.patch(...listIn(request), request.body),
    );

    app.delete(
      `${P}/lists/:entity_list_id`,
      {
        schema: {
          summary: 'Delete entity list from the database',
          description: 'Level 30. The items go with the list.',
          params: ListParams,
          response: { 204: NoContent },
        },
      },
      async (request) => lists.remove(...listIn(request)),
    );

    app.get(
      `${P}/lists/:entity_list_id/attributes`,
      {
        schema: {
          summary: 'Return a list of custom attributes for the entity list.',
          params: ListParams,
          response: { 200: ListAttributeDefinitions },
        },
      },
      async (request) => lists.attributeDefinitions(...listIn(request)),
    );

    app.put(
      `${P}/lists/:entity_list_id/attributes`,
      {
        preValidation: async (request: { body: unknown }) => camelizeDefinitions(request),
        schema: {
          summary: 'Set the custom attributes for the entity list.',
          description: 'Level 30. Replaces every definition; a name may not shadow a studio attribute.',
          params: ListParams,
          body: ListAttributeDefinitions,
          response: { 200: Done },
        },
      },
      async (request) => done(lists.setAttributeDefinitions(...listIn(request), request.body)),
    );

    app.get(
      `${P}/lists/:entity_list_id/entities`,
      {
        schema: {
          summary: 'Get the entities of a list.',
          params: ListParams,
          response: { 200: ListEntities },
        },
      },
      async (request) => lists.listedEntities(...listIn(request)),
    );

    await listItemRoutes(lists.items)(app);

    app.post(
      `${P}/lists/:entity_list_id/materialize`,
      {
        schema: {
          summary: 'Materialize an entity list.',
          description:
            "Level 30. The items become the entities the list's template selects: active entities of the " +
            "list's type that the caller may read, inside the template's folderIds subtrees and matching its " +
            'filter (an AYON QueryFilter), in path order. Entities already listed keep their item. 400 when the ' +
            'template names neither, or selects more than 10000 entities.',
          params: ListParams,
          response: { 200: ListSummary },
        },
      },
      async (request) => lists.items.materialize(...listIn(request)),
    );
  };
}
