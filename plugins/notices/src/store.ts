import type { Database } from '@pipewright/sdk';

export interface NoticeRow {
  id: string;
  user_name: string;
  topic: string;
  title: string;
  body: string;
  link: string | null;
  read: boolean;
  active: boolean;
  created_at: Date;
}

export type MarkStatus = 'read' | 'unread' | 'inactive';

/** The notices table. */
export class NoticeStore {
  constructor(private readonly db: Database) {}

  async insert(rows: Omit<NoticeRow, 'read' | 'active' | 'created_at'>[]): Promise<void> {
    if (rows.length) await this.db.insertInto('notices').values(rows).execute();
  }

  /** A user's notices, newest first: the active ones, or all; optionally only the unread. */
  async list(userName: string, filter: { includeArchived: boolean; unreadOnly: boolean; limit: number }) {
    let query = this.db.selectFrom('notices').selectAll().where('user_name', '=', userName);
    if (!filter.includeArchived) query = query.where('active', '=', true);
    if (filter.unreadOnly) query = query.where('read', '=', false);
    return (await query.orderBy('creation_order', 'desc').limit(filter.limit).execute()) as NoticeRow[];
  }

  async unread(userName: string): Promise<number> {
    const row = await this.db
      .selectFrom('notices')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('user_name', '=', userName)
      .where('active', '=', true)
      .where('read', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Mark a user's notices (only theirs): answers how many changed. */
  async mark(userName: string, ids: string[], status: MarkStatus): Promise<number> {
    const changes =
      status === 'inactive' ? { read: true, active: false } : { read: status === 'read', active: true };
    const done = await this.db
      .updateTable('notices')
      .set(changes)
      .where('user_name', '=', userName)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(done.numUpdatedRows);
  }
}
