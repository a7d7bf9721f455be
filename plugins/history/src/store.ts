import { sql } from 'kysely';
import { insertJsonRows, type Database } from '@pipewright/sdk';

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

  /** The newest row of each field of each entity given. */
  async latest(projectName: string, entityIds: string[], fields?: string[]): Promise<StoredChange[]> {
    const only = fields?.length ? sql`AND field = ANY(${fields}::text[])` : sql``;
    const found = await sql<StoredChange>`
      SELECT DISTINCT ON (entity_id, field) * FROM ${sql.table(this.table(projectName))}
      WHERE entity_id = ANY(${entityIds}::uuid[]) ${only}
      ORDER BY entity_id, field, id DESC`.execute(this.db);
    return found.rows;
  }
}
