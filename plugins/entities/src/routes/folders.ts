import { type AddonApp, ProjectParams, type Static } from '@pipewright/sdk';
import type { TreeFilter } from '../read/hierarchy.js';
import type { EntityService } from '../service.js';
import { FolderList, FolderListQuery, HierarchyQuery } from './schemas.js';

/** The flat folder list and the folder hierarchy: whole project trees, answered as JSON bytes. */
export function folderTreeRoutes(service: EntityService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/projects/:project_name/folders',
      {
        schema: {
          summary: 'Every active folder of the project, flat, with paths and task names',
          params: ProjectParams,
          querystring: FolderListQuery,
          response: { 200: FolderList },
        },
      },
      async (request, reply) => {
        // Written as JSON bytes already (FolderList's shape): Fastify sends a Buffer as it is.
        const body: unknown = await service.folderList(
          request.caller,
          request.params.project_name,
          request.query.attrib,
        );
        return reply.type('application/json; charset=utf-8').send(body as Static<typeof FolderList>);
      },
    );

    app.get(
      '/api/projects/:project_name/hierarchy',
      {
        schema: {
          summary: 'The folder tree; search and types keep matching folders and their ancestors',
          params: ProjectParams,
          querystring: HierarchyQuery,
        },
      },
      async (request, reply) => {
        const types = request.query.types
          ?.split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        const search = request.query.search?.toLowerCase() || undefined;
        const filter: TreeFilter | undefined = types?.length || search ? { types, search } : undefined;
        const body = await service.hierarchy(request.caller, request.params.project_name, filter);
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  };
}
