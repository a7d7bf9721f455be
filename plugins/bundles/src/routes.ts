import { NoContent, ProjectParams, type AddonApp, type Static } from '@pipewright/sdk';
import type { BundleRecord } from './api.js';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import {
  Bundle,
  BundleAction,
  BundleCreate,
  BundleList,
  BundleParams,
  BundlePatch,
  CheckResult,
  CreateQuery,
  ListQuery,
  PatchQuery,
  ProjectBundles,
} from './schemas.js';
import type { BundleService } from './service.js';

/** A bundle on the wire: AYON leaves out the fields that are null. */
function present(bundle: BundleRecord): Static<typeof Bundle> {
  return {
    name: bundle.name,
    createdAt: bundle.createdAt.toISOString(),
    addons: bundle.addons,
    ...(bundle.installerVersion !== null ? { installerVersion: bundle.installerVersion } : {}),
    dependencyPackages: bundle.dependencyPackages,
    addonDevelopment: bundle.addonDevelopment,
    isProduction: bundle.isProduction,
    isStaging: bundle.isStaging,
    isArchived: bundle.isArchived,
    isDev: bundle.isDev,
    isProject: bundle.isProject,
    ...(bundle.activeUser !== null ? { activeUser: bundle.activeUser } : {}),
  };
}

export function bundleRoutes(bundles: BundleService, projects: ProjectDirectory) {
  return async (app: AddonApp) => {
    // Every logged-in user reads bundles: desktop launchers pick theirs from this list.
    app.get(
      '/api/bundles',
      { schema: { summary: 'List bundles', querystring: ListQuery, response: { 200: BundleList } } },
      async (request) => {
        const list = await bundles.list(request.query.archived);
        const production = list.find((b) => b.isProduction)?.name;
        const staging = list.find((b) => b.isStaging)?.name;
        return {
          bundles: list.map(present),
          ...(production ? { productionBundle: production } : {}),
          ...(staging ? { stagingBundle: staging } : {}),
          devBundles: list.filter((b) => b.isDev).map((b) => b.name),
        };
      },
    );

    app.post(
      '/api/bundles',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Create a bundle (admins)',
          querystring: CreateQuery,
          body: BundleCreate,
          response: { 201: NoContent },
        },
      },
      async (request, reply) => {
        await bundles.create(request.body, request.query.force, { user: request.caller.name });
        // AYON answers this 201 with an empty body, not with JSON null.
        return reply.code(201).send(undefined as unknown as null);
      },
    );

    app.post(
      '/api/bundles/check',
      {
        schema: {
          summary: 'Check whether the addons of a bundle can run together',
          body: BundleCreate,
          response: { 200: CheckResult },
        },
      },
      async (request) => bundles.check(request.body),
    );

    app.post(
      '/api/bundles/:bundle_name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Perform actions on bundles (promote a staging bundle to production; admins)',
          params: BundleParams,
          body: BundleAction,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await bundles.promote(request.params.bundle_name, { user: request.caller.name });
      },
    );

    app.patch(
      '/api/bundles/:bundle_name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Update a bundle (admins)',
          params: BundleParams,
          querystring: PatchQuery,
          body: BundlePatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await bundles.patch(request.params.bundle_name, request.body, request.query.force, {
          user: request.caller.name,
        });
      },
    );

    app.delete(
      '/api/bundles/:bundle_name',
      {
        config: { access: 'admin' },
        schema: { summary: 'Delete a bundle (admins)', params: BundleParams, response: { 204: NoContent } },
      },
      async (request) => {
        await bundles.remove(request.params.bundle_name, { user: request.caller.name });
      },
    );

    // Deprecated in AYON in favour of project bundles chosen per variant; kept for clients that still call it.
    app.post(
      '/api/projects/:project_name/bundles',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Set project bundle [deprecated] (managers)',
          deprecated: true,
          params: ProjectParams,
          body: ProjectBundles,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const choice = Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined));
        if (Object.keys(choice).length === 0) await projects.requireFor(request);
        // A variant set to null is forgotten (the project uses the studio bundle again).
        else {
          const patch = { data: { bundle: choice } };
          await projects.patch(request.caller, request.params.project_name, patch);
        }
      },
    );
  };
}
