import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@pipewright/sdk';

// PGlite runs PostgreSQL without its background workers, so nothing vacuums or analyzes the embedded database:
// the dead row versions every update leaves behind would pile up for good, and the planner would never have
// statistics. Housekeeping does autovacuum's job there, on autovacuum's own default thresholds, a table at a time.

// As autovacuum_naptime: how often the tables are looked at.
const INTERVAL_MS = 60_000;

/**
 * The tables past autovacuum's thresholds: dead rows, rows inserted since the last vacuum (both call for a vacuum),
 * rows changed since the last analyze.
 */
async function tablesDue(db: Database) {
  const { rows } = await sql<{ name: string; vacuum: boolean }>`
    SELECT name, vacuum FROM (
      SELECT format('%I.%I', s.schemaname, s.relname) AS name,
        s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
          OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) AS vacuum,
        s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) AS stale
      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    ) due
    WHERE vacuum OR stale
    ORDER BY name`.execute(db);
  return rows;
}

export interface Housekeeping {
  /** Vacuum and analyze what is due now; answers the tables it worked on. */
  pass(): Promise<string[]>;
  /** No more passes; waits for one under way. */
  stop(): Promise<void>;
}

/** Looks at the tables every minute; a pass runs its statements through the pool like any request. */
export function startHousekeeping(db: Database, log: FastifyBaseLogger): Housekeeping {
  let running: Promise<string[]> | null = null;
  const pass = () =>
    (running ??= (async () => {
      const done: string[] = [];
      try {
        for (const { name, vacuum } of await tablesDue(db)) {
          // name is quoted by format('%I.%I'), from the catalogue. A table dropped meanwhile (a project deleted)
          // is no reason to leave the others.
          await sql
            .raw(`${vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE'} ${name}`)
            .execute(db)
            .then(
              () => done.push(name),
              (error) => log.debug({ err: error, table: name }, 'housekeeping skipped a table'),
            );
        }
        if (done.length) log.debug({ tables: done }, 'housekeeping: vacuumed and analyzed');
        return done;
      } finally {
        running = null;
      }
    })());
  const timer = setInterval(() => {
    pass().catch((error) => log.warn({ err: error }, 'housekeeping pass failed'));
  }, INTERVAL_MS);
  timer.unref();
  return {
    pass,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
