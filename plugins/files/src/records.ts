import { Conflict, type Database } from '@pipewright/sdk';
import type { FileRecord, MediaInfo } from './api.js';

interface Row {
  id: string;
  name: string;
  size: number | null;
  content_type: string;
  author: string | null;
  activity_id: string | null;
  media_info: MediaInfo | null;
  created_at: Date | string;
}

function toRecord(project: string, row: Row): FileRecord {
  return {
    id: row.id,
    project,
    name: row.name,
    size: Number(row.size),
    contentType: row.content_type,
    author: row.author,
    activityId: row.activity_id,
    createdAt: new Date(row.created_at),
  };
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** The files table of each project schema. Rows whose size is still null are uploads in progress: never shown. */
export class FileRecords {
  constructor(
    private readonly db: Database,
    private readonly schemaName: (project: string) => string,
  ) {}

  private table(project: string) {
    return this.db.withSchema(this.schemaName(project));
  }

  /** Reserve an id for an upload about to stream in; Conflict when the project already has a file with it. */
  async reserve(
    project: string,
    file: { id: string; name: string; contentType: string; author: string | null; activityId: string | null },
  ): Promise<void> {
    try {
      await this.table(project)
        .insertInto('files')
        .values({
          id: file.id,
          name: file.name,
          content_type: file.contentType,
          author: file.author,
          activity_id: file.activityId,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new Conflict(`File ${file.id} already exists in project ${project}`);
      throw error;
    }
  }

  /** Mark an upload complete: from now on the file is visible. */
  async complete(project: string, id: string, size: number): Promise<FileRecord> {
    const row = await this.table(project)
      .updateTable('files')
      .set({ size, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(project, row as Row);
  }

  /** Forget an upload that failed (or a reservation nobody completed). */
  async release(project: string, id: string): Promise<void> {
    await this.table(project).deleteFrom('files').where('id', '=', id).where('size', 'is', null).execute();
  }

  /** A complete file's record, or null. */
  async get(project: string, id: string): Promise<FileRecord | null> {
    const row = await this.table(project)
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('size', 'is not', null)
      .executeTakeFirst();
    return row ? toRecord(project, row as Row) : null;
  }

  /** Bytes of the project's complete files. */
  async usage(project: string): Promise<number> {
    const row = await this.table(project)
      .selectFrom('files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('size'), eb.val(0)).as('bytes'))
      .where('size', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  /** Complete files attached to any of these activities, oldest first. */
  async listByActivity(project: string, activityIds: string[]): Promise<FileRecord[]> {
    if (activityIds.length === 0) return [];
    const rows = await this.table(project)
      .selectFrom('files')
      .selectAll()
      .where('activity_id', 'in', activityIds)
      .where('size', 'is not', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => toRecord(project, row as Row));
  }

  /** Point files at an activity (null: at none). */
  async attach(project: string, ids: string[], activityId: string | null): Promise<void> {
    if (ids.length === 0) return;
    await this.table(project)
      .updateTable('files')
      .set({ activity_id: activityId, updated_at: new Date() })
      .where('id', 'in', ids)
      .execute();
  }

  /** Delete a record (inside the caller's unit of work, with what refers to it); false when there was none. */
  async delete(project: string, id: string): Promise<boolean> {
    const result = await this.table(project).deleteFrom('files').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The cached ffprobe answer: undefined when never probed, null when the file is not media. */
  async mediaInfo(project: string, id: string): Promise<MediaInfo | null | undefined> {
    const row = await this.table(project)
      .selectFrom('files')
      .select(['media_info'])
      .where('id', '=', id)
      .executeTakeFirst();
    const stored = row?.media_info as MediaInfo | { none: true } | null | undefined;
    if (stored === null || stored === undefined) return undefined;
    return 'none' in stored ? null : stored;
  }

  /** Remember ffprobe's answer (null: not media, kept so the file is not probed again). */
  async saveMediaInfo(project: string, id: string, info: MediaInfo | null): Promise<void> {
    await this.table(project)
      .updateTable('files')
      .set({ media_info: JSON.stringify(info ?? { none: true }) })
      .where('id', '=', id)
      .execute();
  }
}
