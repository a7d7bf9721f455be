import { type AddonApp, ProjectParams, Type } from '@pipewright/sdk';
import { platformOf } from '../read/resolve.js';
import type { EntityService } from '../service.js';
import {
  RepreContextAnswer,
  RepreContextRequest,
  ResolvedUri,
  ResolveQuery,
  ResolveRequest,
  TasksFoldersAnswer,
  TasksFoldersQuery,
  UrisRequest,
  UrisResponse,
} from './schemas.js';

/** POST /api/resolve, /api/projects/{p}/uris, /tasksFolders and /repreContextFilter. */
export function resolveRoutes(service: EntityService) {
  return async (app: AddonApp) => {
    app.post(
      '/api/resolve',
      {
        schema: {
          summary: 'Resolve ayon+entity:// URIs to entities and file paths; problems are reported per URI',
          querystring: ResolveQuery,
          body: ResolveRequest,
          response: { 200: Type.Array(ResolvedUri) },
        },
      },
      async (request) => {
        const siteHeader = request.headers['x-ayon-site-id'];
        return service.resolve(request.caller, request.body.uris, {
          pathOnly: request.query.pathOnly,
          platform: platformOf(request.headers['x-ayon-platform']),
          resolveRoots: request.body.resolveRoots,
          siteId: typeof siteHeader === 'string' && siteHeader ? siteHeader : null,
        });
      },
    );

    app.post(
      '/api/projects/:project_name/uris',
      {
        schema: {
          summary: 'The ayon+entity:// URI of each entity; unknown ids are left out',
          params: ProjectParams,
          body: UrisRequest,
          response: { 200: UrisResponse },
        },
      },
      async (request) => {
        const { entityType, ids } = request.body;
        return { uris: await service.uris(request.caller, request.params.project_name, entityType, ids) };
      },
    );

    app.post(
      '/api/projects/:project_name/tasksFolders',
      {
        schema: {
          summary: 'Ids of the folders holding tasks that match a filter over task fields and a search text',
          params: ProjectParams,
          body: TasksFoldersQuery,
          response: { 200: TasksFoldersAnswer },
        },
      },
      async (request) => {
        const { filter, search } = request.body;
        return {
          folderIds: await service.tasksFolders(request.caller, request.params.project_name, filter, search),
        };
      },
    );

    app.post(
      '/api/projects/:project_name/repreContextFilter',
      {
        schema: {
          summary: 'Representations by name, version and values in data.context (at most 1000)',
          params: ProjectParams,
          body: RepreContextRequest,
          response: { 200: RepreContextAnswer },
        },
      },
      async (request) =>
        service.representationsInContext(request.caller, request.params.project_name, request.body),
    );
  };
}
