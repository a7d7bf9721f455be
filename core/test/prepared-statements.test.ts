import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { prepared } from '@pipewright/sdk';
import { createTestDatabase } from '../src/testing.js';
import { openConfiguredDatabase, type OpenDatabase } from '../src/storage/database.js';

// Statements marked `prepared` keep their plan on each PostgreSQL connection. Proven on PostgreSQL (CI's second
// pass, DATABASE_URL set); on PGlite the mark is only a comment, and the same reads answer the same.
const serverUrl = process.env.DATABASE_URL;

describe('prepared statements', () => {
  let database: OpenDatabase;
  let dataDir: string;
  let drop = async () => {};

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pipewright-prepared-'));
    const created = serverUrl ? await createTestDatabase(serverUrl) : null;
    if (created) drop = () => created.drop();
    database = await openConfiguredDatabase({
      databaseUrl: created?.url ?? null,
      dataDir,
      databasePoolSize: 2,
      statementTimeoutMs: 0,
    });
    await sql`CREATE TABLE shots (id int PRIMARY KEY, name text)`.execute(database.db);
    await sql`INSERT INTO shots VALUES (1, 'sh010'), (2, 'sh020')`.execute(database.db);
  }, 60_000);

  afterAll(async () => {
    await database.close();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const readShot = (id: number) =>
    prepared(sql<Record<string, unknown>>`SELECT * FROM shots WHERE id = ${id}`).execute(database.db);

  it('runs a marked statement as one prepared statement of its connection', async () => {
    expect((await readShot(1)).rows).toEqual([{ id: 1, name: 'sh010' }]);
    await database.db.transaction().execute(async () => {
      // The same connection for the whole transaction: the statement is prepared once, whatever the values.
      expect((await readShot(2)).rows).toEqual([{ id: 2, name: 'sh020' }]);
      expect((await readShot(1)).rows).toEqual([{ id: 1, name: 'sh010' }]);
      if (database.kind !== 'postgres') return;
      const kept = await sql<{ count: number }>`
        SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement LIKE '/* prepared */%shots%'`.execute(
        database.db,
      );
      expect(kept.rows[0].count).toBe(1);
    });
  });

  it('still answers after a migration changes the columns it reads', async () => {
    for (let i = 0; i < 4; i++) await readShot(1); // on both pooled connections
    await sql`ALTER TABLE shots ADD COLUMN frame_start int DEFAULT 1001`.execute(database.db);
    for (let i = 0; i < 4; i++)
      expect((await readShot(1)).rows).toEqual([{ id: 1, name: 'sh010', frame_start: 1001 }]);
  });
});
