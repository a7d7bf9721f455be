import { isoTime, newId, type Database, type EventBus, type RequestUser } from '@pipewright/sdk';
import type { NoticeInput, Notices } from './api.js';
import type { MarkStatus, NoticeRow, NoticeStore } from './store.js';

export const presentNotice = (row: NoticeRow) => ({
  id: row.id.replaceAll('-', ''),
  topic: row.topic,
  title: row.title,
  body: row.body,
  link: row.link,
  read: row.read,
  active: row.active,
  createdAt: isoTime(row.created_at),
});

/** Notices: written for their recipients by other addons, read and marked by each recipient alone. */
export class NoticeService implements Notices {
  constructor(
    private readonly db: Database,
    private readonly store: NoticeStore,
    private readonly events: EventBus,
  ) {}

  async send(recipients: string[], notice: NoticeInput): Promise<void> {
    const users = [...new Set(recipients)];
    if (users.length === 0) return;
    await this.db.transaction().execute(async () => {
      await this.store.insert(
        users.map((user) => ({
          id: newId(),
          user_name: user,
          topic: notice.topic,
          title: notice.title,
          body: notice.body ?? '',
          link: notice.link ?? null,
        })),
      );
      // As an activity's inbox messages are: broadcast to the recipients only, never stored as an event.
      await this.events.emit({
        topic: 'inbox.message',
        description: notice.title,
        summary: { isImportant: true, notice: notice.topic },
        recipients: users,
        store: false,
      });
    });
  }

  async list(caller: RequestUser, filter: { includeArchived: boolean; unreadOnly: boolean; limit: number }) {
    const rows = await this.store.list(caller.name, filter);
    return { notices: rows.map(presentNotice), unread: await this.store.unread(caller.name) };
  }

  async mark(caller: RequestUser, ids: string[], status: MarkStatus): Promise<number> {
    return ids.length ? this.store.mark(caller.name, ids, status) : 0;
  }
}
