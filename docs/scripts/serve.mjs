// npm run serve: the built site on http://127.0.0.1:3000 (PORT to change it).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static-server.mjs';

const site = await serveStatic(join(dirname(fileURLToPath(import.meta.url)), '../out'), {
  port: Number(process.env.PORT ?? 3000),
});
console.log(`Pipewright docs on ${site.url}`);
