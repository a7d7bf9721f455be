import { sql } from 'kysely';
import { insertJsonRows, schemasWithTable, type Database } from '@pipewright/sdk';

/** A history row as stored (snake_case columns). */
export interface StoredChange {
  id: string;
  entity_type: string;
  entity_id: string;
  field: string;
  old_value: unknown;
  new_value: unknown;
  user_name: string | null;
  via: string;
  sender: string | null;
  sender_type: string | null;
  client: string | null;
  changed_at: Date;
}

/** Rows removed per statement when old history goes, so that no transaction holds millions of rows. */
const PRUNE_BATCH = 10_000;

export type NewChange = Omit<StoredChange, 'id' | 'changed_at'>;

/**
 * Which rows of a project's history to read: newest first, below before (the id of the last row read); or oldest
 * first, above after.
 */
export interface HistoryWindow {
  entityIds?: string[];
  entityType?: string;
  fields?: string[];
  before?: string;
  after?: string;
  oldestFirst?: boolean;
  since?: Date;
  until?: Date;
  limit: number;
}

/** The field_history table of each project's schema. */
export class HistoryStore {
  constructor(
    private readonly db: Database,
    private readonly schemaName: (project: string) => string,
  ) {}

  private table(projectName: string) {
    return `${this.schemaName(projectName)}.field_history`;
  }

  /** Append rows, in the open unit of work when there is one (the write they record). */
  async append(projectName: string, rows: NewChange[]): Promise<void> {
    await insertJsonRows(this.db, this.table(projectName), rows);
  }

  /** A page of rows. */
  async read(projectName: string, window: HistoryWindow): Promise<StoredChange[]> {
    const conditions = [sql`true`];
    if (window.entityIds) conditions.push(sql`entity_id = ANY(${window.entityIds}::uuid[])`);
    if (window.entityType) conditions.push(sql`entity_type = ${window.entityType}`);
    if (window.fields?.length) conditions.push(sql`field = ANY(${window.fields}::text[])`);
    if (window.before) conditions.push(sql`id < ${window.before}::bigint`);
    if (window.after) conditions.push(sql`id > ${window.after}::bigint`);
    if (window.since) conditions.push(sql`changed_at >= ${window.since}`);
    if (window.until) conditions.push(sql`changed_at < ${window.until}`);
    const found = await sql<StoredChange>`
      SELECT * FROM ${sql.table(this.table(projectName))}
      WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY id ${sql.raw(window.oldestFirst ? 'ASC' : 'DESC')} LIMIT ${window.limit}`.execute(this.db);
    return found.rows;
  }

  /**
   * The newest row of each field of each entity given. Each (entity, field) pair is one probe of the index on
   * (entity_id, field, id); without a list of fields, the fields an entity has are found by skipping through that
   * index, so an entity with millions of rows costs a few probes per field, not a scan.
   */
  async latest(projectName: string, entityIds: string[], fields?: string[]): Promise<StoredChange[]> {
    const table = sql.table(this.table(projectName));
    const pairs = fields?.length
      ? sql`SELECT e.id AS entity_id, f.field FROM unnest(${entityIds}::uuid[]) e(id), unnest(${fields}::text[]) f(field)`
      : sql`
        WITH RECURSIVE pairs(entity_id, field) AS (
          SELECT e.id, (SELECT min(field) FROM ${table} WHERE entity_id = e.id) FROM unnest(${entityIds}::uuid[]) e(id)
          UNION ALL
          SELECT p.entity_id, (SELECT min(field) FROM ${table} WHERE entity_id = p.entity_id AND field > p.field)
          FROM pairs p WHERE p.field IS NOT NULL
        )
        SELECT entity_id, field FROM pairs WHERE field IS NOT NULL`;
    const found = await sql<StoredChange>`
      SELECT h.* FROM (${pairs}) p
      CROSS JOIN LATERAL (
        SELECT * FROM ${table} WHERE entity_id = p.entity_id AND field = p.field ORDER BY id DESC LIMIT 1
      ) h
      ORDER BY h.entity_id, h.field`.execute(this.db);
    return found.rows;
  }

  /** Remove what was changed before cutoff, in every project, a batch at a time (the retention setting). */
  async prune(cutoff: Date): Promise<number> {
    let removed = 0;
    for (const schema of await schemasWithTable(this.db, 'field_history')) {
      const table = sql.table(`${schema}.field_history`);
      for (;;) {
        const done = await sql`
          DELETE FROM ${table} WHERE id IN (
            SELECT id FROM ${table} WHERE changed_at < ${cutoff} ORDER BY id LIMIT ${PRUNE_BATCH})`.execute(
          this.db,
        );
        const count = Number(done.numAffectedRows ?? 0);
        removed += count;
        if (count < PRUNE_BATCH) break;
      }
    }
    return removed;
  }
}
