import { type AddonApp, CreatedResponse, NoContent, ProjectParams } from '@pipewright/sdk';
import { splitLinkType } from './link-types.js';
import type { LinkService } from './service.js';
import { Link, LinkCreate, LinkParams, LinkTypeList, LinkTypeParams, LinkTypeSave } from './schemas.js';

// AYON's model accepts snake_case names too; these are the ones a client may plausibly send.
const SNAKE = { link_type: 'linkType' } as Record<string, string>;

/** The link type of the wildcard segment, checked by AYON's rule before anything else. */
async function checkLinkType(request: { params: unknown }) {
  splitLinkType(String((request.params as Record<string, unknown>)['*'] ?? ''));
}

export function linkRoutes(links: LinkService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/projects/:project_name/links/types',
      {
        schema: {
          summary: 'The link types of the project',
          params: ProjectParams,
          response: { 200: LinkTypeList },
        },
      },
      async (request) => ({
        types: (await links.listTypes(request.caller, request.params.project_name)).map((type) => ({
          name: type.name,
          linkType: type.link_type,
          inputType: type.input_type,
          outputType: type.output_type,
          data: type.data,
        })),
      }),
    );

    app.put(
      '/api/projects/:project_name/links/types/*',
      {
        // AYON clients may send no body at all for a link type without data.
        preValidation: async (request: { body: unknown; params: unknown }) => {
          await checkLinkType(request);
          if (request.body === undefined || request.body === null) request.body = {};
        },
        schema: {
          summary: 'Create a link type, or replace its data',
          params: LinkTypeParams,
          body: LinkTypeSave,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await links.saveType(
          request.caller,
          request.params.project_name,
          request.params['*'],
          request.body.data ?? {},
        );
      },
    );

    app.delete(
      '/api/projects/:project_name/links/types/*',
      {
        preValidation: checkLinkType,
        schema: {
          summary: 'Delete a link type and every link of that type',
          params: LinkTypeParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await links.deleteType(request.caller, request.params.project_name, request.params['*']);
      },
    );

    app.post(
      '/api/projects/:project_name/links',
      {
        preValidation: async (request: { body: unknown }) => {
          const body = request.body;
          if (!body || typeof body !== 'object' || Array.isArray(body)) return;
          request.body = Object.fromEntries(
            Object.entries(body as Record<string, unknown>).map(([key, value]) => [SNAKE[key] ?? key, value]),
          );
        },
        schema: {
          summary: 'Link two entities with one of the project link types',
          params: ProjectParams,
          body: LinkCreate,
          // 200, not 201: AYON answers a new link with its id and a plain 200.
          response: { 200: CreatedResponse },
        },
      },
      async (request) => ({
        id: await links.create(request.caller, request.params.project_name, request.body),
      }),
    );

    app.get(
      '/api/projects/:project_name/links/:link_id',
      { schema: { summary: 'One link', params: LinkParams, response: { 200: Link } } },
      async (request) => links.get(request.caller, request.params.project_name, request.params.link_id),
    );

    app.delete(
      '/api/projects/:project_name/links/:link_id',
      {
        schema: {
          summary: 'Delete a link: your own, or any as a manager',
          params: LinkParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await links.remove(request.caller, request.params.project_name, request.params.link_id);
      },
    );
  };
}
