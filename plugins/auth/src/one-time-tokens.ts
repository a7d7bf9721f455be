import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { OneTimeToken, OneTimeTokens } from './api.js';

/** Purposes the auth addon itself redeems. */
export const LOGIN_PURPOSE = 'login';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function toToken(row: Record<string, any>): OneTimeToken {
  return {
    purpose: row.purpose,
    userName: row.user_name,
    data: row.data ?? {},
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}

const byUser = (userName: string) => sql<boolean>`lower(user_name) = ${userName.toLowerCase()}`;

export class OneTimeTokenStore implements OneTimeTokens {
  constructor(private readonly db: Database) {}

  async issue(
    purpose: string,
    userName: string,
    options: { ttlSeconds: number; data?: Record<string, unknown>; replace?: boolean },
  ): Promise<string> {
    const token = randomBytes(32).toString('hex');
    await this.db.transaction().execute(async (trx) => {
      if (options.replace) {
        await trx
          .deleteFrom('one_time_tokens')
          .where('purpose', '=', purpose)
          .where(byUser(userName))
          .execute();
      }
      await trx
        .insertInto('one_time_tokens')
        .values({
          token_hash: hashToken(token),
          purpose,
          user_name: userName,
          data: JSON.stringify(options.data ?? {}),
          expires_at: sql`now() + make_interval(secs => ${options.ttlSeconds})`,
        })
        .execute();
      // Nothing else ever reads expired rows; issuing is rare enough to sweep them here.
      await trx
        .deleteFrom('one_time_tokens')
        .where('expires_at', '<=', sql<Date>`now()`)
        .execute();
    });
    return token;
  }

  async peek(purpose: string, token: string): Promise<OneTimeToken | null> {
    const row = await this.db
      .selectFrom('one_time_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .where('purpose', '=', purpose)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return row ? toToken(row) : null;
  }

  async consume(purpose: string, token: string): Promise<OneTimeToken | null> {
    // One DELETE ... RETURNING: two processes redeeming the same link at once cannot both win.
    const row = await this.db
      .deleteFrom('one_time_tokens')
      .where('token_hash', '=', hashToken(token))
      .where('purpose', '=', purpose)
      .where('expires_at', '>', sql<Date>`now()`)
      .returningAll()
      .executeTakeFirst();
    return row ? toToken(row) : null;
  }

  async lastIssued(purpose: string, userName: string): Promise<Date | null> {
    const row = await this.db
      .selectFrom('one_time_tokens')
      .select(sql<Date | null>`max(created_at)`.as('at'))
      .where('purpose', '=', purpose)
      .where(byUser(userName))
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return row?.at ? new Date(row.at) : null;
  }

  /** Forget every token of a user (the account was deleted, deactivated, or its password changed). */
  async revokeAll(userName: string): Promise<void> {
    await this.db.deleteFrom('one_time_tokens').where(byUser(userName)).execute();
  }

  async rename(oldName: string, newName: string): Promise<void> {
    await this.db.updateTable('one_time_tokens').set({ user_name: newName }).where(byUser(oldName)).execute();
  }
}
