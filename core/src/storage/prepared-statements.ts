import { createHash } from 'node:crypto';
import type pg from 'pg';
import { PREPARED_MARK } from '@pipewright/sdk';

// PostgreSQL will not run a prepared statement whose result columns changed since it was prepared (a migration
// added a column to a table it reads with *): SQLSTATE 0A000 with this message.
const RESULT_TYPE_CHANGED = 'cached plan must not change result type';
// Every distinct text is kept on every connection: past this many, marked statements run unnamed again.
const MAX_STATEMENTS = 200;

/** The statement name of each marked text; a text PostgreSQL refused gets a new name (a new generation). */
const names = new Map<string, string>();
let generation = 0;

function nameOf(text: string): string | null {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_STATEMENTS) return null;
    name = `pw_${createHash('sha1').update(text).digest('hex').slice(0, 20)}_${generation}`;
    names.set(text, name);
  }
  return name;
}

type Query = (...args: unknown[]) => Promise<pg.QueryResult>;

/**
 * Statements marked with the sdk's `prepared` run on this connection as named prepared statements: parsed and
 * planned once per connection, not on every call. When a schema change makes PostgreSQL refuse one, it is prepared
 * again under a new name and, outside a transaction, run again; inside one the refusal has already aborted the
 * caller's transaction, which fails as any failed statement makes it.
 */
export function prepareMarkedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  const run = async (text: string, values: unknown[]) => {
    const name = nameOf(text);
    if (name === null) return query(text, values);
    try {
      return await query({ name, text, values });
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      if (code !== '0A000' || !message?.includes(RESULT_TYPE_CHANGED)) throw error;
      if (names.get(text) === name) {
        names.delete(text);
        generation++;
      }
      if (client.getTransactionStatus() !== 'I') throw error;
      return query({ name: nameOf(text) ?? undefined, text, values });
    }
  };
  client.query = ((text: unknown, values?: unknown, callback?: unknown) =>
    typeof text === 'string' && text.startsWith(PREPARED_MARK) && Array.isArray(values) && !callback
      ? run(text, values)
      : query(text, values, callback)) as typeof client.query;
}
