import { sql } from 'kysely';
import { newId, type Database } from '@pipewright/sdk';

/** One stored activity (snake_case as in SQL). */
export interface ActivityRow {
  id: string;
  activity_type: string;
  body: string;
  tags: string[];
  data: Record<string, any>;
  created_at: Date;
  updated_at: Date;
  creation_order: number;
}

export type ReferenceType = 'origin' | 'author' | 'mention' | 'relation' | 'watching';

/** A reference to write: entities by id, users by name. */
export interface ReferenceInput {
  referenceType: ReferenceType;
  entityType: string;
  entityId?: string | null;
  entityName?: string | null;
  data?: Record<string, unknown>;
}

/** A stored reference. */
export interface ReferenceRow {
  id: string;
  activity_id: string;
  reference_type: ReferenceType;
  entity_type: string;
  entity_id: string | null;
  entity_name: string | null;
  active: boolean;
  read: boolean;
  data: Record<string, unknown>;
}

/** How strongly a user is addressed by an activity: an inbox keeps the strongest reason only. */
export const ADDRESS_STRENGTH: Record<string, number> = { relation: 1, watching: 2, mention: 3 };

/** The activity tables of one project schema, read and written through any connection or transaction. */
export class ActivityStore {
  constructor(
    private readonly db: Database,
    private readonly schemaName: (projectName: string) => string,
  ) {}

  table(projectName: string, name: 'activities' | 'activity_references') {
    return sql.table(`${this.schemaName(projectName)}.${name}`);
  }

