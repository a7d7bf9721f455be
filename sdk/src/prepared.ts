import { sql, type RawBuilder } from 'kysely';

/** The comment that opens a statement PostgreSQL should keep prepared (see `prepared`). */
export const PREPARED_MARK = '/* prepared */ ';

/**
 * Mark a query that runs often with the same text (reads by id on hot routes): on a PostgreSQL server each
 * connection then parses and plans it once and keeps the plan, instead of planning it again on every call, which
 * for a query with lookups costs more than running it. Only for text that does not grow with the input (a list of
 * ids goes in as one array parameter), since every distinct text is kept on every connection. PGlite runs it as usual.
 */
export function prepared<T>(query: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(PREPARED_MARK)}${query}`;
}
