import {
  type AddonApp,
  camelizeBody,
  CreatedResponse,
  NoContent,
  ProjectParams,
  ValidationFailed,
} from '@pipewright/sdk';
import { entityTypeFromPath } from './entity-context.js';
import type { ActivityFeeds } from './feed.js';
import type { ActivityOperations } from './operations.js';
import {
  ActivityParams,
  ActivityPatchBody,
  ActivityPostBody,
  EntityParams,
  InboxBody,
  OperationsBody,
  OperationsResponse,
  ReactionBody,
  ReactionParams,
  SuggestBody,
  SuggestResponse,
  Watchers,
} from './schemas.js';
import type { ActivityService } from './service.js';
import type { Suggestions } from './suggest.js';

interface Deps {
  service: ActivityService;
  operations: ActivityOperations;
  suggestions: Suggestions;
  feeds: ActivityFeeds;
}

/** The REST routes of the activity feed and the inbox. */
export function activityRoutes({ service, operations, suggestions, feeds }: Deps) {
  return async (app: AddonApp) => {
    app.post(
      '/api/projects/:project_name/:entity_type/:entity_id/activities',
      {
        preValidation: camelizeBody,
        schema: {
          summary: 'Create an activity on an entity (people create comments; services any type)',
          params: EntityParams,
          body: ActivityPostBody,
          response: { 201: CreatedResponse },
        },
      },
      async (request, reply) => {
        const project = await service.project(request.caller, request.params.project_name);
        const prepared = await service.prepareCreate(request.caller, project, {
          ...request.body,
          entityType: entityTypeFromPath(request.params.entity_type),
          entityId: request.params.entity_id,
        });
        return reply.code(201).send({ id: (await service.write(prepared)).id });
      },
    );

    app.patch(
      '/api/projects/:project_name/activities/:activity_id',
      {
        preValidation: camelizeBody,
        schema: {
          summary: 'Edit an activity: its author or an admin; others may only tick its checkboxes',
          params: ActivityParams,
          body: ActivityPatchBody,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await service.project(request.caller, request.params.project_name);
        const prepared = await service.prepareUpdate(
          request.caller,
          project,
          request.params.activity_id,
          request.body,
        );
        await service.write(prepared);
      },
    );

    app.delete(
      '/api/projects/:project_name/activities/:activity_id',
      {
        schema: {
          summary: 'Delete an activity: its author or an admin',
          params: ActivityParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await service.project(request.caller, request.params.project_name);
        await service.write(await service.prepareDelete(request.caller, project, request.params.activity_id));
      },
    );

    app.post(
      '/api/projects/:project_name/activities/:activity_id/reactions',
      {
        schema: {
          summary: 'React to an activity (each user has each reaction once)',
          params: ActivityParams,
          body: ReactionBody,
          response: { 201: NoContent },
        },
      },
      async (request, reply) => {
        const project = await service.project(request.caller, request.params.project_name);
        await service.react(
          request.caller,
          project,
          request.params.activity_id,
          request.body.reaction,
          'add',
        );
        return reply.code(201).send(null);
      },
    );

    app.delete(
      '/api/projects/:project_name/activities/:activity_id/reactions/:reaction',
      {
        schema: {
          summary: "Take back the caller's reaction",
          params: ReactionParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await service.project(request.caller, request.params.project_name);
        await service.react(
          request.caller,
          project,
          request.params.activity_id,
          request.params.reaction,
          'remove',
        );
      },
    );

    app.get(
      '/api/projects/:project_name/:entity_type/:entity_id/watchers',
      {
        schema: { summary: 'Who watches an entity', params: EntityParams, response: { 200: Watchers } },
      },
      async (request) => {
        const project = await service.project(request.caller, request.params.project_name);
        const type = entityTypeFromPath(request.params.entity_type);
        return { watchers: await service.watchers(request.caller, project, type, request.params.entity_id) };
      },
    );

    app.post(
      '/api/projects/:project_name/:entity_type/:entity_id/watchers',
      {
        schema: {
          summary: "Replace an entity's watchers with this list (a task's versions follow its watchers)",
          params: EntityParams,
          body: Watchers,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await service.project(request.caller, request.params.project_name);
        const type = entityTypeFromPath(request.params.entity_type);
        await service.setWatchers(
          request.caller,
          project,
          type,
          request.params.entity_id,
          request.body.watchers,
        );
      },
    );

    app.post(
      '/api/projects/:project_name/suggest',
      {
        schema: {
          summary: 'People and entities to mention in a comment on an entity, the most relevant first',
          params: ProjectParams,
          body: SuggestBody,
          response: { 200: SuggestResponse },
        },
      },
      async (request) => {
        const project = await service.project(request.caller, request.params.project_name);
        return suggestions.suggest(
          request.caller,
          project,
          request.body.entityType as any,
          request.body.entityId,
        );
      },
    );

    app.post(
      '/api/projects/:project_name/operations/activities',
      {
        schema: {
          summary: 'Create, update and delete activities in one request (one transaction unless canFail)',
          params: ProjectParams,
          body: OperationsBody,
          response: { 200: OperationsResponse },
        },
      },
      async (request) => {
        const project = await service.project(request.caller, request.params.project_name);
        return operations.run(request.caller, project, request.body.operations, request.body.canFail);
      },
    );

    app.post(
      '/api/inbox',
      {
        schema: {
          summary: "Mark the caller's inbox messages of a project unread, read or inactive",
          body: InboxBody,
          response: { 200: NoContent },
        },
      },
      async (request) => {
        const { projectName, ids, all, status } = request.body;
        if (!all && !ids)
          throw new ValidationFailed([
            {
              loc: ['body', 'ids'],
              msg: 'Name the messages (ids) or ask for all of them (all)',
              type: 'value_error.missing',
            },
          ]);
        const project = await service.project(request.caller, projectName);
        await feeds.markInbox(request.caller, project, { ids, all }, status);
        return null;
      },
    );
  };
}
