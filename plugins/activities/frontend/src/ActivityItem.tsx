import { useEffect, useState } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { ConfirmButton, ErrorBox, useAction, When } from '@pipewright/sdk/ui';
import type { Activity } from './activity';
import type { Suggestions } from './activity-routes';
import { AttachedFiles } from './Files';
import { go } from './links';
import { InlineMarkdown, Markdown, toggleCheckbox, type MentionRenderer } from './markdown';
import { MentionInput } from './MentionInput';
import { placeOf, type FolderPaths } from './paths';
import { Reactions } from './Reactions';

/** What an activity item may ask the feed to do; each resolves when the server has answered. */
export interface ActivityActions {
  edit(activity: Activity, body: string): Promise<unknown>;
  remove(activity: Activity): Promise<unknown>;
  react(activity: Activity, reaction: string, add: boolean): Promise<unknown>;
}

const ICONS: Record<string, string> = {
  'status.change': '◐',
  'attrib.change': '✎',
  'assignee.add': '+',
  'assignee.remove': '−',
  'version.publish': '⬆',
  reviewable: '▶',
};

/** Who did it, as people know them. */
export const authorName = (activity: Activity) =>
  activity.author ? activity.author.fullName || activity.author.name : 'The server';

/** Initials in a coloured circle: tells authors apart at a glance in a long conversation. */
export function Avatar({ name, title }: { name: string; title: string }) {
  const initials =
    title
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => word[0]!.toUpperCase())
      .join('') || '?';
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return (
    <span className="pwa-avatar" style={{ background: `hsl(${hash} 45% 42%)` }} aria-hidden="true">
      {initials}
    </span>
  );
}

/** A status change, an assignment, a publish: one line, since they are what happened rather than what was said. */
function CompactActivity({
  activity,
  entityId,
  paths,
  mention,
}: {
  activity: Activity;
  entityId: string;
  paths: FolderPaths;
  mention: MentionRenderer;
}) {
  const status = activity.type === 'status.change';
  const from = activity.data.oldValue as string | null | undefined;
  const to = activity.data.newValue as string | undefined;
  // A change of something else (a version of this task, a task in this folder) says what changed.
  const other = activity.origin && activity.origin.id !== entityId ? activity.origin : null;
  return (
    <li
      className={`pwa-item pwa-compact pwa-type-${activity.type.replace('.', '-')}`}
      data-activity-id={activity.id}
      data-activity-type={activity.type}
    >
      <span className="pwa-compact-icon" aria-hidden="true">
        {ICONS[activity.type] ?? '•'}
      </span>
      <span className="pwa-compact-text">
        <strong>{authorName(activity)}</strong>{' '}
        {status && to ? (
          <>
            changed the status{' '}
            {from ? (
              <>
                from <span className="pwa-status">{from}</span>{' '}
              </>
            ) : null}
            to <span className="pwa-status">{to}</span>
            {other ? (
              <>
                {' '}
                of {other.type} <span className="pwa-origin">{placeOf(activity, paths)}</span>
              </>
            ) : null}
          </>
        ) : (
          <>
            <InlineMarkdown body={activity.body} options={{ mention }} />
            {other && <span className="pwa-place"> in {placeOf(activity, paths)}</span>}
          </>
        )}
      </span>{' '}
      <When at={activity.createdAt} className="muted pwa-time" />
    </li>
  );
}

/** What an activity of a feed is shown with. */
interface ActivityItemProps {
  activity: Activity;
  /** The entity whose feed this is. */
  entityId: string;
  /** Folder paths, to name other entities of the feed (a folder's tasks) in full. */
  paths: FolderPaths;
  user: ScreenUser;
  project: string;
  mention: MentionRenderer;
  actions: ActivityActions;
  suggestions: Suggestions | null;
  onWantSuggestions(): void;
}

