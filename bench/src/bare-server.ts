// The baseline of the concurrency bench: a bare Fastify process doing the least each measured answer needs.
//   GET /info          answers BARE_INFO_BODY (the JSON Pipewright's /api/info answered in the same run)
//   GET /settings      answers the file BARE_SETTINGS_FILE (what Pipewright's /api/settings answered)
//   GET /folders/:id   one SELECT of that folder's row over a pool of DATABASE_POOL_SIZE connections of the same
//                      PostgreSQL database (DATABASE_URL), or over a copy of Pipewright's PGlite data directory
//                      (BARE_PGLITE_DIR: one connection, as Pipewright has).
// Prints "bare listening" once it answers.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';

const port = Number(process.env.PORT);
const infoBody = process.env.BARE_INFO_BODY ?? '{}';
const select = 'SELECT * FROM project_bench.folders WHERE id = $1';

let queryRow: (id: string) => Promise<unknown>;
let close: () => Promise<void>;
if (process.env.DATABASE_URL) {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  });
  queryRow = async (id) => (await pool.query(select, [id])).rows[0];
  close = () => pool.end();
} else {
  const pglite = await PGlite.create({ dataDir: process.env.BARE_PGLITE_DIR });
  queryRow = async (id) => (await pglite.query(select, [id])).rows[0];
  close = () => pglite.close();
}

const app = Fastify({ logger: false });
app.get('/info', (_request, reply) => reply.type('application/json').send(infoBody));
const settingsBody = process.env.BARE_SETTINGS_FILE
  ? readFileSync(process.env.BARE_SETTINGS_FILE, 'utf8')
  : '{}';
app.get('/settings', (_request, reply) => reply.type('application/json').send(settingsBody));
app.get('/folders/:id', async (request, reply) => {
  const row = await queryRow((request.params as { id: string }).id);
  if (!row) return reply.code(404).send({ code: 404, detail: 'Folder not found' });
  return row;
});
await app.listen({ port, host: '127.0.0.1' });
console.log('bare listening');
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(close)
      .then(() => process.exit(0)),
);
