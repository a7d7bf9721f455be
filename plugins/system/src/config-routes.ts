import {
  JsonObject,
  NoContent,
  NotFound,
  Type,
  requireAdmin,
  requireUser,
  type AddonApp,
} from '@pipewright/sdk';
import {
  CONFIG_FILE_TYPES,
  MAX_IMAGE_BYTES,
  mimeOf,
  readImage,
  type ConfigFileStore,
  type ConfigFileType,
} from './config-files.js';
import { ConfigFileParams, ConfigPatch, ConfigValueParams } from './schemas.js';
import { isPublicKey, type ServerConfig, type ServerConfigStore } from './server-config.js';

// AYON lists these routes under Configuration, apart from the other System routes.
const TAGS = ['Configuration'];

export function configRoutes(config: ServerConfigStore, files: ConfigFileStore) {
  // The schema as plain JSON: TypeBox marks its objects with symbols that have no place on the wire.
  const schemaDocument = JSON.parse(JSON.stringify(config.schema)) as Record<string, unknown>;

  /** Change the configuration, then remove the images it no longer points at. */
  async function changeConfig(change: () => Promise<void>): Promise<void> {
    const before = await config.get();
    await change();
    const after = await config.get();
    for (const [fileType, key] of Object.entries(CONFIG_FILE_TYPES) as [
      ConfigFileType,
      'loginBackground' | 'studioLogo',
    ][]) {
      const old = before.customization[key];
      if (old && old !== after.customization[key]) await files.remove(fileType, old);
    }
  }

  return async (app: AddonApp) => {
    app.get(
      '/api/config/schema',
      {
        schema: {
          tags: TAGS,
          summary: 'JSON schema of the server configuration',
          response: { 200: JsonObject },
        },
      },
      async () => schemaDocument,
    );

    app.get(
      '/api/config',
      {
        config: { access: 'admin' },
        schema: {
          tags: TAGS,
          summary: 'The server configuration with defaults filled in (administrators)',
          response: { 200: config.schema },
        },
      },
      async () => config.get(),
    );

    app.post(
      '/api/config',
      {
        config: { access: 'admin' },
        schema: {
          tags: TAGS,
          summary: 'Replace the server configuration; fields left out take their defaults (administrators)',
          body: config.schema,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await changeConfig(() => config.replace(request.body as ServerConfig, request.caller.name));
      },
    );

    app.patch(
      '/api/config',
      {
        config: { access: 'admin' },
        schema: {
          tags: TAGS,
          summary:
            'Change part of the server configuration: objects merge key by key, null restores a default (administrators)',
          body: ConfigPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await changeConfig(() => config.patch(request.body, request.caller.name));
      },
    );

    app.get(
      '/api/config/overrides',
      {
        config: { access: 'admin' },
        schema: {
          tags: TAGS,
          summary:
            'Only the parts of the server configuration that differ from the defaults (administrators)',
          response: { 200: JsonObject },
        },
      },
      async () => config.overrides(),
    );

    app.get(
      '/api/config/value/:key',
      {
        schema: {
          tags: TAGS,
          summary:
            'One configuration value by (dotted) key. studioName and customization are public; the rest needs a login',
          security: [],
          params: ConfigValueParams,
          response: { 200: Type.Unknown({ description: 'The value as JSON' }) },
        },
      },
      async (request, reply) => {
        const { key } = request.params;
        // Before the lookup: whether a key exists is itself not for anonymous callers.
        if (!isPublicKey(key)) requireUser(request);
        const value = await config.value(key);
        // Serialised here: Fastify would send a bare string as text/plain, not as a JSON string.
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
      },
    );

    // Raw image bodies only on the file routes: whatever the client calls them, the bytes decide.
    await app.register(async (scope: AddonApp) => {
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES },
        (_request, body, done) => done(null, body),
      );

      scope.get(
        '/api/config/files/:file_type',
        {
          schema: {
            tags: TAGS,
            summary: 'The login background or studio logo image; 404 when none is set',
            security: [],
            params: ConfigFileParams,
          },
        },
        async (request, reply) => {
          const fileType = request.params.file_type;
          const name = (await config.get()).customization[CONFIG_FILE_TYPES[fileType]];
          const bytes = name ? await files.read(fileType, name) : null;
          if (!name || !bytes) throw new NotFound(`No ${fileType} image is set`);
          return reply
            .type(mimeOf(name))
            .header('cache-control', 'no-cache')
            .header('etag', `"${name}"`)
            .send(bytes);
        },
      );

      scope.put(
        '/api/config/files/:file_type',
        {
          schema: {
            tags: TAGS,
            summary:
              'Upload the login background or studio logo: a PNG, JPEG, GIF or WebP image as the raw body (administrators)',
            params: ConfigFileParams,
            response: { 204: NoContent },
          },
          // Refuse strangers before their upload is read.
          onRequest: async (request) => void requireAdmin(request),
        },
        async (request) => {
          const caller = requireAdmin(request);
          const fileType = request.params.file_type;
          const image = readImage(request.body);
          const name = await files.write(fileType, image);
          const previous = await config.setImage(CONFIG_FILE_TYPES[fileType], name, caller.name);
          if (previous && previous !== name) await files.remove(fileType, previous);
        },
      );
    });
  };
}
