import { type AddonApp } from '@pipewright/sdk';
import {
  CreatedView,
  Done,
  ScopeQuery,
  SetDefault,
  TypeParams,
  View,
  ViewCreate,
  ViewList,
  ViewParams,
  ViewPatch,
} from './schemas.js';
import type { ViewService } from './service.js';

// Paths, the project_name query and bodies follow AYON's /api/views routes. AYON answers null (200) for an
// update, a delete and setting the default; a new view answers 201 with its id, saving an existing working view
// 200 with its id.
const BASE = '/api/views/:view_type';

// AYON's clients may send the discriminator in snake_case.
const preValidation = async (request: { body: unknown }) => {
  const body = request.body as Record<string, unknown> | null;
  if (body && typeof body === 'object' && 'view_type' in body && !('viewType' in body)) {
    body.viewType = body.view_type;
    delete body.view_type;
  }
};

/** The routes of saved views. */
export function viewRoutes(views: ViewService) {
  return async (app: AddonApp) => {
    app.get(
      BASE,
      {
        schema: {
          summary: 'Get the list of views available to the user.',
          description:
            "The caller's own views and everyone's public views of this type: the project's (with project_name) " +
            "first, then the studio's. accessLevel is 30 for the caller's own views, 10 for others'.",
          params: TypeParams,
          querystring: ScopeQuery,
          response: { 200: ViewList },
        },
      },
      async (request) => views.list(request.caller, request.params.view_type, request.query.project_name),
    );

    app.post(
      BASE,
      {
        preValidation,
        schema: {
          summary: 'Create a new view for current user.',
          description:
            'The view belongs to the caller and lives in the project named by project_name, else studio-wide. ' +
            'Unless working is false it is the working view: saved over the existing one (which keeps its id) ' +
            'and always private. Settings are checked against the view type (unknown keys are kept).',
          params: TypeParams,
          querystring: ScopeQuery,
          body: ViewCreate,
          response: { 200: CreatedView, 201: CreatedView },
        },
      },
      async (request, reply) => {
        const saved = await views.create(
          request.caller,
          request.params.view_type,
          request.body,
          request.query.project_name,
        );
        return reply.code(saved.created ? 201 : 200).send({ id: saved.id });
      },
    );

    app.get(
      `${BASE}/working`,
      {
        schema: {
          summary: 'Get the working view of the given type',
          params: TypeParams,
          querystring: ScopeQuery,
          response: { 200: View },
        },
      },
      async (request) => views.working(request.caller, request.params.view_type, request.query.project_name),
    );

    app.get(
      `${BASE}/default`,
      {
        schema: {
          summary: 'Return the view set by the user as default for the given type.',
          description:
            'The view the caller chose (while they may still see it), else their working view (the ' +
            "project's, then the studio's), else 404.",
          params: TypeParams,
          querystring: ScopeQuery,
          response: { 200: View },
        },
      },
      async (request) =>
        views.getDefault(request.caller, request.params.view_type, request.query.project_name),
    );

    app.post(
      `${BASE}/default`,
      {
        schema: {
          summary: 'Set the default view for the user and view type.',
          description: 'The view must be one of this type the caller can see, in the project or the studio.',
          params: TypeParams,
          querystring: ScopeQuery,
          body: SetDefault,
          response: { 200: Done },
        },
      },
      async (request) => {
        await views.setDefault(
          request.caller,
          request.params.view_type,
          request.body.viewId,
          request.query.project_name,
        );
        return null;
      },
    );

    app.get(
      `${BASE}/:view_id`,
      {
        schema: {
          summary: 'Get a specific view by its ID.',
          description: "The caller's own view or a public one; searched in the project, then the studio.",
          params: ViewParams,
          querystring: ScopeQuery,
          response: { 200: View },
        },
      },
      async (request) =>
        views.get(
          request.caller,
          request.params.view_type,
          request.params.view_id,
          request.query.project_name,
        ),
    );

    app.patch(
      `${BASE}/:view_id`,
      {
        preValidation,
        schema: {
          summary: 'Update a view in the database.',
          description:
            'Only the owner changes a view (403 for others who can see it, 404 for those who cannot). Settings ' +
            'are replaced whole. Handing the view to another owner takes an administrator.',
          params: ViewParams,
          querystring: ScopeQuery,
          body: ViewPatch,
          response: { 200: Done },
        },
      },
      async (request) => {
        await views.update(
          request.caller,
          request.params.view_type,
          request.params.view_id,
          request.body,
          request.query.project_name,
        );
        return null;
      },
    );

    app.delete(
      `${BASE}/:view_id`,
      {
        schema: {
          summary: 'Delete a view by its ID.',
          description: 'Its owner may delete a view, and administrators any view.',
          params: ViewParams,
          querystring: ScopeQuery,
          response: { 200: Done },
        },
      },
      async (request) => {
        await views.remove(
          request.caller,
          request.params.view_type,
          request.params.view_id,
          request.query.project_name,
        );
        return null;
      },
    );
  };
}
