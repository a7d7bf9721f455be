import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { NotFound, type Database, type EventBus } from '@pipewright/sdk';
import type { AvatarMime } from './avatar-image.js';
import { userEvent, type ChangedBy } from './user-event.js';

export interface StoredAvatar {
  mime: string;
  bytes: Buffer;
  /** Hash of the bytes: the ETag browsers revalidate with. */
  hash: string;
  updatedAt: Date;
}

/** What drawing someone's avatar needs: their picture if they uploaded one, else what their initials come from. */
export interface AvatarSubject {
  name: string;
  fullName: string;
  avatar: StoredAvatar | null;
}

/** PGlite hands bytea back as a Uint8Array and node-postgres as a Buffer. */
const toBuffer = (value: Uint8Array) =>
  Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);

const foreignKeyViolation = (error: unknown) => (error as { code?: string }).code === '23503';

/** Users' uploaded pictures, one per user, in PostgreSQL. */
export class AvatarStore {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  /** The user (by name, in any letter case) with their picture, in one query; null when there is no such user. */
  async read(userName: string): Promise<AvatarSubject | null> {
    const row = await this.db
      .selectFrom('users')
      .leftJoin('user_avatars', 'user_avatars.user_name', 'users.name')
      .select([
        'users.name as name',
        sql<string | null>`users.attrib->>'fullName'`.as('full_name'),
        'user_avatars.mime as mime',
        'user_avatars.bytes as bytes',
        'user_avatars.hash as hash',
        'user_avatars.updated_at as updated_at',
      ])
      .where(sql<boolean>`lower(users.name) = ${userName.toLowerCase()}`)
      .executeTakeFirst();
    if (!row) return null;
    return {
      name: row.name,
      fullName: row.full_name ?? '',
      avatar: row.bytes
        ? { mime: row.mime, bytes: toBuffer(row.bytes), hash: row.hash, updatedAt: new Date(row.updated_at) }
        : null,
    };
  }

  /**
   * Store or replace a user's picture; the user's updatedAt moves too, so clients that key on it reload, and a
   * user.updated event names the avatar.
   */
  async put(userName: string, mime: AvatarMime, bytes: Buffer, by: ChangedBy): Promise<void> {
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('user_avatars')
          .values({ user_name: userName, mime, bytes, hash })
          .onConflict((oc) =>
            oc.column('user_name').doUpdateSet({ mime, bytes, hash, updated_at: sql`now()` }),
          )
          .execute();
        await this.touched(userName, by);
      });
    } catch (error) {
      // Deleted or renamed by someone else since the caller looked it up.
      if (foreignKeyViolation(error)) throw new NotFound(`User ${userName} not found`);
      throw error;
    }
  }

  /** Forget a user's picture, announced as put's is; answers whether there was one. */
  async remove(userName: string, by: ChangedBy): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const removed = await trx
        .deleteFrom('user_avatars')
        .where('user_name', '=', userName)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) return false;
      await this.touched(userName, by);
      return true;
    });
  }

  /** The user changed (their updated_at moves, so clients reload the picture), announced as user.updated. */
  private async touched(userName: string, by: ChangedBy): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ updated_at: sql`now()` })
      .where('name', '=', userName)
      .execute();
    await this.events.emit(userEvent('user.updated', userName, by, { fields: ['avatar'] }));
  }
}
