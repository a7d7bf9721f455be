import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, messageOf } from '@pipewright/sdk/ui';
import { authorName, Avatar } from './ActivityItem';
import { countUnread, markMessages, readInbox, type Activity, type InboxFilter } from './api';
import { exactTime, whenText } from './format';
import { go, openableEntity, overviewLink } from './links';
import { useLive, useSettled } from './live';
import { InlineMarkdown, type MentionRenderer } from './markdown';
import { mentionsIn } from './mentions';
import './activities.css';

const PAGE = 50;
/** Unread messages are counted up to this; beyond it the count says "500+". */
const COUNT_CAP = 500;

/** Mentions and messages from watched entities matter more than news of related ones (the server's rule). */
const isImportant = (message: Activity) =>
  (message.referenceType === 'mention' || message.referenceType === 'watching') &&
  message.type !== 'status.change';

const WHY: Record<string, string> = {
  mention: 'mentioned you',
  watching: 'on something you watch',
  relation: 'on your work',
};

interface Options extends InboxFilter {
  importantFirst: boolean;
}

/**
 * The caller's inbox across projects: comments that mention them, news of what they watch and of their tasks,
 * newest first. Messages are marked read, unread or archived; a message opens its entity in the overview.
 */
export default function Inbox({ client }: ScreenProps) {
  const [options, setOptions] = useState<Options>({
    importantFirst: true,
    unreadOnly: false,
    activeOnly: true,
  });
  const [messages, setMessages] = useState<Activity[] | null>(null);
  const [older, setOlder] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [unread, setUnread] = useState<number | null>(null);
  const [readingOlder, setReadingOlder] = useState(false);
  const shownCount = useRef(PAGE);
  const generation = useRef(0);
  const mentionsByProject = useRef(new Map<string, MentionRenderer>());

  const reload = useCallback(() => {
    const mine = ++generation.current;
    readInbox(client, options, Math.max(PAGE, shownCount.current)).then(
      (page) => {
        if (mine !== generation.current) return;
        setMessages(page.activities);
        setOlder(page.older);
        setError(null);
      },
      (failure) => mine === generation.current && setError(messageOf(failure)),
    );
    countUnread(client, COUNT_CAP).then(setUnread, () => setUnread(null));
  }, [client, options]);

  useEffect(reload, [reload]);
  useEffect(() => {
    if (messages) shownCount.current = messages.length;
  }, [messages]);

  const soon = useSettled(reload);
  // New messages arrive addressed to this user whatever the project; the inbox follows every project.
  const live = useLive(client, TOPICS, null, soon, reload);

  const readOlder = async () => {
    if (!older) return;
    setReadingOlder(true);
    try {
      const page = await readInbox(client, options, PAGE, older);
      setMessages((current) => [...page.activities, ...(current ?? [])]);
      setOlder(page.older);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setReadingOlder(false);
    }
  };

  /** Mark messages, shown at once and then confirmed by a fresh read. */
  const mark = async (chosen: Activity[], status: 'read' | 'unread' | 'inactive') => {
    setActionError(null);
    setMessages(
      (current) =>
        current?.map((message) =>
          chosen.some((c) => c.referenceId === message.referenceId)
            ? { ...message, read: status !== 'unread', active: status !== 'inactive' }
            : message,
        ) ?? null,
    );
    try {
      const byProject = new Map<string, string[]>();
      for (const message of chosen)
        byProject.set(message.projectName, [
          ...(byProject.get(message.projectName) ?? []),
          message.referenceId,
        ]);
      for (const [project, ids] of byProject) await markMessages(client, project, { ids }, status);
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

  const shown = useMemo(() => {
    const list = [...(messages ?? [])].reverse();
    if (!options.importantFirst) return list;
    return [...list.filter(isImportant), ...list.filter((m) => !isImportant(m))];
  }, [messages, options.importantFirst]);

  const unreadShown = shown.filter((message) => !message.read && message.active);
  const change = (patch: Partial<Options>) => {
    shownCount.current = PAGE;
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
        Comments that mention you, news of what you watch and of your tasks, across your projects.
      </p>
      <div className="pw-row pwa-inbox-options" role="group" aria-label="Which messages">
        <label className="pw-inline">
          <input
            type="checkbox"
            checked={options.importantFirst}
            onChange={(event) => change({ importantFirst: event.target.checked })}
          />
          Important first
        </label>
        <label className="pw-inline">
          <input
            type="checkbox"
            checked={options.unreadOnly}
            onChange={(event) => change({ unreadOnly: event.target.checked })}
          />
          Unread only
        </label>
        <label className="pw-inline">
          <input
            type="checkbox"
            checked={options.activeOnly}
            onChange={(event) => change({ activeOnly: event.target.checked })}
          />
          Hide archived
        </label>
        <span className="pw-grow" />
        <button
          type="button"
          disabled={unreadShown.length === 0}
          onClick={() => void mark(unreadShown, 'read')}
        >
          Mark all as read
        </button>
      </div>
      <ErrorBox
        error={error && `The inbox could not be read: ${error}. It is read again when news arrives.`}
      />
      <ErrorBox error={actionError} prefix="Not changed:" />
      {!messages && !error && <p className="muted">Reading your inbox…</p>}
      {messages && shown.length === 0 && (
        <div className="pw-empty">
          <strong>{options.unreadOnly ? 'Nothing unread.' : 'Your inbox is empty.'}</strong>
          <p>
            Messages arrive here when someone mentions you in a comment, when something you watch changes, and
            when there is news of your tasks. Watch a task from its activity to follow it.
          </p>
        </div>
      )}
      {shown.length > 0 && (
        <ol className="pwa-messages" aria-label="Messages">
          {shown.map((message) => (
            <Message
              key={`${message.projectName}/${message.referenceId}`}
              message={message}
              important={isImportant(message)}
              mention={mention(message.projectName)}
              onOpen={() => open(message)}
              onMark={(status) => void mark([message], status)}
            />
          ))}
        </ol>
      )}
      {older && (
        <button type="button" disabled={readingOlder} onClick={() => void readOlder()}>
          {readingOlder ? 'Reading older messages…' : 'Show older messages'}
        </button>
      )}
    </section>
  );
}

const TOPICS = ['inbox.message'];

/** Where a message's entity is: its folder path as the activity names it, then the entity. */
function placeOf(message: Activity): string {
  const names = [...message.parents, ...(message.origin ? [message.origin] : [])].map(
    (e) => e.label || e.name,
  );
  return `${message.projectName} / ${names.join(' / ')}`;
}

function Message({
  message,
  important,
  mention,
  onOpen,
  onMark,
}: {
  message: Activity;
  important: boolean;
  mention: MentionRenderer;
  onOpen(): void;
  onMark(status: 'read' | 'unread' | 'inactive'): void;
}) {
  const who = authorName(message);
  const target = openableEntity(message.origin, message.parents);
  const classes = [
    'pwa-message',
    message.read ? 'pwa-read' : 'pwa-unread',
    message.active ? '' : 'pwa-archived',
  ];
  return (
    <li
      className={classes.filter(Boolean).join(' ')}
      data-activity-id={message.id}
      aria-label={`${message.read ? '' : 'Unread: '}${who} ${WHY[message.referenceType] ?? ''}`.trim()}
    >
      <span className="pwa-unread-dot" aria-hidden="true" />
      <Avatar name={message.author?.name ?? ''} title={who} />
      <div className="pwa-message-main">
        <div className="pwa-message-head">
          <strong>{who}</strong> <span className="muted">{WHY[message.referenceType] ?? ''}</span>{' '}
          {important && <span className="pw-badge pw-badge-info pwa-important">important</span>}{' '}
          <span className="pwa-place" title={placeOf(message)}>
            {placeOf(message)}
          </span>
          <span className="pw-grow" />
          <time className="muted pwa-time" dateTime={message.createdAt} title={exactTime(message.createdAt)}>
            {whenText(message.createdAt)}
          </time>
        </div>
        <div className="pwa-message-body">
          <InlineMarkdown body={message.body} options={{ mention }} />
        </div>
        {message.files.length > 0 && (
          <div className="muted pwa-small">
            {message.files.length} file{message.files.length === 1 ? '' : 's'} attached
          </div>
        )}
      </div>
      <div className="pwa-message-actions">
        {target && (
          <button
            type="button"
            onClick={onOpen}
            title={`Open ${target.label || target.name} in the overview`}
          >
            Open
          </button>
        )}
        <button type="button" onClick={() => onMark(message.read ? 'unread' : 'read')}>
          {message.read ? 'Mark unread' : 'Mark read'}
        </button>
        {message.active ? (
          <button type="button" onClick={() => onMark('inactive')} title="Move out of the inbox">
            Archive
          </button>
        ) : (
          <button type="button" onClick={() => onMark('read')} title="Back into the inbox">
            Unarchive
          </button>
        )}
      </div>
    </li>
  );
}
