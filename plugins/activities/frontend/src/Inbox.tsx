import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, exposedScreen, liveStateOf, useLiveEvents, useLoaded } from '@pipewright/sdk/ui';
import type { Activity } from './activity';
import { countUnread, readInbox, type InboxFilter } from './activity-queries';
import { markMessages } from './activity-routes';
import { KINDS, noticesByKind } from './inbox-kinds';
import { InboxNotice } from './InboxNotice';
import { go, openableEntity, overviewLink } from './links';
import { useSettled } from './live';
import type { MentionRenderer } from './markdown';
import { mentionsIn } from './mentions';
import { useOlderPages } from './older';
import { readFolderPaths, type FolderPaths } from './paths';
import { ServerNotices, useServerNotices } from './ServerNotices';
import './activities.css';

const PAGE = 50;
/** Unread messages are counted up to this; beyond it the count says "500+". */
const COUNT_CAP = 500;

interface Options extends InboxFilter {
  importantFirst: boolean;
}

/** The switches above the messages, in their order. */
const OPTION_LABELS: [keyof Options, string][] = [
  ['importantFirst', 'Important first'],
  ['unreadOnly', 'Unread only'],
  ['activeOnly', 'Hide archived'],
];

/**
 * The caller's inbox across projects in kinds: mentions and replies first, then assignments and status changes
 * (the notices of one action as one row), then other news; newest first within a kind. Messages are marked read,
 * unread or archived; a message opens its entity in the overview.
 */
