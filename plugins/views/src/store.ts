import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { ViewType } from './settings.js';

/** Where views are kept: the studio's (public schema) or one project's (its project_<name> schema). */
export type Scope = { kind: 'studio' } | { kind: 'project'; project: string; schema: string };

/** A stored view. */
export interface ViewRow {
  id: string;
  view_type: ViewType;
  label: string;
  owner: string;
  visibility: 'public' | 'private';
  working: boolean;
  position: number;
  settings: Record<string, unknown>;
}

const COLUMNS = [
  'id',
  'view_type',
  'label',
  'owner',
  'visibility',
  'working',
  'position',
  'settings',
] as const;

const schemaOf = (scope: Scope) => (scope.kind === 'project' ? scope.schema : 'public');

/** True when the error is a unique constraint of PostgreSQL refusing a row. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** The SQL of views and default views in one scope. */
export class ViewStore {
  constructor(private readonly db: Database) {}

  /** Views of a type the user may see in a scope (their own and public ones), by position then label. */
  async visible(scope: Scope, viewType: ViewType, userName: string): Promise<ViewRow[]> {
    return this.db
      .withSchema(schemaOf(scope))
      .selectFrom('views')
      .select(COLUMNS)
      .where('view_type', '=', viewType)
      .where((eb) =>
        eb.or([eb(sql`lower(owner)`, '=', userName.toLowerCase()), eb('visibility', '=', 'public')]),
      )
      .orderBy('position')
      .orderBy('label')
      .orderBy('id')
      .execute() as Promise<ViewRow[]>;
  }

  /** One view by id, whoever owns it. */
  async get(scope: Scope, id: string, forUpdate = false): Promise<ViewRow | undefined> {
    let query = this.db.withSchema(schemaOf(scope)).selectFrom('views').select(COLUMNS).where('id', '=', id);
    if (forUpdate) query = query.forUpdate();
    return query.executeTakeFirst() as Promise<ViewRow | undefined>;
  }

  /** The user's working view of a type in a scope. */
  async working(scope: Scope, viewType: ViewType, userName: string): Promise<ViewRow | undefined> {
    return this.db
      .withSchema(schemaOf(scope))
      .selectFrom('views')
      .select(COLUMNS)
      .where('view_type', '=', viewType)
      .where(sql`lower(owner)`, '=', userName.toLowerCase())
      .where('working', '=', true)
      .executeTakeFirst() as Promise<ViewRow | undefined>;
  }

  /** Add a view; answers its id. A duplicate id is refused by the primary key (unique violation). */
  async insert(scope: Scope, row: Omit<ViewRow, 'position'>): Promise<string> {
    const created = await this.db
      .withSchema(schemaOf(scope))
      .insertInto('views')
      .values({ ...row, settings: JSON.stringify(row.settings) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return created.id as string;
  }

  /**
   * Save the user's working view of a type: its label and settings change when it exists (its id stays), else it
   * is created with this id. One statement, so two saves at once cannot make two working views.
   */
  async saveWorking(
    scope: Scope,
    row: Pick<ViewRow, 'id' | 'view_type' | 'label' | 'owner' | 'settings'>,
  ): Promise<{ id: string; created: boolean }> {
    const table = sql.table(`${schemaOf(scope)}.views`);
    const settings = JSON.stringify(row.settings);
    const { rows } = await sql<{ id: string; created: boolean }>`
      INSERT INTO ${table} (id, view_type, label, owner, visibility, working, settings)
      VALUES (${row.id}, ${row.view_type}, ${row.label}, ${row.owner}, 'private', true, ${settings}::jsonb)
      ON CONFLICT (view_type, lower(owner)) WHERE working
      DO UPDATE SET label = EXCLUDED.label, settings = EXCLUDED.settings, updated_at = now()
      RETURNING id, (xmax = 0) AS created`.execute(this.db);
    return rows[0];
  }

  /** Change a view's fields. */
  async update(
    scope: Scope,
    id: string,
    changes: Partial<Pick<ViewRow, 'label' | 'owner' | 'visibility' | 'settings'>>,
  ): Promise<void> {
    const { settings, ...rest } = changes;
    await this.db
      .withSchema(schemaOf(scope))
      .updateTable('views')
      .set({
        ...rest,
        ...(settings !== undefined ? { settings: JSON.stringify(settings) } : {}),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .execute();
  }

  /** Remove a view and every default of this scope that names it. */
  async remove(scope: Scope, id: string): Promise<void> {
    await this.db.withSchema(schemaOf(scope)).deleteFrom('view_defaults').where('view_id', '=', id).execute();
    await this.db.withSchema(schemaOf(scope)).deleteFrom('views').where('id', '=', id).execute();
  }

  /** The id of the view the user chose as default for a type in a scope. */
  async defaultId(scope: Scope, viewType: ViewType, userName: string): Promise<string | undefined> {
    const row = await this.db
      .withSchema(schemaOf(scope))
      .selectFrom('view_defaults')
      .select('view_id')
      .where('view_type', '=', viewType)
      .where(sql`lower(user_name)`, '=', userName.toLowerCase())
      .executeTakeFirst();
    return row?.view_id as string | undefined;
  }

  /** Remember the user's default view of a type in a scope (replacing an earlier choice). */
  async setDefault(scope: Scope, viewType: ViewType, userName: string, viewId: string) {
    const table = sql.table(`${schemaOf(scope)}.view_defaults`);
    await sql`
      INSERT INTO ${table} (user_name, view_type, view_id) VALUES (${userName}, ${viewType}, ${viewId})
      ON CONFLICT (view_type, lower(user_name))
      DO UPDATE SET view_id = EXCLUDED.view_id, user_name = EXCLUDED.user_name, updated_at = now()`.execute(
      this.db,
    );
  }
}
