import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGlite, types } from '@electric-sql/pglite';
import { PGliteDialect, PostgresDialect } from 'kysely';
import { prepareMarkedStatements } from './prepared-statements.js';
import { unitOfWorkDatabase, type Database } from '@pipewright/sdk';

// Node 24.21's V8 can free a wasm import wrapper twice when wasm code GC races a tier-up (nodejs/node#66366): the
// process dies on "Check failed: jit_page_->allocations_.erase(addr) == 1". PGlite is wasm, so its dead code is
// kept instead; a server opens one PGlite for its whole life, so nothing piles up. (Node refuses this flag in
// NODE_OPTIONS; set here, before any PGlite exists, it holds for the process.)
setFlagsFromString('--no-wasm-code-gc');

const INT8 = 20;
const UUID = 2950;

// Ids travel as 32 hex characters; counts as numbers. Both drivers get the same parsers so the SQL and the
// results are identical on PGlite and on a PostgreSQL server.
const parseInt8 = (value: string) => Number(value);
const parseUuid = (value: string) => value.replaceAll('-', '');
// Bytes given for a jsonb parameter are its binary form (see insertJsonRows) and go as they are, as with pg.
const jsonb = types.serializers[types.JSONB];

/** An open database with what the core needs to manage it. */
export interface OpenDatabase {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Free connections left in the pool (PGlite has one, shared). */
  idleConnections(): number;
  close(): Promise<void>;
}

/**
 * The embedded database: PGlite persisted in a folder, or in memory when no folder is given. sharedBuffers (e.g.
 * '16MB') overrides PostgreSQL's 128MB, which PGlite zeroes at every start: half of its start-up time.
 */
export async function openPGlite(
  options: { dataDir?: string; loadDataDir?: Blob; sharedBuffers?: string } = {},
): Promise<OpenDatabase> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    startParams: options.sharedBuffers
      ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`]
      : undefined,
    parsers: { [INT8]: parseInt8, [UUID]: parseUuid },
    serializers: {
      [types.JSONB]: (value: unknown) => (value instanceof Uint8Array ? value : jsonb(value)) as string,
    },
  });
  const db = unitOfWorkDatabase(new PGliteDialect({ pglite }), { singleConnection: true });
  return {
    db,
    kind: 'pglite',
    idleConnections: () => 1,
    close: () => db.destroy(),
  };
}

/** A PostgreSQL server through a node-postgres pool; statementTimeoutMs (0: none) applies to every connection. */
export async function openPostgres(
  url: string,
  poolSize: number,
  options: { statementTimeoutMs?: number } = {},
): Promise<OpenDatabase> {
  // Loaded only for a PostgreSQL server, as Redis is: a process on PGlite never needs the driver.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Sent when each connection opens, so the server cancels any statement that runs longer (SQLSTATE 57014).
    statement_timeout: options.statementTimeoutMs || undefined,
    idleTimeoutMillis: 20_000,
    connectionTimeoutMillis: 20_000,
    types: {
      getTypeParser: ((oid: number, format?: any) => {
        if (oid === INT8) return parseInt8;
        if (oid === UUID) return parseUuid;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server ends (restart, failover, a dropped database) is discarded by the pool and the
  // next query opens a new one; without a listener the pool's 'error' event would crash the process.
  pool.on('error', () => {});
  pool.on('connect', prepareMarkedStatements);
  const db = unitOfWorkDatabase(new PostgresDialect({ pool }), { singleConnection: false });
  return {
    db,
    kind: 'postgres',
    idleConnections: () => pool.options.max - pool.totalCount + pool.idleCount,
    close: () => db.destroy(),
  };
}

/**
 * The database the configuration names: DATABASE_URL, else PGlite under DATA_DIR/pglite. The statement timeout
 * (STATEMENT_TIMEOUT) holds on PostgreSQL only: PGlite 0.5 accepts `SET statement_timeout` but never cancels
 * (its single-threaded WebAssembly build has no timer to interrupt a statement: `SELECT pg_sleep(2)` under a 500 ms
 * timeout runs its full 2 s), so it is not set there.
 */
export function openConfiguredDatabase(config: {
  databaseUrl: string | null;
  dataDir: string;
  databasePoolSize: number;
  statementTimeoutMs: number;
}) {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.databasePoolSize, {
        statementTimeoutMs: config.statementTimeoutMs,
      })
    : openPGlite({ dataDir: join(config.dataDir, 'pglite') });
}
