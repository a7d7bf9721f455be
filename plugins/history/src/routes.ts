import { Readable } from 'node:stream';
import { Id, PROJECT_ENTITY_TYPES, ProjectParams, Type, type AddonApp } from '@pipewright/sdk';
import { EXPORT_TYPES, exportLines } from './export.js';
import {
  EntityHistoryPage,
  EntityHistoryQuery,
  ExportQuery,
  LatestAnswer,
  LatestRequest,
} from './schemas.js';
import type { HistoryService } from './service.js';

/** The routes of field history: an entity's changes, the last change per field of a page, a project's export. */
export function historyRoutes(history: HistoryService) {
  return async (app: AddonApp) => {
    for (const type of PROJECT_ENTITY_TYPES) {
      const idParam = `${type}_id`;
      app.get(
        `/api/projects/:project_name/${type}s/:${idParam}/history`,
        {
          schema: {
            summary: `Changes of a ${type}, field by field`,
            description:
              'Newest first, one entry per changed field (attributes as attrib.<name>), with who made the ' +
              'change, how they were signed in, the client and when; created and deleted mark the ' +
              `${type}'s own creation and deletion. A deleted ${type}'s history is kept, for managers.`,
            params: Type.Object({ project_name: ProjectParams.properties.project_name, [idParam]: Id }),
            querystring: EntityHistoryQuery,
            response: { 200: EntityHistoryPage },
          },
        },
        async (request) => {
          const params = request.params as Record<string, string>;
          const { field, ...page } = request.query;
          return history.ofEntity(request.caller, params.project_name!, type, params[idParam]!, {
            ...page,
            fields: field,
          });
        },
      );
    }

    app.post(
      '/api/projects/:project_name/history/latest',
      {
        schema: {
          summary: 'The last change of each field of some entities',
          description:
            'For a page of entities of one type (a grid): the newest change of each of their fields, or of the ' +
            'fields named; entities the caller may not read are left out.',
          params: ProjectParams,
          body: LatestRequest,
          response: { 200: LatestAnswer },
        },
      },
      async (request) => {
        const { entityType, entityIds, fields } = request.body;
        return {
          changes: await history.latest(
            request.caller,
            request.params.project_name,
            entityType,
            entityIds,
            fields,
          ),
        };
      },
    );

    app.get(
      '/api/projects/:project_name/history/export',
      {
        config: { access: 'manager' },
        schema: {
          summary: "Export a project's field history",
          description:
            'Every recorded change, oldest first, streamed as JSON lines or CSV; narrowed by entity type, ' +
            'fields and a time window (since inclusive, until exclusive). Managers only.',
          params: ProjectParams,
          querystring: ExportQuery,
        },
      },
      async (request, reply) => {
        const { format, field, since, until, entityType } = request.query;
        const pages = history.export(request.caller, request.params.project_name, {
          entityType,
          fields: field,
          since: since ? new Date(since) : undefined,
          until: until ? new Date(until) : undefined,
        });
        return reply
          .type(EXPORT_TYPES[format])
          .header(
            'content-disposition',
            `attachment; filename="${request.params.project_name}-history.${format}"`,
          )
          .send(Readable.from(exportLines(pages, format)));
      },
    );
  };
}
