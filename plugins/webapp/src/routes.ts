import { existsSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { AddonApp } from '@pipewright/sdk';

/** Where `npm run build -w @pipewright/frontend-host` puts the app. */
export const DIST_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../frontend-host/dist');

// Paths that belong to the server itself: an unknown one must keep answering the core's JSON 404, never the app.
const SERVER_PREFIXES = ['/api', '/addons', '/openapi.json', '/graphql', '/ws'];

/** True for paths the server owns (the prefix itself or anything below it). */
export function isServerPath(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return SERVER_PREFIXES.some(
    (prefix) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`),
  );
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pipewright</title></head>
<body style="font-family: system-ui, sans-serif; background: #1b1d21; color: #e8e8e8; padding: 3rem">
<h1>The web app is not built</h1>
<p>The API is running. To get the web app, run <code>npm run build -w @pipewright/frontend-host</code> and restart the server.</p>
</body></html>
`;

/** @fastify/static, registered by the core, adds sendFile to every reply; the sdk does not declare it. */
interface FileSending {
  sendFile(path: string, root: string, options?: { cacheControl?: boolean }): FastifyReply;
}

/** The built app at /, with index.html for the app's client-side routes, or a hint when it was never built. */
export function webAppRoutes(log: FastifyBaseLogger, dist = DIST_DIR) {
  return async (app: AddonApp) => {
    const built = existsSync(resolve(dist, 'index.html'));
    if (!built)
      log.warn(`web app not built (${dist} is missing): run npm run build -w @pipewright/frontend-host`);

    if (built) {
      // One route per built file, found when the server starts: a rebuild with new chunk names needs a restart,
      // but nothing outside dist/ can ever be reached. decorateReply is off because the core already did it.
      await app.register(fastifyStatic, {
        root: dist,
        prefix: '/',
        wildcard: false,
        decorateReply: false,
        index: false,
        schemaHide: true,
        // Chunk names carry a content hash; index.html names the current ones, so it must always be revalidated.
        cacheControl: false,
        setHeaders(reply, path) {
          reply.header(
            'cache-control',
            path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
          );
        },
      });
    }

    // Static routes (/api/..., /addons/...) win over this wildcard in Fastify's router, so it only sees the
    // GETs nothing else answers. Server paths fall through to the core's JSON 404; a missing file (a path
    // with an extension) is a real 404 too, since answering HTML for a script would only hide the mistake.
    app.get('/*', { schema: { hide: true } }, async (request, reply) => {
      const path = request.url.split('?', 1)[0]!;
      if (isServerPath(path) || extname(path) !== '') return reply.callNotFound();
      if (!built) return reply.code(200).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      reply.header('cache-control', 'no-cache');
      return (reply as FastifyReply & FileSending).sendFile('index.html', dist, { cacheControl: false });
    });
  };
}
