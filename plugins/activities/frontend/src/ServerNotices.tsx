import type { PipewrightClient } from '@pipewright/sdk/client';
import { useLoaded, When } from '@pipewright/sdk/ui';
import { go } from './links';

type Status = 'read' | 'unread' | 'inactive';
type Notice = Awaited<ReturnType<typeof readNotices>>['notices'][number];

/** None where the notices addon does not run. */
const readNotices = (client: PipewrightClient, unreadOnly: boolean, includeArchived: boolean) =>
  client.GET('/api/notices', { params: { query: { unreadOnly, includeArchived, limit: 50 } } }).catch(() => ({
    notices: [],
    unread: 0,
  }));

/** What the server tells the user that is not about an entity (a webhook of theirs paused), as the inbox shows it. */
export function useServerNotices(client: PipewrightClient, unreadOnly: boolean, includeArchived: boolean) {
  const loaded = useLoaded(
    () => readNotices(client, unreadOnly, includeArchived),
    [client, unreadOnly, includeArchived],
  );
  return {
    notices: loaded.data?.notices ?? [],
    unread: loaded.data?.unread ?? 0,
    reload: loaded.reload,
    mark: async (ids: string[], status: Status) => {
      if (ids.length) await client.POST('/api/notices', { body: { ids, status } });
    },
  };
}

/** The notices above the inbox's messages, marked and archived as messages are. */
export function ServerNotices({
  notices,
  onMark,
}: {
  notices: Notice[];
  onMark(notice: Notice, status: Status): void;
}) {
  if (notices.length === 0) return null;
  return (
    <section className="pwa-kind" aria-label="From the server">
      <h2>From the server</h2>
      <ol className="pwa-messages" aria-label="Messages: From the server">
        {notices.map((notice) => (
          <li
            key={notice.id}
            className={[
              'pwa-message',
              notice.read ? 'pwa-read' : 'pwa-unread',
              notice.active ? '' : 'pwa-archived',
            ]
              .filter(Boolean)
              .join(' ')}
            data-topic={notice.topic}
            aria-label={`${notice.read ? '' : 'Unread: '}${notice.title}`}
          >
            <span className="pwa-unread-dot" aria-hidden="true" />
            <div className="pwa-message-main">
              <div className="pwa-message-head">
                <strong>{notice.title}</strong>
                <span className="pw-grow" />
                <When at={notice.createdAt} className="muted pwa-time" />
              </div>
              {notice.body && <div className="pwa-message-body">{notice.body}</div>}
            </div>
            <div className="pwa-message-actions">
              {notice.link && (
                <button
                  type="button"
                  onClick={() => {
                    if (!notice.read) onMark(notice, 'read');
                    go(notice.link!);
                  }}
                >
                  Open
                </button>
              )}
              <button type="button" onClick={() => onMark(notice, notice.read ? 'unread' : 'read')}>
                {notice.read ? 'Mark unread' : 'Mark read'}
              </button>
              <button
                type="button"
                onClick={() => onMark(notice, notice.active ? 'inactive' : 'read')}
                title={notice.active ? 'Move out of the inbox' : 'Back into the inbox'}
              >
                {notice.active ? 'Archive' : 'Unarchive'}
              </button>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
