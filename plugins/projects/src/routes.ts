import { type AddonApp, excludeNone, JsonObject, NoContent, ProjectParams, Type } from '@pipewright/sdk';
import type { ProjectService } from './service.js';
import {
  Project,
  ProjectCreated,
  ProjectDeploy,
  ProjectList,
  ProjectListQuery,
  ProjectPatch,
  ProjectPut,
  SiteRootParams,
  SiteRoots,
  SiteRootsQuery,
} from './schemas.js';

const PLATFORMS = { win32: 'windows', darwin: 'darwin' } as Record<string, 'windows' | 'darwin'>;

export function projectRoutes(projects: ProjectService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/projects',
      {
        schema: {
          summary: 'List the projects you can see',
          querystring: ProjectListQuery,
          response: { 200: ProjectList },
        },
      },
      async (request) => {
        const { count, projects: items } = await projects.list(request.caller, request.query);
        return { detail: `${count} projects`, count, projects: items };
      },
    );

    app.post(
      '/api/projects',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Deploy a project from an anatomy document or preset',
          body: ProjectDeploy,
          response: { 201: ProjectCreated },
        },
      },
      async (request, reply) => {
        await projects.deploy(request.caller, request.body);
        return reply.code(201).send({ name: request.body.name });
      },
    );

    app.put(
      '/api/projects/:project_name',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Create a project, or replace the fields the body names; a body name is ignored',
          params: ProjectParams,
          body: ProjectPut,
          response: { 201: ProjectCreated, 204: NoContent },
        },
      },
      async (request, reply) => {
        const { name: _ignored, ...fields } = request.body;
        const name = request.params.project_name;
        if (await projects.exists(name)) {
          await projects.replace(request.caller, name, fields);
          return reply.code(204).send(null);
        }
        await projects.create(request.caller, name, fields);
        return reply.code(201).send({ name });
      },
    );

    app.get(
      '/api/projects/:project_name',
      {
        schema: {
          summary: 'One project with its effective attributes',
          params: ProjectParams,
          response: { 200: Project },
        },
      },
      async (request) =>
        excludeNone(
          await projects.present(await projects.requireRow(request.caller, request.params.project_name)),
          ['attrib'],
        ),
    );

    app.patch(
      '/api/projects/:project_name',
      {
        config: { access: 'manager' },
        schema: {
          summary:
            'Change a project: attrib, data and config merge (null removes a key), other fields replace',
          params: ProjectParams,
          body: ProjectPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await projects.patch(request.caller, request.params.project_name, request.body);
      },
    );

    app.delete(
      '/api/projects/:project_name',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Delete a project and everything in it',
          params: ProjectParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await projects.remove(request.caller, request.params.project_name);
      },
    );

    app.get(
      '/api/projects/:project_name/anatomy',
      { schema: { summary: "The project's anatomy", params: ProjectParams, response: { 200: JsonObject } } },
      async (request) => {
        const row = await projects.requireRow(request.caller, request.params.project_name);
        return projects.anatomyOf(row);
      },
    );

    app.post(
      '/api/projects/:project_name/anatomy',
      {
        config: { access: 'manager' },
        schema: {
          summary: "Replace the project's anatomy",
          params: ProjectParams,
          body: JsonObject,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await projects.setLayout(request.caller, request.params.project_name, request.body);
      },
    );

    app.get(
      '/api/projects/:project_name/roots',
      {
        schema: {
          summary: "The project's roots per platform",
          params: ProjectParams,
          response: { 200: Type.Record(Type.String(), JsonObject) },
        },
      },
      async (request) => {
        const row = await projects.requireRow(request.caller, request.params.project_name);
        return (row.config.roots ?? {}) as Record<string, Record<string, unknown>>;
      },
    );

    app.put(
      '/api/projects/:project_name/roots/:site_id',
      {
        schema: {
          summary: 'Set the root paths one site uses for this project',
          params: SiteRootParams,
          body: SiteRoots,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const row = await projects.requireRow(request.caller, request.params.project_name);
        await projects.setSiteRoots(row, request.params.site_id, request.body);
      },
    );

    app.get(
      '/api/projects/:project_name/siteRoots',
      {
        schema: {
          summary:
            'The root paths of the calling site (x-ayon-site-id) on a platform (default: the server platform)',
          params: ProjectParams,
          querystring: SiteRootsQuery,
          response: { 200: Type.Record(Type.String(), Type.String()) },
        },
      },
      async (request) => {
        const row = await projects.requireRow(request.caller, request.params.project_name);
        const siteId =
          typeof request.headers['x-ayon-site-id'] === 'string' ? request.headers['x-ayon-site-id'] : null;
        const platform = request.query.platform ?? PLATFORMS[process.platform] ?? 'linux';
        return projects.rootsOf(row, siteId, platform);
      },
    );
  };
}