  /** Insert an activity; false when one with this id exists already (a server-made activity made twice). */
  async insert(
    projectName: string,
    activity: {
      id: string;
      type: string;
      body: string;
      tags: string[];
      data: Record<string, unknown>;
      at: Date;
    },
    onConflict: 'fail' | 'skip',
  ): Promise<boolean> {
    const conflict = onConflict === 'skip' ? sql`ON CONFLICT (id) DO NOTHING` : sql``;
    const result = await sql`
      INSERT INTO ${this.table(projectName, 'activities')} (id, activity_type, body, tags, data, created_at, updated_at)
      VALUES (${activity.id}, ${activity.type}, ${activity.body}, ${activity.tags}::text[], ${JSON.stringify(activity.data)}::jsonb, ${activity.at}, ${activity.at})
      ${conflict}`.execute(this.db);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** Write references of a new activity (no conflicts possible: the caller collapsed them first). */
  async addReferences(projectName: string, activityId: string, references: ReferenceInput[], at: Date) {
    if (references.length === 0) return;
    const rows = references.map(
      (ref) =>
        sql`(${newId()}, ${activityId}, ${ref.referenceType}, ${ref.entityType}, ${ref.entityId ?? null}, ${ref.entityName ?? null}, ${JSON.stringify(ref.data ?? {})}::jsonb, ${at}, ${at})`,
    );
    await sql`
      INSERT INTO ${this.table(projectName, 'activity_references')}
        (id, activity_id, reference_type, entity_type, entity_id, entity_name, data, created_at, updated_at)
      VALUES ${sql.join(rows)}`.execute(this.db);
  }

  /**
   * Mention users in an edited activity: new rows for users not yet addressed, and users addressed more weakly
   * (a relation, a watcher) become mentioned, unread again. Answers the names whose reference changed.
   */
  async mentionUsers(projectName: string, activityId: string, names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const refs = this.table(projectName, 'activity_references');
    const rows = names.map(
      (name) =>
        sql`(${newId()}, ${activityId}, 'mention', 'user', NULL::uuid, ${name}, '{}'::jsonb, now(), now())`,
    );
    const result = await sql<{ entity_name: string }>`
      INSERT INTO ${refs} AS r (id, activity_id, reference_type, entity_type, entity_id, entity_name, data, created_at, updated_at)
      VALUES ${sql.join(rows)}
      ON CONFLICT (activity_id, entity_name) WHERE entity_type = 'user'
      DO UPDATE SET reference_type = 'mention', active = true, read = false, updated_at = now()
        WHERE r.reference_type IN ('relation', 'watching')
      RETURNING r.entity_name`.execute(this.db);
    return result.rows.map((row) => row.entity_name);
  }

  /** Mention entities in an edited activity (those already mentioned stay as they are). */
  async mentionEntities(
    projectName: string,
    activityId: string,
    entities: { type: string; id: string }[],
  ): Promise<void> {
    if (entities.length === 0) return;
    const rows = entities.map(
      (e) =>
        sql`(${newId()}, ${activityId}, 'mention', ${e.type}, ${e.id}::uuid, NULL, '{}'::jsonb, now(), now())`,
    );
    await sql`
      INSERT INTO ${this.table(projectName, 'activity_references')}
        (id, activity_id, reference_type, entity_type, entity_id, entity_name, data, created_at, updated_at)
      VALUES ${sql.join(rows)}
      ON CONFLICT (activity_id, reference_type, entity_id) WHERE entity_id IS NOT NULL DO NOTHING`.execute(
      this.db,
    );
  }

  /** Forget mentions an edit took out of the body. */
  async dropMentions(
    projectName: string,
    activityId: string,
    keep: { users: string[]; entityIds: string[] },
  ): Promise<void> {
    await sql`
      DELETE FROM ${this.table(projectName, 'activity_references')}
      WHERE activity_id = ${activityId} AND reference_type = 'mention'
        AND NOT (entity_type = 'user' AND entity_name = ANY(${keep.users}::text[]))
        AND NOT (entity_id IS NOT NULL AND entity_id = ANY(${keep.entityIds}::uuid[]))`.execute(this.db);
  }

  /** An activity by id, locked for the rest of the transaction when asked. */
  async get(projectName: string, id: string, lock = false): Promise<ActivityRow | null> {
    const result = await sql<ActivityRow>`
      SELECT * FROM ${this.table(projectName, 'activities')} WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(
      this.db,
    );
    return result.rows[0] ?? null;
  }

  async update(
    projectName: string,
    id: string,
    change: { body: string; tags: string[]; data: Record<string, unknown> },
  ): Promise<void> {
    await sql`
      UPDATE ${this.table(projectName, 'activities')}
      SET body = ${change.body}, tags = ${change.tags}::text[], data = ${JSON.stringify(change.data)}::jsonb, updated_at = now()
      WHERE id = ${id}`.execute(this.db);
  }

  /** Change only the data of an activity (reactions), leaving updated_at: a reaction is not an edit. */
  async setData(projectName: string, id: string, data: Record<string, unknown>): Promise<void> {
    await sql`
      UPDATE ${this.table(projectName, 'activities')} SET data = ${JSON.stringify(data)}::jsonb WHERE id = ${id}`.execute(
      this.db,
    );
  }

  async remove(projectName: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await sql`DELETE FROM ${this.table(projectName, 'activities')} WHERE id = ANY(${ids}::uuid[])`.execute(
      this.db,
    );
  }

  async references(projectName: string, activityId: string): Promise<ReferenceRow[]> {
    const result = await sql<ReferenceRow>`
      SELECT * FROM ${this.table(projectName, 'activity_references')} WHERE activity_id = ${activityId}
      ORDER BY creation_order`.execute(this.db);
    return result.rows;
  }

  /** Who watches an entity: the watchers named by its watch activities, by name. */
  async watchers(projectName: string, entityId: string): Promise<string[]> {
    const result = await sql<{ watcher: string }>`
      SELECT DISTINCT a.data->>'watcher' AS watcher
      FROM ${this.table(projectName, 'activity_references')} r
      JOIN ${this.table(projectName, 'activities')} a ON a.id = r.activity_id
      WHERE r.entity_id = ${entityId} AND r.reference_type = 'origin' AND a.activity_type = 'watch'
        AND a.data->>'watcher' IS NOT NULL
      ORDER BY 1`.execute(this.db);
    return result.rows.map((row) => row.watcher);
  }

  /** The watch activities that make these users watch an entity. */
  async watchActivities(projectName: string, entityId: string, watchers: string[]) {
    if (watchers.length === 0) return [];
    const result = await sql<ActivityRow>`
      SELECT a.* FROM ${this.table(projectName, 'activity_references')} r
      JOIN ${this.table(projectName, 'activities')} a ON a.id = r.activity_id
      WHERE r.entity_id = ${entityId} AND r.reference_type = 'origin' AND a.activity_type = 'watch'
        AND a.data->>'watcher' = ANY(${watchers}::text[])`.execute(this.db);
    return result.rows;
  }

  /**
   * Drop everything about deleted entities: the activities they are the origin of (answered with the ids of their
   * files), and references to them.
   */
  async forgetEntities(projectName: string, ids: string[]): Promise<{ id: string; fileIds: string[] }[]> {
    if (ids.length === 0) return [];
    const refs = this.table(projectName, 'activity_references');
    const removed = await sql<{ id: string; data: Record<string, any> }>`
      DELETE FROM ${this.table(projectName, 'activities')} a
      USING ${refs} r
      WHERE r.activity_id = a.id AND r.reference_type = 'origin' AND r.entity_id = ANY(${ids}::uuid[])
      RETURNING a.id, a.data`.execute(this.db);
    await sql`DELETE FROM ${refs} WHERE entity_id = ANY(${ids}::uuid[])`.execute(this.db);
    return removed.rows.map((row) => ({
      id: row.id,
      fileIds: ((row.data.files ?? []) as { id: string }[]).map((file) => file.id),
    }));
  }

  /** Activities of one type whose origin is one of these entities, oldest first, each with that entity's id. */
  async ofEntities(
    projectName: string,
    type: string,
    entityIds: string[],
  ): Promise<(ActivityRow & { origin_id: string })[]> {
    if (entityIds.length === 0) return [];
    const result = await sql<ActivityRow & { origin_id: string }>`
      SELECT a.*, r.entity_id AS origin_id
      FROM ${this.table(projectName, 'activity_references')} r
      JOIN ${this.table(projectName, 'activities')} a ON a.id = r.activity_id
      WHERE r.entity_id = ANY(${entityIds}::uuid[]) AND r.reference_type = 'origin' AND a.activity_type = ${type}
      ORDER BY a.creation_order`.execute(this.db);
    return result.rows;
  }

  /** Merge keys into an activity's data (an edit when touch is set); false when there is no such activity. */
  async mergeData(
    projectName: string,
    id: string,
    data: Record<string, unknown>,
    touch: boolean,
  ): Promise<boolean> {
    const result = await sql`
      UPDATE ${this.table(projectName, 'activities')}
      SET data = data || ${JSON.stringify(data)}::jsonb ${touch ? sql`, updated_at = now()` : sql``}
      WHERE id = ${id}`.execute(this.db);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** Take a deleted file out of the activities that list it. */
  async forgetFile(projectName: string, fileId: string): Promise<void> {
    await sql`
      UPDATE ${this.table(projectName, 'activities')}
      SET data = jsonb_set(data, '{files}', (
        SELECT coalesce(jsonb_agg(f), '[]'::jsonb) FROM jsonb_array_elements(data->'files') f WHERE f->>'id' <> ${fileId}
      ))
      WHERE data->'files' @> ${JSON.stringify([{ id: fileId }])}::jsonb`.execute(this.db);
  }
}