/** A comment: who, when, the body (checkboxes tickable), files, reactions, and edit/delete for its author. */
function Comment({
  activity,
  entityId,
  paths,
  user,
  project,
  mention,
  actions,
  suggestions,
  onWantSuggestions,
}: ActivityItemProps) {
  const [editing, setEditing] = useState<string | null>(null);
  // Edits, ticks, reactions and deletion: one at a time, their failure shown under the comment.
  const { busy, error, run } = useAction();
  // A ticked box shows at once; the server's answer (or the live update after it) settles it.
  const [shownBody, setShownBody] = useState<string | null>(null);
  const body = shownBody ?? activity.body;
  // What the server has now (an edit, someone else's tick) replaces what was shown ahead of it.
  useEffect(() => setShownBody(null), [activity.body]);
  const mine = activity.author?.name === user.name;
  const mayChange = mine || user.isAdmin;
  const who = authorName(activity);

  const tick = (line: number) => {
    const next = toggleCheckbox(body, line);
    setShownBody(next);
    void run(() => actions.edit(activity, next)).then((ok) => {
      // Refused: the box goes back to what the server has.
      if (!ok) setShownBody(null);
    });
  };

  const save = async () => {
    if (editing === null) return;
    if (await run(() => actions.edit(activity, editing))) {
      setShownBody(editing);
      setEditing(null);
    }
  };

  return (
    <li className="pwa-item pwa-comment" data-activity-id={activity.id} data-activity-type={activity.type}>
      <article aria-label={`Comment by ${who}`}>
        <header className="pwa-comment-header">
          <Avatar name={activity.author?.name ?? ''} title={who} />
          <strong className="pwa-author">{who}</strong>
          {activity.origin && activity.origin.id !== entityId && (
            <span className="pwa-place">on {placeOf(activity, paths)}</span>
          )}
          <FrameLink project={project} activity={activity} />
          <When at={activity.createdAt} className="muted pwa-time" />
        </header>
        {editing !== null ? (
          <div className="pwa-edit">
            <MentionInput
              label="Edit the comment"
              value={editing}
              onChange={setEditing}
              suggestions={suggestions}
              onWantSuggestions={onWantSuggestions}
              onSubmit={() => void save()}
              onCancel={() => setEditing(null)}
              autoFocus
              disabled={busy}
            />
            <div className="pw-row">
              <button type="button" className="primary" disabled={busy} onClick={() => void save()}>
                {busy ? 'Saving…' : 'Save'}
              </button>
              <button type="button" disabled={busy} onClick={() => setEditing(null)}>
                Cancel
              </button>
            </div>
          </div>
        ) : (
          <Markdown body={body} options={{ mention, onToggle: busy ? undefined : tick }} />
        )}
        <AttachedFiles project={project} files={activity.files} />
        <ErrorBox error={error} />
        <footer className="pwa-comment-footer">
          <Reactions
            reactions={activity.reactions}
            me={user.name}
            onToggle={(reaction, add) => void run(() => actions.react(activity, reaction, add))}
          />
          {mayChange && editing === null && (
            <span className="pwa-comment-actions">
              <button type="button" className="pw-link" onClick={() => setEditing(body)}>
                Edit
              </button>
              <ConfirmButton
                label="Delete"
                confirmLabel="Delete this comment"
                disabled={busy}
                onConfirm={() => void run(() => actions.remove(activity))}
              />
            </span>
          )}
        </footer>
      </article>
    </li>
  );
}

/** One activity of a feed, as a comment or as a compact line. */
export function ActivityItem(props: ActivityItemProps) {
  if (props.activity.type === 'comment') return <Comment {...props} />;
  return (
    <CompactActivity
      activity={props.activity}
      entityId={props.entityId}
      paths={props.paths}
      mention={props.mention}
    />
  );
}

/**
 * The frame a comment on review media is about (data.frame, in the shot's numbering; data.frameEnd for a range): a
 * link that opens the version's review on that frame (the range's first), or moves the player there when it is open.
 */
function FrameLink({ project, activity }: { project: string; activity: Activity }) {
  const { frame, frameEnd } = activity.data;
  if (typeof frame !== 'number' || activity.origin?.type !== 'version') return null;
  const link =
    `/addon/reviewables/reviewables_screens?project=${encodeURIComponent(project)}` +
    `&version=${activity.origin.id}&frame=${frame}`;
  return (
    <a
      className="pwa-frame-link"
      href={link}
      onClick={(event) => {
        event.preventDefault();
        go(link);
      }}
    >
      {typeof frameEnd === 'number' && frameEnd > frame ? `frames ${frame}–${frameEnd}` : `frame ${frame}`}
    </a>
  );
}
