import { sql } from 'kysely';
import { Conflict, type Database } from '@pipewright/sdk';
import type { PlannedItem } from './item-plan.js';
import type { ListEntityType } from './schemas.js';

type Json = Record<string, unknown>;

/** An entity_lists row. */
export interface ListRow {
  id: string;
  entity_list_type: string;
  entity_type: ListEntityType;
  entity_list_folder_id: string | null;
  label: string;
  owner: string | null;
  access: Record<string, number>;
  template: Json;
  attrib: Json;
  data: Json;
  tags: string[];
  active: boolean;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** An entity_list_items row. */
export interface ItemRow {
  id: string;
  entity_list_id: string;
  entity_id: string;
  position: number;
  label: string | null;
  attrib: Json;
  data: Json;
  tags: string[];
  created_by: string | null;
  updated_by: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The columns of entity_lists a create or a patch may set. */
export type ListColumns = Partial<
  Pick<
    ListRow,
    | 'entity_list_type'
    | 'entity_type'
    | 'entity_list_folder_id'
    | 'label'
    | 'owner'
    | 'access'
    | 'template'
    | 'attrib'
    | 'data'
    | 'tags'
    | 'active'
  >
>;

// Large writes go in slices, far below PostgreSQL's limit of 65535 bound parameters per statement.
const SLICE = 500;
const JSON_COLUMNS = ['access', 'template', 'attrib', 'data'] as const;

function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e.code === '23505' ? `${e.constraint ?? ''} ${e.message ?? ''}` : null;
}

/** jsonb columns travel as JSON text; the rest as they are. */
function encode(columns: ListColumns): Record<string, unknown> {
  const row: Record<string, unknown> = { ...columns };
  for (const key of JSON_COLUMNS) if (row[key] !== undefined) row[key] = JSON.stringify(row[key]);
  return row;
}

/** Reads and writes of the lists tables of one project schema; every write runs in the caller's transaction. */
export class ListStore {
  constructor(
    private readonly db: Database,
    private readonly schemaName: (projectName: string) => string,
  ) {}

  private in(projectName: string) {
    return this.db.withSchema(this.schemaName(projectName));
  }

  /** One list, locked against concurrent item changes when asked (inside a transaction). */
  async findList(projectName: string, id: string, lock = false): Promise<ListRow | undefined> {
    let query = this.in(projectName).selectFrom('entity_lists').selectAll().where('id', '=', id);
    if (lock) query = query.forUpdate();
    return (await query.executeTakeFirst()) as ListRow | undefined;
  }

  /** Every list of the project in creation order. */
  async allLists(projectName: string): Promise<ListRow[]> {
    return (await this.in(projectName)
      .selectFrom('entity_lists')
      .selectAll()
      .orderBy('creation_order')
      .execute()) as ListRow[];
  }

  /** Item counts of lists by id. */
  async counts(projectName: string, ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.in(projectName)
      .selectFrom('entity_list_items')
      .select(['entity_list_id', (eb) => eb.fn.countAll<string>().as('count')])
      .where('entity_list_id', 'in', ids)
      .groupBy('entity_list_id')
      .execute();
    return new Map(rows.map((row) => [row.entity_list_id as string, Number(row.count)]));
  }

  /** A list's items in list order. */
  async items(projectName: string, listId: string): Promise<ItemRow[]> {
    return (await this.in(projectName)
      .selectFrom('entity_list_items')
      .selectAll()
      .where('entity_list_id', '=', listId)
      .orderBy('position')
      .orderBy('created_at')
      .orderBy('id')
      .execute()) as ItemRow[];
  }

  /** Insert a list row; a label or id already used answers 409. */
  async insertList(projectName: string, id: string, columns: ListColumns, user: string): Promise<void> {
    try {
      await this.in(projectName)
        .insertInto('entity_lists')
        .values({ id, ...encode(columns), created_by: user, updated_by: user })
        .execute();
    } catch (error) {
      throw this.clash(error, id, columns.label) ?? error;
    }
  }

