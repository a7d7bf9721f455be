import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { NotFound, type AddonApp } from '@pipewright/sdk';
import type { FastifyRequest } from 'fastify';
import { TIMEOUTS, type AyonHost } from './host.js';
import type { PackageDescription } from './description.js';
import { userForAddon } from './python-actions.js';

// The endpoints an AYON package declares with add_endpoint, served under /api/addons/{name}/{version}/ as AYON does.
// The request is handed to the sidecar as it came (path and query values, headers, the raw body) with the caller;
// the package's handler answers JSON, a file of the package, or raw bytes.

/** What the sidecar answers for an endpoint call (README.md, method endpoint). */
interface EndpointAnswer {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  file?: string;
  bodyBase64?: string;
}

/** Path segments AYON keeps for the settings routes: an endpoint may not take them. */
const RESERVED = new Set(['settings', 'schema', 'overrides', 'rawOverrides', 'siteSettings']);
/** Request headers addon code may see: never the caller's credentials. */
const HIDDEN_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

/** AYON declares path parameters as {name}; Fastify spells them :name. */
const routePath = (path: string) => '/' + path.replace(/^\/+/, '').replace(/\{([^}]+)\}/g, ':$1');

function queryValues(query: unknown): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    values[key] = (Array.isArray(value) ? value : [value]).map(String);
  }
  return values;
}

function visibleHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.headers)) {
    if (!HIDDEN_HEADERS.has(key) && value !== undefined) headers[key] = String(value);
  }
  return headers;
}

export function packageEndpoints(host: AyonHost, description: PackageDescription, directory: string) {
  const { name, version } = description;
  return async (app: AddonApp) => {
    // The handler reads the body as it chooses (JSON, a file upload): it is passed on as bytes.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    for (const endpoint of description.endpoints) {
      if (RESERVED.has(endpoint.path.replace(/^\/+/, '').split('/')[0]!)) {
        app.log.warn(
          `${name} ${version}: endpoint ${endpoint.path} is refused (AYON reserves its first segment)`,
        );
        continue;
      }
      app.route({
        method: endpoint.method.toUpperCase() as 'GET',
        url: routePath(endpoint.path),
        // Whether a caller must be logged in is the handler's own choice (CurrentUser), as in AYON.
        schema: { summary: endpoint.description || `${description.title} ${endpoint.name}`, security: [] },
        handler: async (request, reply) => {
          const body = request.body as Buffer | undefined;
          const answer = await host.call<EndpointAnswer>(
            name,
            version,
            'endpoint',
            {
              method: request.method,
              path: endpoint.path,
              pathParams: request.params,
              query: queryValues(request.query),
              headers: visibleHeaders(request),
              body: body?.length ? body.toString('base64') : null,
              user: userForAddon(request.user),
            },
            { user: request.user },
            TIMEOUTS.endpoint,
          );
          reply.code(answer.status);
          for (const [header, value] of Object.entries(answer.headers ?? {})) {
            if (header.toLowerCase() !== 'content-length') reply.header(header, value);
          }
          if (answer.file !== undefined) return reply.send(await packageFile(directory, answer.file));
          if (answer.bodyBase64 !== undefined) return reply.send(Buffer.from(answer.bodyBase64, 'base64'));
          if (answer.status === 204) return reply.send();
          return reply.type('application/json').send(JSON.stringify(answer.json ?? null));
        },
      });
    }
  };
}

/** A file the handler answers with: only from the package's own folder, whatever path the sidecar names. */
async function packageFile(directory: string, file: string) {
  const root = resolve(directory);
  const path = resolve(root, file);
  if (!path.startsWith(root + sep) || !(await stat(path).catch(() => null))?.isFile()) {
    throw new NotFound('File not found');
  }
  return createReadStream(path);
}
