import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import {
  attachment,
  BadRequest,
  NoContent,
  downloadUrl,
  NotFound,
  requireAdmin,
  type AddonApp,
  type TSchema,
} from '@pipewright/sdk';
import type { UrlDownloads } from './downloads.js';
import type { DesktopFiles } from './files.js';
import {
  DependencyPackage,
  DependencyPackageInput,
  DependencyPackageList,
  FilenameParams,
  Installer,
  InstallerInput,
  InstallerList,
  InstallerQuery,
  RegisterQuery,
  RegisterResponse,
  SourcesPatch,
  type Platform,
} from './schemas.js';
import { toWire, type PackageStore } from './service.js';

/** @fastify/static, registered by the core, adds sendFile to every reply; the sdk does not declare it. */
interface FileSending {
  sendFile(
    path: string,
    root: string,
    options: { cacheControl: boolean; contentType: boolean },
  ): FastifyReply;
}

interface Deps {
  /** The installer version the production or staging bundle names. */
  bundleInstallerVersion(variant: 'production' | 'staging'): Promise<string | null>;
  files: DesktopFiles;
  downloads: UrlDownloads;
  installers: PackageStore<InstallerInput>;
  packages: PackageStore<DependencyPackageInput>;
}

/** How one of the two areas is exposed: its path, list key and schemas. */
interface Area {
  store: PackageStore<any>;
  path: string;
  /** Plural for summaries. */
  things: string;
  input: TSchema;
}

const TAGS = ['Desktop'];

export function desktopRoutes({ bundleInstallerVersion, files, downloads, installers, packages }: Deps) {
  const areas: Area[] = [
    { store: installers, path: '/api/desktop/installers', things: 'installers', input: InstallerInput },
    {
      store: packages,
      path: '/api/desktop/dependencyPackages',
      things: 'dependency packages',
      input: DependencyPackageInput,
    },
  ];

  return async (app: AddonApp) => {
    app.get(
      '/api/desktop/installers',
      {
        schema: {
          tags: TAGS,
          summary:
            'Installers of the desktop launcher, optionally of one version, platform or bundle variant',
          querystring: InstallerQuery,
          response: { 200: InstallerList },
        },
      },
      async (request) => {
        const { platform, variant } = request.query;
        let version = request.query.version;
        if (variant) {
          // The installer the production (or staging) bundle names; a bundle naming none has none to offer.
          const named = await bundleInstallerVersion(variant);
          if (named === null) return { installers: [] };
          version = named;
        }
        const records = await installers.list({ version, platform: platform as Platform | undefined });
        return { installers: records.map((record) => toWire(record) as Installer) };
      },
    );

    app.get(
      '/api/desktop/dependencyPackages',
      {
        schema: {
          tags: TAGS,
          summary: 'Return a list of dependency packages',
          response: { 200: DependencyPackageList },
        },
      },
      async () => ({
        packages: (await packages.list()).map((record) => toWire(record) as DependencyPackage),
      }),
    );

    for (const { store, path, things, input } of areas) {
      const { label } = store.kind;

      app.post(
        path,
        {
          config: { access: 'admin' },
          schema: {
            tags: TAGS,
            summary: `Register one of the ${things} (administrators); upload its file with PUT afterwards, or give a url to fetch it from`,
            querystring: RegisterQuery,
            body: input,
            response: { 201: RegisterResponse },
          },
        },
        async (request, reply) => {
          const body = request.body as { filename: string };
          const query = request.query;
          // Refused before anything is registered: only http and https URLs are fetched.
          if (query.url) downloadUrl(query.url, ['query', 'url']);
          await store.register(body as never, {
            force: Boolean(query.force || query.overwrite),
            user: request.caller.name,
          });
          const eventId = query.url
            ? await downloads.start(store, body.filename, query.url, request.caller.name)
            : null;
          return reply.code(201).send({ eventId });
        },
      );

      app.get(
        `${path}/:filename`,
        {
          schema: {
            tags: TAGS,
            summary: `Download one of the ${things}`,
            params: FilenameParams,
            produces: ['application/octet-stream'],
          },
        },
        async (request, reply) => {
          const { filename } = request.params;
          const record = await store.require(filename);
          if (!record.uploaded)
            throw new NotFound(`${label} ${filename} has not been uploaded to the server`);
          if ((await files.size(store.kind.area, filename)) === null)
            throw new NotFound(
              `${label} ${filename} is registered as uploaded, but its file is missing on the server`,
            );
          reply
            .header('content-type', 'application/octet-stream')
            .header('content-disposition', attachment(filename));
          return (reply as FastifyReply & FileSending).sendFile(filename, files.directory(store.kind.area), {
            cacheControl: false,
            contentType: false,
          });
        },
      );

      app.patch(
        `${path}/:filename`,
        {
          config: { access: 'admin' },
          schema: {
            tags: TAGS,
            summary: `Replace the download sources of one of the ${things} (administrators)`,
            params: FilenameParams,
            body: SourcesPatch,
            response: { 204: NoContent },
          },
        },
        async (request) => {
          await store.setSources(request.params.filename, request.body.sources);
        },
      );

      app.delete(
        `${path}/:filename`,
        {
          config: { access: 'admin' },
          schema: {
            tags: TAGS,
            summary: `Delete one of the ${things} and its uploaded file (administrators)`,
            params: FilenameParams,
            response: { 204: NoContent },
          },
        },
        async (request) => {
          await store.remove(request.params.filename);
        },
      );
    }

    // Uploads are the raw body, whatever content type the client names, and can be far larger than memory: this
    // scope has a single parser that hands the request stream over unread (no body limit applies to it), and the
    // route writes it to disk chunk by chunk.
    await app.register(async (scope: AddonApp) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

      for (const { store, path, things } of areas) {
        const { label } = store.kind;
        scope.put(
          `${path}/:filename`,
          {
            schema: {
              tags: TAGS,
              summary: `Upload the file of one of the registered ${things}: the raw body (administrators). Its size and checksum must be the declared ones`,
              params: FilenameParams,
              consumes: ['application/octet-stream'],
              response: { 204: NoContent },
            },
            // Refuse strangers before anything of their upload is read.
            onRequest: async (request) => void requireAdmin(request),
          },
          async (request) => {
            requireAdmin(request);
            const { filename } = request.params;
            // AYON, too, takes files only for registered names: register first, then upload.
            const algorithm = await store.uploadAlgorithm(filename);
            const body = request.body as Readable | undefined;
            if (!body) throw new BadRequest(`Empty file: nothing was uploaded for ${label} ${filename}`);
            const received = await files.receive(body, algorithm);
            if (received.size === 0) {
              await files.discard(received);
              throw new BadRequest(`Empty file: nothing was uploaded for ${label} ${filename}`);
            }
            await store.acceptUpload(filename, received);
          },
        );
      }
    });
  };
}
