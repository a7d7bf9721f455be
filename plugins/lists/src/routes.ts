import { Type, NoContent, requireUser, type AddonApp } from '@pipewright/sdk';
import { camelizeBody, camelizeDefinitions } from './camelize.js';
import type { ListFolderService } from './folders.js';
import {
  EntityList,
  FolderCreate,
  FolderOrder,
  FolderParams,
  FolderPatch,
  IdResponse,
  ItemCreate,
  ItemOrder,
  ItemParams,
  ItemPatch,
  ListAttributeDefinitions,
  ListCreate,
  ListEntities,
  ListFolders,
  ListIdParams,
  ListParams,
  ListPatch,
  ListQuery,
  ListSummary,
  MultiPatch,
  ProjectParams,
} from './schemas.js';
import type { EntityListService } from './service.js';

// Paths, parameter names and statuses follow AYON's routes: updates of a list answer 204, the item routes
// (which return None in AYON) answer 200 with a null body, creating a list answers 201 with its summary.
const P = '/api/projects/:project_name';
const Done = Type.Null({ description: 'Done (AYON answers null)' });
const preValidation = async (request: { body: unknown }) => camelizeBody(request);

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
      async (request, reply) => {
        const summary = await lists.create(
          requireUser(request),
          request.params.project_name,
          request.body,
          request.sender,
        );
        return reply.code(201).send(summary);
      },
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
      async (request) =>
        lists.get(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.query.metadata_only ?? false,
        ),
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
      async (request) => {
        await lists.patch(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.body,
          request.sender,
        );
      },
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
      async (request) => {
        await lists.remove(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.sender,
        );
      },
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
      async (request) =>
        lists.attributeDefinitions(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
        ),
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
      async (request) => {
        await lists.setAttributeDefinitions(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.body,
          request.sender,
        );
        return null;
      },
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
      async (request) =>
        lists.listedEntities(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
        ),
    );

    app.post(
      `${P}/lists/:entity_list_id/items`,
      {
        preValidation,
        schema: {
          summary: 'Add an item to an entity list',
          description:
            'Level 20. At position (the items from there on shift down one) or at the end. The entity must be ' +
            "of the list's entity type: 404 when it does not exist, 422 when it is of another type.",
          params: ListParams,
          body: ItemCreate,
          response: { 201: IdResponse },
        },
      },
      async (request, reply) => {
        const id = await lists.addItem(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.body,
          request.sender,
        );
        return reply.code(201).send({ id });
      },
    );

    app.patch(
      `${P}/lists/:entity_list_id/items/:entity_list_item_id`,
      {
        preValidation,
        schema: {
          summary: 'Update an item of an entity list',
          description:
            'Level 20. attrib and data merge; label, tags and entityId replace; position moves the item.',
          params: ItemParams,
          body: ItemPatch,
          response: { 200: Done },
        },
      },
      async (request) => {
        await lists.patchItem(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.params.entity_list_item_id,
          request.body,
          request.sender,
        );
        return null;
      },
    );

    app.delete(
      `${P}/lists/:entity_list_id/items/:entity_list_item_id`,
      {
        schema: {
          summary: 'Remove an item from an entity list',
          description: 'Level 20. The items after it move up.',
          params: ItemParams,
          response: { 200: Done },
        },
      },
      async (request) => {
        await lists.removeItem(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.params.entity_list_item_id,
          request.sender,
        );
        return null;
      },
    );

    app.patch(
      `${P}/lists/:list_id/items`,
      {
        preValidation,
        schema: {
          summary: 'Update several items of an entity list',
          description:
            'Level 20, one transaction. replace: the items become these, in this order; merge: items with a ' +
            'known id are patched (moved only when they give a position), the others added; delete: the items ' +
            'with these ids are removed.',
          params: ListIdParams,
          body: MultiPatch,
          response: { 200: Done },
        },
      },
      async (request) => {
        await lists.patchItems(
          requireUser(request),
          request.params.project_name,
          request.params.list_id,
          request.body,
          request.sender,
        );
        return null;
      },
    );

    app.post(
      `${P}/lists/:entity_list_id/order`,
      {
        schema: {
          summary: 'Set the order of the items of an entity list',
          description: 'Level 20. order names every item of the list exactly once (else 400).',
          params: ListParams,
          body: ItemOrder,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await lists.orderItems(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.body.order,
          request.sender,
        );
      },
    );

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
      async (request) =>
        lists.materialize(
          requireUser(request),
          request.params.project_name,
          request.params.entity_list_id,
          request.sender,
        ),
    );
  };
}

/** Routes of the folders that arrange a project's lists. */
export function listFolderRoutes(folders: ListFolderService) {
  return async (app: AddonApp) => {
    app.get(
      `${P}/entityListFolders`,
      {
        schema: {
          summary: 'The folders of the lists of a project',
          params: ProjectParams,
          response: { 200: ListFolders },
        },
      },
      async (request) => folders.list(requireUser(request), request.params.project_name),
    );

    app.post(
      `${P}/entityListFolders`,
      {
        preValidation,
        schema: {
          summary: 'Create a folder for lists',
          description: 'Any user of the project; they own it. Answers 200 with the id, as AYON does.',
          params: ProjectParams,
          body: FolderCreate,
          response: { 200: IdResponse },
        },
      },
      async (request) => ({
        id: await folders.create(requireUser(request), request.params.project_name, request.body),
      }),
    );

    app.post(
      `${P}/entityListFolders/order`,
      {
        schema: {
          summary: 'Set the order of list folders',
          params: ProjectParams,
          body: FolderOrder,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await folders.order(requireUser(request), request.params.project_name, request.body.order);
      },
    );

    app.patch(
      `${P}/entityListFolders/:folder_id`,
      {
        preValidation,
        schema: {
          summary: 'Change a list folder',
          description: 'Its owner or a manager. data merges; a folder cannot move inside itself.',
          params: FolderParams,
          body: FolderPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await folders.patch(
          requireUser(request),
          request.params.project_name,
          request.params.folder_id,
          request.body,
        );
      },
    );

    app.delete(
      `${P}/entityListFolders/:folder_id`,
      {
        schema: {
          summary: 'Delete a list folder',
          description: 'Its owner or a manager. Subfolders go with it; its lists stay, outside any folder.',
          params: FolderParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await folders.remove(requireUser(request), request.params.project_name, request.params.folder_id);
      },
    );
  };
}
