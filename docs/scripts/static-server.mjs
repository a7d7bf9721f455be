// A tiny static file server for out/, mapping addresses the way a static host (nginx try_files, GitHub Pages,
// S3 website hosting) does: /x -> x.html or x/index.html, /x/ -> x/index.html or x.html, otherwise 404.html with
// status 404. Used by the end-to-end tests and by `npm run serve`.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pf_meta': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pagefind': 'application/octet-stream',
};

async function isFile(path) {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Candidate files for a URL path, in the order a static host tries them. */
export function candidates(pathname) {
  const clean = pathname.replace(/\/+$/, '');
  if (pathname.endsWith('/')) return [`${clean}/index.html`, `${clean}.html`];
  return [pathname, `${pathname}.html`, `${pathname}/index.html`];
}

/**
 * Serve root on host:port (0 picks a free port). `proxy` maps a path prefix to another origin, e.g.
 * {'/pipewright': 'http://127.0.0.1:5000'}, the way a reverse proxy in front of docs and server would.
 */
export async function serveStatic(root, { port = 0, host = '127.0.0.1', proxy = {} } = {}) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://localhost');
      for (const [prefix, origin] of Object.entries(proxy)) {
        if (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)) {
          const upstream = await fetch(origin + url.pathname.slice(prefix.length) + url.search, {
            method: request.method,
          });
          response.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
          });
          response.end(Buffer.from(await upstream.arrayBuffer()));
          return;
        }
      }
      const pathname = decodeURIComponent(url.pathname);
      for (const candidate of candidates(pathname)) {
        const file = normalize(join(base, candidate));
        if (!file.startsWith(base)) break;
        if (await isFile(file)) {
          response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
          response.end(await readFile(file));
          return;
        }
      }
      response.writeHead(404, { 'content-type': TYPES['.html'] });
      response.end(await readFile(join(base, '404.html')));
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    }
  });
  await new Promise((ok) => server.listen(port, host, ok));
  const address = server.address();
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
