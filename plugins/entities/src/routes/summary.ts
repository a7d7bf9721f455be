import { type AddonApp, ProjectParams } from '@pipewright/sdk';
import type { EntityService } from '../service.js';
import { ProductTypes, ProjectStats, ProjectTags } from './schemas.js';

/** What a project holds, counted and listed across the entity tables. */
export function projectSummaryRoutes(service: EntityService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/projects/:project_name/stats',
      {
        schema: {
          summary: 'How many entities of each type the project holds, and in which statuses',
          params: ProjectParams,
          response: { 200: ProjectStats },
        },
      },
      async (request) => (await service.stats(request.caller, request.params.project_name)) as any,
    );

    app.get(
      '/api/projects/:project_name/tags',
      {
        schema: {
          summary: 'Tags in use, per entity type',
          params: ProjectParams,
          response: { 200: ProjectTags },
        },
      },
      async (request) => (await service.tags(request.caller, request.params.project_name)) as any,
    );

    app.get(
      '/api/projects/:project_name/productTypes',
      {
        schema: {
          summary: 'Product types used in the project, with their appearance',
          params: ProjectParams,
          response: { 200: ProductTypes },
        },
      },
      async (request) => ({
        productTypes: await service.productTypesFor(request.caller, request.params.project_name),
      }),
    );
  };
}