  /** Change a list's columns (none given: only mark it updated, as any change of its items does). */
  async updateList(projectName: string, id: string, columns: ListColumns, user: string): Promise<void> {
    try {
      await this.in(projectName)
        .updateTable('entity_lists')
        .set({ ...encode(columns), updated_by: user, updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
    } catch (error) {
      throw this.clash(error, id, columns.label) ?? error;
    }
  }

  /** Delete a list row; its items go with it (foreign key cascade). */
  async deleteList(projectName: string, id: string): Promise<void> {
    await this.in(projectName).deleteFrom('entity_lists').where('id', '=', id).execute();
  }

  /**
   * Make the stored items of a list what the plan says, writing only the difference: the items that went are
   * deleted, new ones inserted, changed ones rewritten, and positions moved where they differ from the plan.
   */
  async writeItems(
    projectName: string,
    listId: string,
    before: ItemRow[],
    after: PlannedItem[],
    user: string,
  ): Promise<void> {
    const schema = this.schemaName(projectName);
    const items = sql.table(`${schema}.entity_list_items`);
    const kept = new Set(after.filter((item) => !item.isNew).map((item) => item.id));
    const gone = before.filter((row) => !kept.has(row.id)).map((row) => row.id);
    if (gone.length)
      await sql`DELETE FROM ${items} WHERE entity_list_id = ${listId} AND id = ANY(${gone}::uuid[])`.execute(
        this.db,
      );

    const fresh = after.map((item, position) => ({ item, position })).filter(({ item }) => item.isNew);
    for (let start = 0; start < fresh.length; start += SLICE) {
      const rows = fresh.slice(start, start + SLICE).map(({ item, position }) => ({
        id: item.id,
        entity_list_id: listId,
        entity_id: item.entityId,
        position,
        label: item.label,
        attrib: JSON.stringify(item.attrib),
        data: JSON.stringify(item.data),
        tags: item.tags,
        created_by: user,
        updated_by: user,
      }));
      try {
        await this.in(projectName).insertInto('entity_list_items').values(rows).execute();
      } catch (error) {
        if (uniqueViolation(error) === null) throw error;
        throw new Conflict('An item with one of the given ids already exists', 'unique-violation');
      }
    }

    const changed = after.filter((item) => item.changed && !item.isNew);
    for (let start = 0; start < changed.length; start += SLICE) {
      const slice = changed.slice(start, start + SLICE).map((item) => ({
        id: item.id,
        entity_id: item.entityId,
        label: item.label,
        attrib: item.attrib,
        data: item.data,
        tags: item.tags,
      }));
      await sql`
        UPDATE ${items} i SET entity_id = v.entity_id, label = v.label, attrib = v.attrib, data = v.data,
          tags = v.tags, updated_by = ${user}, updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(slice)}::jsonb)
          AS v(id uuid, entity_id uuid, label text, attrib jsonb, data jsonb, tags text[])
        WHERE i.id = v.id AND i.entity_list_id = ${listId}`.execute(this.db);
    }

    const storedAt = new Map(before.map((row) => [row.id, row.position]));
    const moved = after
      .map((item, position) => ({ id: item.id, position, isNew: item.isNew }))
      .filter(({ id, position, isNew }) => !isNew && storedAt.get(id) !== position);
    for (let start = 0; start < moved.length; start += SLICE) {
      const slice = moved.slice(start, start + SLICE);
      await sql`
        UPDATE ${items} i SET position = v.position
        FROM unnest(${slice.map((m) => m.id)}::uuid[], ${slice.map((m) => m.position)}::int[]) AS v(id, position)
        WHERE i.id = v.id AND i.entity_list_id = ${listId}`.execute(this.db);
    }
  }

  /**
   * Entities delete hook: their items go, and the lists they were in close the gaps so positions stay 0..n-1.
   * Runs in the delete's transaction.
   */
  async dropEntityItems(projectName: string, entityIds: string[]): Promise<void> {
    if (entityIds.length === 0) return;
    const items = sql.table(`${this.schemaName(projectName)}.entity_list_items`);
    const { rows } = await sql<{ entity_list_id: string }>`
      DELETE FROM ${items} WHERE entity_id = ANY(${entityIds}::uuid[]) RETURNING entity_list_id`.execute(
      this.db,
    );
    const lists = [...new Set(rows.map((row) => row.entity_list_id))];
    if (lists.length === 0) return;
    await sql`
      UPDATE ${items} i SET position = r.position
      FROM (
        SELECT id, (row_number() OVER (PARTITION BY entity_list_id ORDER BY position, created_at, id) - 1)::int AS position
        FROM ${items} WHERE entity_list_id = ANY(${lists}::uuid[])
      ) r
      WHERE i.id = r.id AND i.position <> r.position`.execute(this.db);
  }

  /** A unique violation of entity_lists as a 409 that says what clashed; null for other errors. */
  private clash(error: unknown, id: string, label: string | undefined): Conflict | null {
    const clash = uniqueViolation(error);
    if (clash === null) return null;
    if (clash.includes('label'))
      return new Conflict(`An entity list labelled ${label} already exists`, 'unique-violation');
    return new Conflict(`An entity list with id ${id} already exists`, 'unique-violation');
  }
}
