import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { newId, type Database } from '@pipewright/sdk';
import type { ClientInfo } from './api.js';
import type { IdentityMemory } from './identity-memory.js';

/** Sessions last a day and slide forward with use. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
// Writing last_used on every request would turn every read into a write; once a minute is precise enough.
const TOUCH_EVERY_SECONDS = 60;

export interface SessionRow {
  id: string;
  userName: string;
  isApiKey: boolean;
  clientInfo: ClientInfo;
  createdAt: Date;
  lastUsed: Date;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function toSession(row: Record<string, any>): SessionRow {
  return {
    id: row.id,
    userName: row.user_name,
    isApiKey: row.is_api_key,
    clientInfo: row.client_info,
    createdAt: row.created_at,
    lastUsed: row.last_used,
  };
}

/** Sessions in PostgreSQL, so every server process sees the same ones and a restart keeps them. */
export class SessionStore {
  constructor(
    private readonly db: Database,
    /** Ending or renaming sessions makes remembered identities wrong. */
    private readonly memory: IdentityMemory,
  ) {}

  /** Open a session; answers the token (64 hex characters), which is shown only this once. */
  async open(userName: string, clientInfo: ClientInfo): Promise<{ token: string; session: SessionRow }> {
    const token = randomBytes(32).toString('hex');
    const row = await this.db
      .insertInto('sessions')
      .values({
        id: newId(),
        token_hash: hashToken(token),
        user_name: userName,
        client_info: JSON.stringify(clientInfo),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.purgeExpired();
    return { token, session: toSession(row) };
  }

  /** The live session of a token, extending its life; null when unknown or expired. */
  async resolve(token: string): Promise<SessionRow | null> {
    const row = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .where('last_used', '>', sql<Date>`now() - make_interval(secs => ${SESSION_TTL_SECONDS})`)
      .executeTakeFirst();
    if (!row) return null;
    if (Date.now() - new Date(row.last_used).getTime() > TOUCH_EVERY_SECONDS * 1000) {
      await this.db
        .updateTable('sessions')
        .set({ last_used: sql`now()` })
        .where('id', '=', row.id)
        .execute();
    }
    return toSession(row);
  }

  async list(userName?: string): Promise<SessionRow[]> {
    let query = this.db
      .selectFrom('sessions')
      .selectAll()
      .where('last_used', '>', sql<Date>`now() - make_interval(secs => ${SESSION_TTL_SECONDS})`)
      .orderBy('created_at');
    if (userName) query = query.where(sql`lower(user_name)`, '=', userName.toLowerCase());
    return (await query.execute()).map(toSession);
  }

  async close(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    await this.memory.forget();
    return Number(result.numDeletedRows) > 0;
  }

  async closeAll(userName: string, except: string | null = null): Promise<void> {
    let query = this.db.deleteFrom('sessions').where(sql`lower(user_name)`, '=', userName.toLowerCase());
    if (except) query = query.where('id', '!=', except);
    await query.execute();
    await this.memory.forget();
  }

  async rename(oldName: string, newName: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ user_name: newName })
      .where(sql`lower(user_name)`, '=', oldName.toLowerCase())
      .execute();
    await this.memory.forget();
  }

  private async purgeExpired(): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where('last_used', '<', sql<Date>`now() - make_interval(secs => ${SESSION_TTL_SECONDS})`)
      .execute();
  }
}
