import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';

export type LinkTarget = 'list' | 'version';

export interface LinkRow {
  id: string;
  token_hash: string;
  project_name: string;
  target: LinkTarget;
  target_id: string;
  label: string;
  expires_at: Date | null;
  password_hash: string | null;
  can_comment: boolean;
  can_download: boolean;
  can_approve: boolean;
  created_by: string;
  created_at: Date;
  revoked_at: Date | null;
  revoked_by: string | null;
}

export interface SessionRow {
  id: string;
  link_id: string;
  guest_name: string;
  created_at: Date;
}

export type LogAction = 'open' | 'download' | 'comment' | 'approve' | 'revoke' | 'password-refused';

export interface LogRow {
  link_id: string;
  at: Date;
  action: LogAction;
  guest_name: string | null;
  address: string | null;
  detail: string | null;
}

/** The guest links, their guests' sessions and their log. */
export class GuestLinkStore {
  constructor(private readonly db: Database) {}

  async insertLink(row: Omit<LinkRow, 'created_at' | 'revoked_at' | 'revoked_by'>): Promise<void> {
    await this.db.insertInto('guest_links').values(row).execute();
  }

  async link(id: string): Promise<LinkRow | null> {
    return ((await this.db.selectFrom('guest_links').selectAll().where('id', '=', id).executeTakeFirst()) ??
      null) as LinkRow | null;
  }

  /** The link a token opens; with lock, its row stays locked until the caller's unit of work ends. */
  async linkByToken(hash: string, lock = false): Promise<LinkRow | null> {
    let query = this.db.selectFrom('guest_links').selectAll().where('token_hash', '=', hash);
    if (lock) query = query.forUpdate();
    return ((await query.executeTakeFirst()) ?? null) as LinkRow | null;
  }

  /** A project's links, newest first, optionally of one list or version. */
  async links(project: string, target?: { kind: LinkTarget; id: string }): Promise<LinkRow[]> {
    let query = this.db.selectFrom('guest_links').selectAll().where('project_name', '=', project);
    if (target) query = query.where('target', '=', target.kind).where('target_id', '=', target.id);
    return (await query.orderBy('created_at', 'desc').execute()) as LinkRow[];
  }

  /** Mark a link revoked; false when it was already. */
  async revoke(id: string, by: string): Promise<boolean> {
    const done = await this.db
      .updateTable('guest_links')
      .set({ revoked_at: sql`now()`, revoked_by: by })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  async insertSession(row: { id: string; token_hash: string; link_id: string; guest_name: string }) {
    await this.db.insertInto('guest_sessions').values(row).execute();
  }

  /** A session with its link, by the session token's hash. */
  async session(hash: string): Promise<{ session: SessionRow; link: LinkRow } | null> {
    const row = await this.db
      .selectFrom('guest_sessions as s')
      .innerJoin('guest_links as l', 'l.id', 's.link_id')
      .selectAll('l')
      .select(['s.id as session_id', 's.guest_name', 's.created_at as session_created_at'])
      .where('s.token_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    const { session_id, guest_name, session_created_at, ...link } = row as LinkRow & {
      session_id: string;
      guest_name: string;
      session_created_at: Date;
    };
    return {
      session: { id: session_id, link_id: link.id, guest_name, created_at: session_created_at },
      link: link as LinkRow,
    };
  }

  async log(row: Omit<LogRow, 'at'>): Promise<void> {
    await this.db.insertInto('guest_link_log').values(row).execute();
  }

  /** A link's log, oldest first. */
  async logOf(linkId: string): Promise<LogRow[]> {
    return (await this.db
      .selectFrom('guest_link_log')
      .select(['link_id', 'at', 'action', 'guest_name', 'address', 'detail'])
      .where('link_id', '=', linkId)
      .orderBy('id')
      .execute()) as LogRow[];
  }

  /** Refused passwords of a link since a time, and the oldest of them (when the window reopens). */
  async refusals(linkId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const row = await this.db
      .selectFrom('guest_link_log')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('at').as('oldest')])
      .where('link_id', '=', linkId)
      .where('action', '=', 'password-refused')
      .where('at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), oldest: row.oldest ? new Date(row.oldest as Date) : null };
  }
}
