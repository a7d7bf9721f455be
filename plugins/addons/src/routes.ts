import { type AddonApp, type AddonInfo, AddonVersionParams, NotFound, requireUser } from '@pipewright/sdk';
import { addonList, findRunning, frontendModules } from './catalog.js';
import {
  AddonList,
  AddonListQuery,
  AddonStaticParams,
  FrontendModuleList,
  FrontendModulesQuery,
} from './schemas.js';
import { locateStaticFile, sendStaticFile, type StaticFolder } from './static-files.js';

/** GET /api/addons and GET /api/frontendModules: what the server runs, for the web app and for clients. */
export function catalogRoutes(
  addons: () => AddonInfo[],
  stagingAddons: () => Promise<Record<string, string | null>>,
) {
  return async (app: AddonApp) => {
    app.get(
      '/api/addons',
      {
        schema: {
          summary: 'List the addons the server knows, with broken ones and why they are broken',
          querystring: AddonListQuery,
          response: { 200: AddonList },
        },
      },
      async (request) => ({
        addons: addonList(addons(), await stagingAddons(), request.query.details === true),
      }),
    );

    app.get(
      '/api/frontendModules',
      {
        schema: {
          summary: 'Module Federation remotes of the running addons',
          querystring: FrontendModulesQuery,
          response: { 200: FrontendModuleList },
        },
      },
      async (request) => frontendModules(addons(), request.query.format ?? 'ayon'),
    );
  };
}

/** /addons/{name}/{version}/frontend|public|private/{path}: the files each running addon ships. */
export function staticFileRoutes(addons: () => AddonInfo[]) {
  return async (app: AddonApp) => {
    const serve = (folder: StaticFolder, loginRequired: boolean) =>
      app.get(
        `/addons/:addon_name/:addon_version/${folder}/*`,
        { schema: { hide: true, params: AddonStaticParams } },
        async (request, reply) => {
          // Before the lookup, so an anonymous caller cannot probe which addons exist.
          if (loginRequired) requireUser(request);
          const { addon_name: name, addon_version: version, '*': path } = request.params;
          const addon = findRunning(addons(), name, version);
          if (!addon) throw new NotFound(`Addon ${name} ${version} is not running on this server`);
          return sendStaticFile(reply, await locateStaticFile(addon, folder, path));
        },
      );

    serve('frontend', false);
    serve('public', false);
    serve('private', true);

    // Without the trailing slash, relative asset URLs in index.html would resolve one folder too high.
    app.get(
      '/addons/:addon_name/:addon_version/frontend',
      { schema: { hide: true, params: AddonVersionParams } },
      async (request, reply) => {
        const [path, query] = request.url.split(/\?(.*)/s, 2);
        return reply.redirect(`${path}/${query ? `?${query}` : ''}`, 301);
      },
    );
  };
}
