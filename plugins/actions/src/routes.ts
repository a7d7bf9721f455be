import { JsonObject, NoContent, type AddonApp } from '@pipewright/sdk';
import {
  AbortBody,
  ActionContextBody,
  ActionListResponse,
  ActionQuery,
  ConfigBody,
  ExecuteResponse,
  ListQuery,
  ManageQuery,
  ManageResponse,
  TakeResponse,
  TokenParams,
} from './schemas.js';
import { toContext } from './context.js';
import type { ActionService } from './service.js';

export function actionRoutes(actions: ActionService) {
  return async (app: AddonApp) => {
    app.post(
      '/api/actions/list',
      {
        schema: {
          summary: 'Actions available in a context: simple, dynamic or all of them (default simple)',
          querystring: ListQuery,
          body: ActionContextBody,
          response: { 200: ActionListResponse },
        },
      },
      async (request) => {
        const { mode, variant } = request.query;
        return {
          variant,
          actions: await actions.list(toContext(request.body), request.caller, variant, mode),
        };
      },
    );

    app.get(
      '/api/actions/manage',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Every simple action of every addon, with where it applies (managers)',
          querystring: ManageQuery,
          response: { 200: ManageResponse },
        },
      },
      async (request) => ({ actions: await actions.manage(request.caller, request.query.variant) }),
    );

    app.post(
      '/api/actions/config',
      {
        schema: {
          summary:
            "Save the caller's settings of an action in a project, or read them back when no value is given",
          querystring: ActionQuery,
          body: ConfigBody,
          response: { 200: JsonObject },
        },
      },
      async (request) =>
        actions.config(request.query, toContext(request.body), request.caller, request.body.value),
    );

    app.post(
      '/api/actions/execute',
      {
        schema: {
          summary: 'Run an action; the answer tells the client how to go on (form, launcher, navigate, ...)',
          querystring: ActionQuery,
          body: ActionContextBody,
          response: { 200: ExecuteResponse },
        },
      },
      async (request) => {
        const serverUrl = `${request.protocol}://${request.host}`;
        return actions.execute(request.query, toContext(request.body), request.caller, serverUrl);
      },
    );

    app.get(
      '/api/actions/take/:token',
      {
        schema: {
          summary:
            'Called by the launcher: claim a pending action by its token (the event goes to in_progress)',
          params: TokenParams,
          response: { 200: TakeResponse },
        },
      },
      async (request) => actions.take(request.params.token, request.caller),
    );

    app.post(
      '/api/actions/abort/:token',
      {
        schema: {
          summary: 'Called by the launcher: abort an action it cannot run (default message "Action aborted")',
          params: TokenParams,
          body: AbortBody,
          response: { 204: NoContent },
        },
        // A launcher may post no body at all; that is the default message, not a validation error.
        preValidation: async (request) => {
          (request as { body: unknown }).body ??= {};
        },
      },
      async (request) => {
        await actions.abort(request.params.token, request.caller, request.body.message);
      },
    );
  };
}
