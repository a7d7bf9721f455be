import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AddonApp } from '@pipewright/sdk';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

// GraphiQL and the React it runs on, served from node_modules: the explorer works with no internet access.
const ASSETS: Record<string, { file: () => string; type: string }> = {
  'react.js': {
    file: () => join(packageDir('react'), 'umd/react.production.min.js'),
    type: 'text/javascript',
  },
  'react-dom.js': {
    file: () => join(packageDir('react-dom'), 'umd/react-dom.production.min.js'),
    type: 'text/javascript',
  },
  'graphiql.js': { file: () => join(packageDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript' },
  'graphiql.css': { file: () => join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
};

// The session travels in the accessToken cookie set by the web app's login, or the token typed into headers.
const START = `
    const fetcher = GraphiQL.createFetcher({ url: '/graphql' });
    ReactDOM.createRoot(document.getElementById('explorer')).render(
      React.createElement(GraphiQL, { fetcher, defaultQuery: '{\\n  me {\\n    name\\n  }\\n}\\n' }),
    );
  `;

// The server's policy allows scripts from its own files only; this page's one inline script is allowed by its hash.
const POLICY =
  "default-src 'self'; base-uri 'self'; object-src 'none'; frame-ancestors 'self'; " +
  `script-src 'self' 'sha256-${createHash('sha256').update(START).digest('base64')}'; ` +
  "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:";

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Pipewright GraphQL explorer</title>
  <link rel="stylesheet" href="/graphiql/assets/graphiql.css">
  <style>html, body, #explorer { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="explorer"></div>
  <script src="/graphiql/assets/react.js"></script>
  <script src="/graphiql/assets/react-dom.js"></script>
  <script src="/graphiql/assets/graphiql.js"></script>
  <script>${START}</script>
</body>
</html>`;

/** GET /graphiql: the explorer page and its assets. */
export async function explorerRoutes(app: AddonApp) {
  const cache = new Map<string, Buffer>();
  app.get(
    '/graphiql',
    { schema: { summary: 'GraphiQL explorer for /graphql', hide: true } },
    async (_request, reply) => reply.type('text/html').header('content-security-policy', POLICY).send(PAGE),
  );
  app.get<{ Params: { name: string } }>(
    '/graphiql/assets/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const asset = ASSETS[request.params.name];
      if (!asset) return reply.code(404).send({ code: 404, detail: 'No such explorer asset' });
      let body = cache.get(request.params.name);
      if (!body) cache.set(request.params.name, (body = await readFile(asset.file())));
      return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(body);
    },
  );
}
