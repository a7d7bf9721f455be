import { sql } from 'kysely';
import type { Database, ProjectEntityType } from '@pipewright/sdk';
import type { ThumbnailMime } from './image-type.js';

/** The entity types that carry a thumbnailId. */
export type ThumbnailEntityType = Extract<ProjectEntityType, 'folder' | 'task' | 'version' | 'workfile'>;
export const THUMBNAIL_ENTITY_TYPES: ThumbnailEntityType[] = ['folder', 'version', 'workfile', 'task'];

export interface StoredThumbnail {
  id: string;
  mime: string;
  data: Buffer;
  createdAt: Date;
}

/** PGlite hands bytea back as a Uint8Array and node-postgres as a Buffer; callers always get a Buffer. */
function toBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

function toStored(row: Record<string, any> | undefined): StoredThumbnail | null {
  if (!row) return null;
  return { id: row.id, mime: row.mime, data: toBuffer(row.data), createdAt: new Date(row.created_at) };
}

/** Reading and writing the thumbnails table of a project schema. */
export class ThumbnailStore {
  constructor(
    private readonly db: Database,
    private readonly schemaName: (project: string) => string,
  ) {}

  private table(project: string, name: string) {
    return sql.table(`${this.schemaName(project)}.${name}`);
  }

  /**
   * Write the image under an id, replacing what was there. Replacing counts as a new image, so created_at moves
   * on: it is what clients see as X-Thumbnail-Time and use to tell a changed image from a cached one.
   */
  async put(project: string, id: string, mime: ThumbnailMime, data: Buffer, user: string): Promise<void> {
    await sql`
      INSERT INTO ${this.table(project, 'thumbnails')} (id, mime, data, created_by)
      VALUES (${id}, ${mime}, ${data}, ${user})
      ON CONFLICT (id) DO UPDATE SET mime = EXCLUDED.mime, data = EXCLUDED.data, created_by = EXCLUDED.created_by, created_at = now()`.execute(
      this.db,
    );
  }

  async get(project: string, id: string): Promise<StoredThumbnail | null> {
    const result = await sql<
      Record<string, any>
    >`SELECT * FROM ${this.table(project, 'thumbnails')} WHERE id = ${id}`.execute(this.db);
    return toStored(result.rows[0]);
  }

  async remove(project: string, id: string): Promise<void> {
    await sql`DELETE FROM ${this.table(project, 'thumbnails')} WHERE id = ${id}`.execute(this.db);
  }

  /**
   * What a folder or task without a thumbnail of its own shows: the image of the newest version, with a stored
   * image, published in the folder (any of its products) or for the task. Versions whose thumbnail id points at
   * nothing are skipped, so a dangling id cannot hide an older good image.
   */
  async fallback(project: string, type: ThumbnailEntityType, id: string): Promise<StoredThumbnail | null> {
    if (type !== 'folder' && type !== 'task') return null;
    const versions = this.table(project, 'versions');
    const thumbnails = this.table(project, 'thumbnails');
    const owner =
      type === 'folder'
        ? sql`v.product_id IN (SELECT p.id FROM ${this.table(project, 'products')} p WHERE p.folder_id = ${id})`
        : sql`v.task_id = ${id}`;
    const result = await sql<Record<string, any>>`
      SELECT t.* FROM ${versions} v JOIN ${thumbnails} t ON t.id = v.thumbnail_id
      WHERE ${owner} AND v.active
      ORDER BY v.created_at DESC, v.creation_order DESC
      LIMIT 1`.execute(this.db);
    return toStored(result.rows[0]);
  }

  /** Entities showing this thumbnail, whose clients must learn that the image behind the id changed. */
  async users(project: string, thumbnailId: string): Promise<{ type: ThumbnailEntityType; id: string }[]> {
    const found: { type: ThumbnailEntityType; id: string }[] = [];
    for (const type of THUMBNAIL_ENTITY_TYPES) {
      const result = await sql<{
        id: string;
      }>`SELECT id FROM ${this.table(project, `${type}s`)} WHERE thumbnail_id = ${thumbnailId}`.execute(
        this.db,
      );
      found.push(...result.rows.map((row) => ({ type, id: row.id })));
    }
    return found;
  }
}