export default exposedScreen(function Inbox({ client, user }: ScreenProps) {
  const [options, setOptions] = useState<Options>({
    importantFirst: true,
    unreadOnly: false,
    activeOnly: true,
  });
  const [paths, setPaths] = useState<FolderPaths>(new Map());
  const [actionError, setActionError] = useState<unknown>(null);
  const { readingOlder, olderError, setOlderError, readOlder: readOlderPage } = useOlderPages();
  const shownCount = useRef(PAGE);
  const mentionsByProject = useRef(new Map<string, MentionRenderer>());
  const knownPaths = useRef<FolderPaths>(new Map());

  /** The full paths of a page's entities, in one request; without them the names the messages keep stand in. */
  const readPaths = useCallback(
    (page: Activity[]) =>
      readFolderPaths(client, page, knownPaths.current).then(
        (found) => setPaths((knownPaths.current = found)),
        () => undefined,
      ),
    [client],
  );

  // As many of the newest messages as are on screen: a reload after a live event reads as many again.
  const inbox = useLoaded(async () => {
    const page = await readInbox(client, options, Math.max(PAGE, shownCount.current));
    void readPaths(page.activities);
    return page;
  }, [client, options]);
  const counted = useLoaded(() => countUnread(client, COUNT_CAP).catch(() => null), [client, options]);
  const server = useServerNotices(client, options.unreadOnly, !options.activeOnly);
  const messages = inbox.data?.activities ?? null;
  const older = inbox.data?.older ?? null;
  const error = inbox.error ?? olderError;
  const unread = counted.data === null ? null : counted.data + server.unread;
  const { reload: readMessages, set: setPage } = inbox;
  const { reload: readCount } = counted;
  const { reload: readNotices } = server;
  const reload = useCallback(() => {
    setOlderError(null);
    void readMessages();
    void readCount();
    void readNotices();
  }, [readMessages, readCount, readNotices, setOlderError]);
  useEffect(() => {
    if (messages) shownCount.current = messages.length;
  }, [messages]);

  const soon = useSettled(reload);
  // New messages arrive addressed to this user whatever the project; the inbox follows every project.
  const live = liveStateOf(
    useLiveEvents({ client, topics: TOPICS, project: null, onEvent: soon, onReconnect: reload }),
  );

  const readOlder = async () => {
    if (!older) return;
    await readOlderPage(async () => {
      const page = await readInbox(client, options, PAGE, older);
      setPage((current) => ({
        activities: [...page.activities, ...(current?.activities ?? [])],
        older: page.older,
      }));
      void readPaths(page.activities);
    });
  };

  /** Mark messages (and notices from the server), shown at once and then confirmed by a fresh read. */
  const mark = async (chosen: Activity[], status: 'read' | 'unread' | 'inactive', notices: string[] = []) => {
    setActionError(null);
    setPage(
      (current) =>
        current && {
          ...current,
          activities: current.activities.map((message) =>
            chosen.some((c) => c.referenceId === message.referenceId)
              ? { ...message, read: status !== 'unread', active: status !== 'inactive' }
              : message,
          ),
        },
    );
    try {
      const byProject = new Map<string, string[]>();
      for (const message of chosen)
        byProject.set(message.projectName, [
          ...(byProject.get(message.projectName) ?? []),
          message.referenceId,
        ]);
      for (const [project, ids] of byProject) await markMessages(client, project, { ids }, status);
      await server.mark(notices, status);
    } catch (failure) {
      setActionError(failure);
    }
    reload();
    // The shell's navigation shows the unread count: it reads it again on this signal.
    window.dispatchEvent(new Event('pipewright:inbox'));
  };

  const open = (message: Activity) => {
    if (!message.read) void mark([message], 'read');
    const target = openableEntity(message.origin, message.parents);
    const link = target && overviewLink(message.projectName, target.type, target.id);
    if (link) go(link);
  };

  const mention = (project: string) => {
    let renderer = mentionsByProject.current.get(project);
    if (!renderer) mentionsByProject.current.set(project, (renderer = mentionsIn(project)));
    return renderer;
  };

  const shown = useMemo(() => [...(messages ?? [])].reverse(), [messages]);
  const notices = useMemo(
    () => noticesByKind(shown, options.importantFirst),
    [shown, options.importantFirst],
  );

  const unreadShown = shown.filter((message) => !message.read && message.active);
  const unreadNotices = server.notices.filter((notice) => !notice.read && notice.active).map(({ id }) => id);
  const change = (patch: Partial<Options>) => {
    shownCount.current = PAGE;
    setOlderError(null);
    setOptions((current) => ({ ...current, ...patch }));
  };

  return (
    <section className="pw-screen pwa-inbox">
      <header className="pw-header">
        <h1>Inbox</h1>
        <span className="pw-badge pw-badge-info" aria-label="Unread messages" data-unread={unread ?? ''}>
          {unread === null ? '…' : unread >= COUNT_CAP ? `${COUNT_CAP}+` : unread} unread
        </span>
        {live === 'reconnecting' && <span className="muted">New messages paused: reconnecting…</span>}
        {live === 'off' && <span className="muted">New messages show after a reload of this page.</span>}
      </header>
      <p className="muted pwa-intro">
        Comments that mention you and replies on what you follow first, then your assignments and status
        changes, across your projects. Important: a direct mention, or news of something you watch.
      </p>
      <div className="pw-row pwa-inbox-options" role="group" aria-label="Which messages">
        {OPTION_LABELS.map(([key, label]) => (
          <label key={key} className="pw-inline">
            <input
              type="checkbox"
              checked={options[key]}
              onChange={(event) => change({ [key]: event.target.checked })}
            />
            {label}
          </label>
        ))}
        <span className="pw-grow" />
        <button
          type="button"
          disabled={unreadShown.length === 0 && unreadNotices.length === 0}
          onClick={() => void mark(unreadShown, 'read', unreadNotices)}
        >
          Mark all as read
        </button>
      </div>
      <ErrorBox
        error={error && `The inbox could not be read: ${error}. It is read again when news arrives.`}
      />
      <ErrorBox error={actionError} prefix="Not changed:" />
      {!messages && !error && <p className="muted">Reading your inbox…</p>}
      <ServerNotices
        notices={server.notices}
        onMark={(notice, status) => void mark([], status, [notice.id])}
      />
      {messages && shown.length === 0 && server.notices.length === 0 && (
        <div className="pw-empty">
          <strong>{options.unreadOnly ? 'Nothing unread.' : 'Your inbox is empty.'}</strong>
          <p>
            Messages arrive here when someone mentions you in a comment, when something you watch changes, and
            when there is news of your tasks. Watch a task from its activity to follow it.
          </p>
        </div>
      )}
      {KINDS.filter(({ kind }) => notices.get(kind)!.length > 0).map(({ kind, title }) => (
        <section key={kind} className="pwa-kind" aria-label={title}>
          <h2>{title}</h2>
          <ol className="pwa-messages" aria-label={`Messages: ${title}`}>
            {notices.get(kind)!.map((notice) => (
              <InboxNotice
                key={notice.key}
                notice={notice}
                me={user.name}
                paths={paths}
                mention={mention(notice.messages[0]!.projectName)}
                onOpen={open}
                onMark={(chosen, status) => void mark(chosen, status)}
              />
            ))}
          </ol>
        </section>
      ))}
      {older && (
        <button type="button" disabled={readingOlder} onClick={() => void readOlder()}>
          {readingOlder ? 'Reading older messages…' : 'Show older messages'}
        </button>
      )}
    </section>
  );
});

const TOPICS = ['inbox.message'];
