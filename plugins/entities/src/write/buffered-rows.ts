import { insertJsonRows } from '@pipewright/sdk';
import { SPECS } from '../entity-types.js';
import type { Batch, Json, PendingRows } from './batch.js';

// The order tables are written in: each after the tables its rows reference (a task its folder, a version its
// product and task). A folder may reference a folder: rows of one INSERT are checked when it ends.
const TABLE_ORDER = Object.values(SPECS).map((spec) => spec.table);

// Rows buffered before they are written: enough to amortise the round trips; on a server the batch prepares the
// next rows while the database writes these.
const FLUSH_ROWS = 500;

// The tables' defaults (migrations.ts) of columns a create may leave out, for the rows of a multi-row insert that
// leave out a column other rows give.
const ROW_DEFAULTS = {
  attrib: {},
  data: {},
  tags: [],
  active: true,
  inherited: {},
  assignees: [],
  files: [],
};

/** The database refused a write of buffered rows: which operation's row it was, only running them one by one tells. */
export class BufferedWriteRefused extends Error {}

/** Write a new row now, or add it to the batch's buffer for one multi-row INSERT. */
export async function insert(batch: Batch, table: string, values: Json): Promise<void> {
  if (!batch.buffered) {
    await insertRows(batch, table, [values]);
    return;
  }
  batch.pending ??= { tables: new Map(), size: 0 };
  let rows = batch.pending.tables.get(table);
  if (!rows) batch.pending.tables.set(table, (rows = []));
  rows.push(values);
  if (++batch.pending.size >= FLUSH_ROWS) await flush(batch, false);
}

function insertRows(batch: Batch, table: string, rows: Json[]) {
  return insertJsonRows(batch.db, `${batch.schema}.${table}`, rows, { defaults: ROW_DEFAULTS });
}

/**
 * Write the buffered rows with one INSERT per table. Without wait, the batch goes on preparing rows while the
 * database writes these (at most one write in flight: settle() before anything else reads or writes in the
 * transaction).
 */
export async function flush(batch: Batch, wait = true): Promise<void> {
  await settle(batch);
  const pending = batch.pending;
  if (!pending) return;
  batch.pending = null;
  const written = write(batch, pending);
  if (wait) return written;
  batch.writing = written;
  written.catch(() => undefined); // reported when settled
}

/** Wait for the rows in flight; a refusal surfaces here. */
export async function settle(batch: Batch): Promise<void> {
  const writing = batch.writing;
  batch.writing = null;
  await writing;
}

/** A multi-row INSERT per table, in the order their rows refer to each other. */
async function write(batch: Batch, pending: PendingRows) {
  try {
    for (const table of TABLE_ORDER) {
      const rows = pending.tables.get(table);
      if (rows) await insertRows(batch, table, rows);
    }
  } catch {
    throw new BufferedWriteRefused();
  }
}
