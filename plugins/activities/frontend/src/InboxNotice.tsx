import { When } from '@pipewright/sdk/ui';
import { useState } from 'react';
import { authorName, Avatar } from './ActivityItem';
import type { Activity } from './activity';
import { isImportant, type Notice } from './inbox-kinds';
import { openableEntity } from './links';
import { InlineMarkdown, type MentionRenderer } from './markdown';
import { placeOf, type FolderPaths } from './paths';

const WHY: Record<string, string> = {
  mention: 'mentioned you',
  watching: 'on something you watch',
  relation: 'on your work',
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Whom an assignment names: "you", or the person its body links. */
function assigneeOf(message: Activity, me: string): string {
  const name = message.data.assignee;
  if (name === me) return 'you';
  return /\[([^\]]+)\]\(user:/.exec(message.body)?.[1] ?? String(name ?? 'someone');
}

/** What a notice says happened, after who did it. */
function whatHappened(notice: Notice, me: string): string {
  const [first] = notice.messages;
  const count = notice.messages.length;
  const things = plural(count, first!.origin?.type ?? 'item');
  if (notice.kind === 'assignment') {
    const who = assigneeOf(first!, me);
    return first!.type === 'assignee.add' ? `assigned ${who} to ${things}` : `removed ${who} from ${things}`;
  }
  if (notice.kind === 'status') {
    const to = String(first!.data.newValue ?? 'a new status');
    return count === 1 ? `changed the status to ${to}` : `changed the status of ${things} to ${to}`;
  }
  if (notice.kind === 'change') {
    const key = String(first!.data.key ?? 'a value');
    if (count === 1) return `changed ${key} to ${JSON.stringify(first!.data.newValue ?? null)}`;
    const oneKey = notice.messages.every((message) => message.data.key === first!.data.key);
    return oneKey ? `changed ${key} of ${things}` : `changed values of ${things}`;
  }
  return WHY[first!.referenceType] ?? '';
}

/**
 * One row of the inbox: a message, or the notices one action made, with the full path of what they are about.
 * Marking and archiving a grouped notice marks every message in it.
 */
export function InboxNotice({
  notice,
  me,
  paths,
  mention,
  onOpen,
  onMark,
}: {
  notice: Notice;
  me: string;
  paths: FolderPaths;
  mention: MentionRenderer;
  onOpen(message: Activity): void;
  onMark(messages: Activity[], status: 'read' | 'unread' | 'inactive'): void;
}) {
  const [expanded, setExpanded] = useState(false);
  const { messages } = notice;
  const first = messages[0]!;
  const grouped = messages.length > 1;
  const read = messages.every((message) => message.read);
  const active = messages.some((message) => message.active);
  const important = messages.some(isImportant);
  const who = authorName(first);
  const what = whatHappened(notice, me);
  const target = grouped ? null : openableEntity(first.origin, first.parents);
  const noun = first.origin?.type ?? 'item';
  const classes = ['pwa-message', read ? 'pwa-read' : 'pwa-unread', active ? '' : 'pwa-archived'];
  return (
    <li
      className={classes.filter(Boolean).join(' ')}
      data-activity-id={grouped ? undefined : first.id}
      data-kind={notice.kind}
      aria-label={`${read ? '' : 'Unread: '}${who} ${what}`.trim()}
    >
      <span className="pwa-unread-dot" aria-hidden="true" />
      <Avatar name={first.author?.name ?? ''} title={who} />
      <div className="pwa-message-main">
        <div className="pwa-message-head">
          <strong>{who}</strong> <span className="muted">{what}</span>{' '}
          {important && <span className="pw-badge pw-badge-info pwa-important">important</span>}{' '}
          {!grouped && (
            <span className="pwa-place" title={placeOf(first, paths)}>
              {placeOf(first, paths)}
            </span>
          )}
          <span className="pw-grow" />
          <When at={first.createdAt} className="muted pwa-time" />
        </div>
        {(notice.kind === 'conversation' || notice.kind === 'news') && (
          <div className="pwa-message-body">
            <InlineMarkdown body={first.body} options={{ mention }} />
          </div>
        )}
        {grouped && (
          <button type="button" className="pw-link" onClick={() => setExpanded(!expanded)}>
            {expanded ? `Hide the ${noun}s` : `Show the ${plural(messages.length, noun)}`}
          </button>
        )}
        {grouped && expanded && (
          <ul className="pwa-notice-list" aria-label={`${noun[0]!.toUpperCase()}${noun.slice(1)}s`}>
            {messages.map((message) => (
              <li key={message.referenceId}>
                <span className="pwa-place">{placeOf(message, paths)}</span>{' '}
                {openableEntity(message.origin, message.parents) && (
                  <button type="button" className="pw-link" onClick={() => onOpen(message)}>
                    Open
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {first.files.length > 0 && (
          <div className="muted pwa-small">{plural(first.files.length, 'file')} attached</div>
        )}
      </div>
      <div className="pwa-message-actions">
        {target && (
          <button
            type="button"
            onClick={() => onOpen(first)}
            title={`Open ${target.label || target.name} in the overview`}
          >
            Open
          </button>
        )}
        <button type="button" onClick={() => onMark(messages, read ? 'unread' : 'read')}>
          {read ? 'Mark unread' : 'Mark read'}
        </button>
        {active ? (
          <button type="button" onClick={() => onMark(messages, 'inactive')} title="Move out of the inbox">
            Archive
          </button>
        ) : (
          <button type="button" onClick={() => onMark(messages, 'read')} title="Back into the inbox">
            Unarchive
          </button>
        )}
      </div>
    </li>
  );
}
