import {
  type AddonApp,
  CreatedResponse,
  excludeNone,
  Id,
  NoContent,
  ProjectParams,
  Type,
} from '@pipewright/sdk';
import { SPECS, type EntityType } from '../entity-types.js';
import type { EntityService } from '../service.js';
import { AssignRequest, EntityResponse, ForceQuery } from './schemas.js';

/** Fields AYON's REST model of an entity type does not have (GraphQL has them). */
const NOT_IN_AYON_MODEL: Partial<Record<EntityType, string[]>> = { version: ['name'], workfile: ['name'] };

/** An entity read back as AYON answers it: no null fields (its response_model_exclude_none), only its model's fields. */
function asAyonAnswers(type: EntityType, entity: { id: string }): { id: string } {
  const answer = excludeNone(entity, ['attrib']) as { id: string } & Record<string, unknown>;
  for (const field of NOT_IN_AYON_MODEL[type] ?? []) delete answer[field];
  return answer;
}

/**
 * POST, GET, PATCH and DELETE for each of the six entity types, and task assignment. A body is read once: the
 * server's body validator accepts AYON's snake_case names (parent_id, ...) and checks it against the type's schema,
 * and the service takes its fields as checked.
 */
export function entityRoutes(service: EntityService) {
  return async (app: AddonApp) => {
    for (const spec of Object.values(SPECS)) {
      const idParam = `${spec.type}_id`;
      const ItemParams = Type.Object({ project_name: ProjectParams.properties.project_name, [idParam]: Id });
      const label = spec.type;

      app.post(
        `/api/projects/:project_name/${spec.plural}`,
        {
          schema: {
            summary: `Create a ${label}`,
            params: ProjectParams,
            body: spec.create,
            response: { 201: CreatedResponse },
          },
        },
        async (request, reply) => {
          const fields = request.body as Record<string, unknown>;
          const id = await service.create(request.caller, request.params.project_name, spec.type, fields);
          return reply.code(201).send({ id });
        },
      );

      app.get(
        `/api/projects/:project_name/${spec.plural}/:${idParam}`,
        { schema: { summary: `One ${label}`, params: ItemParams, response: { 200: EntityResponse } } },
        async (request) => {
          const params = request.params as Record<string, string>;
          const entity = await service.entity(
            request.caller,
            params.project_name,
            spec.type,
            params[idParam],
          );
          return asAyonAnswers(spec.type, entity);
        },
      );

      app.patch(
        `/api/projects/:project_name/${spec.plural}/:${idParam}`,
        {
          schema: {
            summary: `Change a ${label}: attrib and data merge, null removes a key`,
            params: ItemParams,
            querystring: ForceQuery,
            body: spec.update,
            response: { 204: NoContent },
          },
        },
        async (request) => {
          const params = request.params as Record<string, string>;
          await service.change(
            request.caller,
            params.project_name,
            spec.type,
            params[idParam],
            request.body as Record<string, unknown>,
            { force: request.query.force },
          );
        },
      );

      app.delete(
        `/api/projects/:project_name/${spec.plural}/:${idParam}`,
        {
          schema: {
            summary: `Delete a ${label}`,
            params: ItemParams,
            querystring: ForceQuery,
            response: { 204: NoContent },
          },
        },
        async (request) => {
          const params = request.params as Record<string, string>;
          await service.delete(request.caller, params.project_name, spec.type, params[idParam], {
            force: request.query.force,
          });
        },
      );
    }

    app.post(
      '/api/projects/:project_name/tasks/:task_id/assign',
      {
        schema: {
          summary: 'Add, remove or set the users assigned to a task',
          params: Type.Object({ project_name: ProjectParams.properties.project_name, task_id: Id }),
          body: AssignRequest,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const { project_name, task_id } = request.params;
        await service.assign(request.caller, project_name, task_id, request.body);
      },
    );
  };
}
