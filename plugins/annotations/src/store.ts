import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { ShapeValue } from './schemas.js';

export interface AnnotationRow {
  id: string;
  version_id: string;
  reviewable_id: string;
  frame: number;
  kind: string;
  color: string;
  shape: ShapeValue;
  author: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Which frames of a reviewable to read: one, a range, or all. */
export interface FrameFilter {
  frame?: number;
  fromFrame?: number;
  toFrame?: number;
}

/** The annotations table of each project's schema. */
export class AnnotationStore {
  constructor(
    private readonly db: Database,
    private readonly schemaName: (project: string) => string,
  ) {}

  private table(projectName: string) {
    return sql.table(`${this.schemaName(projectName)}.annotations`);
  }

  /** A reviewable's annotations, by frame, each frame's in the order they were drawn. */
  async list(projectName: string, reviewableId: string, filter: FrameFilter): Promise<AnnotationRow[]> {
    const where = [sql`reviewable_id = ${reviewableId}`];
    if (filter.frame !== undefined) where.push(sql`frame = ${filter.frame}`);
    if (filter.fromFrame !== undefined) where.push(sql`frame >= ${filter.fromFrame}`);
    if (filter.toFrame !== undefined) where.push(sql`frame <= ${filter.toFrame}`);
    return (
      await sql<AnnotationRow>`SELECT * FROM ${this.table(projectName)} WHERE ${sql.join(where, sql` AND `)}
        ORDER BY frame, creation_order`.execute(this.db)
    ).rows;
  }

  async get(projectName: string, id: string): Promise<AnnotationRow | null> {
    return (
      (await sql<AnnotationRow>`SELECT * FROM ${this.table(projectName)} WHERE id = ${id}`.execute(this.db))
        .rows[0] ?? null
    );
  }

  /** False when an annotation with this id exists already. */
  async insert(projectName: string, row: Omit<AnnotationRow, 'created_at' | 'updated_at'>): Promise<boolean> {
    const done = await sql`
      INSERT INTO ${this.table(projectName)} (id, version_id, reviewable_id, frame, kind, color, shape, author)
      VALUES (${row.id}, ${row.version_id}, ${row.reviewable_id}, ${row.frame}, ${row.kind}, ${row.color},
        ${JSON.stringify(row.shape)}::jsonb, ${row.author})
      ON CONFLICT (id) DO NOTHING`.execute(this.db);
    return Number(done.numAffectedRows ?? 0) > 0;
  }

  async update(
    projectName: string,
    id: string,
    changes: { frame: number; color: string; shape: ShapeValue },
  ): Promise<void> {
    await sql`UPDATE ${this.table(projectName)} SET frame = ${changes.frame}, color = ${changes.color},
        kind = ${changes.shape.kind}, shape = ${JSON.stringify(changes.shape)}::jsonb, updated_at = now()
      WHERE id = ${id}`.execute(this.db);
  }

  async remove(projectName: string, id: string): Promise<void> {
    await sql`DELETE FROM ${this.table(projectName)} WHERE id = ${id}`.execute(this.db);
  }
}
