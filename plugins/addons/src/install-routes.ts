import { type AddonApp, AddonVersionParams, BadRequest } from '@pipewright/sdk';
import { MAX_PACKAGE_BYTES, type AddonInstaller } from './installer.js';
import { AddonNameParams, DeleteAddonQuery, InstallAnswer, InstallList, InstallQuery } from './schemas.js';

/** Install (a zip body or ?url=), list installs, delete installed versions: administrators only. */
export function installRoutes(installer: AddonInstaller) {
  return async (app: AddonApp) => {
    // The package is the raw body whatever content type the client names (AYON's client sends it with its
    // session's "application/json"): registered apart so the other routes keep JSON.
    await app.register(async (upload: AddonApp) => {
      upload.removeAllContentTypeParsers();
      upload.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: MAX_PACKAGE_BYTES },
        (_req, body, done) => done(null, body),
      );
      upload.post(
        '/api/addons/install',
        {
          config: { access: 'admin' },
          schema: {
            summary: 'Install an addon package (a zip body, or ?url=); it runs at once, without a restart',
            description:
              'A Pipewright package (manifest.json) or an AYON one (package.py): an AYON package installs with its ' +
              'client files served, its Python server code kept but not run.',
            querystring: InstallQuery,
            response: { 200: InstallAnswer },
          },
        },
        async (request) => {
          const user = request.caller;
          if (request.query.url)
            return { eventId: await installer.installFromUrl(request.query.url, user.name) };
          if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
            throw new BadRequest('Send the addon zip as the request body, or give ?url=');
          }
          return { eventId: await installer.installZip(request.body, user.name) };
        },
      );
    });

    app.get(
      '/api/addons/install',
      {
        config: { access: 'admin' },
        schema: { summary: 'Addon installs, newest first', response: { 200: InstallList } },
      },
      async () => ({ items: await installer.recentInstalls(), restartRequired: false }),
    );

    app.delete(
      '/api/addons/:addon_name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Delete every installed version of an addon',
          params: AddonNameParams,
          querystring: DeleteAddonQuery,
          response: { 204: { type: 'null' } },
        },
      },
      async (request) => {
        await installer.remove(request.caller.name, request.params.addon_name);
      },
    );

    app.delete(
      '/api/addons/:addon_name/:addon_version',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Delete one installed version of an addon',
          params: AddonVersionParams,
          querystring: DeleteAddonQuery,
          response: { 204: { type: 'null' } },
        },
      },
      async (request) => {
        const { addon_name, addon_version } = request.params;
        await installer.remove(request.caller.name, addon_name, addon_version);
      },
    );
  };
}
