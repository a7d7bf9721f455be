import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from 'kysely';
import { bootTestCore, type TestCore } from '../src/testing.js';
import { startHousekeeping, type Housekeeping } from '../src/storage/housekeeping.js';

// The embedded database has no autovacuum: housekeeping stands in for it. Runs on either storage (on a PostgreSQL
// server the server's own autovacuum may get there first, which the assertions allow for).
let core: TestCore;
let housekeeping: Housekeeping;

beforeAll(async () => {
  core = await bootTestCore({ addons: [] });
  housekeeping = startHousekeeping(core.db, core.app.log);
});

afterAll(async () => {
  await housekeeping.stop();
  await core.close();
});

// A connection hands its statistics on at most once a second: the writes below ask for it at once
// (pg_stat_force_next_flush, in their own transaction, as a pool may answer the next query on another connection).
const stats = async (table: string) => {
  const { rows } = await sql<{
    dead: number;
    vacuumed: boolean;
    analyzed: boolean;
    reltuples: number;
  }>`SELECT s.n_dead_tup::int AS dead, (s.last_vacuum IS NOT NULL OR s.last_autovacuum IS NOT NULL) AS vacuumed,
      (s.last_analyze IS NOT NULL OR s.last_autoanalyze IS NOT NULL) AS analyzed, c.reltuples::int AS reltuples
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.schemaname = 'public' AND s.relname = ${table}`.execute(core.db);
  return rows[0];
};

describe('housekeeping of the embedded database', () => {
  it('vacuums and analyzes a table past the thresholds, and then leaves it be', async () => {
    await core.db.transaction().execute(async (trx) => {
      await sql`CREATE TABLE shots_hk (id int PRIMARY KEY, frame_end int)`.execute(trx);
      await sql`INSERT INTO shots_hk SELECT g, 1100 FROM generate_series(1, 5000) g`.execute(trx);
    });
    await core.db.transaction().execute(async (trx) => {
      await sql`UPDATE shots_hk SET frame_end = 1200 WHERE id <= 2000`.execute(trx);
      await sql`SELECT pg_stat_force_next_flush()`.execute(trx);
    });
    await sql`SELECT pg_stat_force_next_flush()`.execute(core.db);
    const before = await stats('shots_hk');
    expect(before.dead).toBeGreaterThan(0);

    const done = await housekeeping.pass();
    const after = await stats('shots_hk');
    if (!before.vacuumed) expect(done).toContain('public.shots_hk');
    expect(after).toMatchObject({ dead: 0, vacuumed: true, analyzed: true, reltuples: 5000 });

    await sql`SELECT pg_stat_force_next_flush()`.execute(core.db);
    expect(await housekeeping.pass()).not.toContain('public.shots_hk');
  });

  it('is started by a server on the embedded database only', () => {
    expect(core.housekeeping !== null).toBe(core.database.kind === 'pglite');
  });

  it('passes over a few changes, as autovacuum would', async () => {
    await sql`CREATE TABLE notes_hk (id int PRIMARY KEY)`.execute(core.db);
    await sql`INSERT INTO notes_hk SELECT g FROM generate_series(1, 20) g`.execute(core.db);
    await sql`SELECT pg_stat_force_next_flush()`.execute(core.db);
    expect(await housekeeping.pass()).not.toContain('public.notes_hk');
    expect(await stats('notes_hk')).toMatchObject({ vacuumed: false, analyzed: false });
  });
});
