import { NoContent, type AddonApp } from '@pipewright/sdk';
import { Done, P, done, listIn, preValidation } from './route-conventions.js';
import {
  IdResponse,
  ItemCreate,
  ItemOrder,
  ItemParams,
  ItemPatch,
  ListIdParams,
  ListParams,
  MultiPatch,
} from './schemas.js';
import type { ListItemChanges } from './item-changes.js';

/** Routes that change the items of a list. */
export function listItemRoutes(items: ListItemChanges) {
  return async (app: AddonApp) => {
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
      async (request, reply) =>
        reply.code(201).send({ id: await items.add(...listIn(request), request.body) }),
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
      async (request) =>
        done(items.patch(...listIn(request), request.params.entity_list_item_id, request.body)),
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
      async (request) => done(items.remove(...listIn(request), request.params.entity_list_item_id)),
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
        const { project_name, list_id } = request.params;
        return done(items.patchMany(request.caller, project_name, list_id, request.body));
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
      async (request) => items.order(...listIn(request), request.body.order),
    );
  };
}
