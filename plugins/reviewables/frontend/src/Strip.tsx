import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { messageOf, useClient } from '@pipewright/sdk/ui';
import type { Reviewable } from './api';
import { AVAILABILITY, shortFacts, titleOf } from './describe';
import { usePicture } from './pictures';
import { mayRename, reorderRule } from './rights';

// The version's reviewables in their order, as a strip of cards: thumbnail, label and availability. The selected
// one is on the stage above. Those who may reorder drag a card (or use its arrows); those who may rename edit the
// label in place.

/** Marks a drag as one of the strip's own cards, so files dragged in from the desktop go to the upload instead. */
const CARD_DRAG = 'application/x-pipewright-reviewable';

export function Strip({
  project,
  user,
  reviewables,
  selected,
  onSelect,
  onMove,
  onRename,
  saving,
}: {
  project: string;
  user: ScreenUser;
  reviewables: Reviewable[];
  selected: string | null;
  onSelect(activityId: string): void;
  /** Put this reviewable at this index; the screen saves the new order. */
  onMove(activityId: string, index: number): void;
  /** Resolves when the server has the new label; rejects with its refusal. */
  onRename(activityId: string, label: string): Promise<void>;
  /** An order change is on its way to the server. */
  saving: boolean;
}) {
  const reorder = reorderRule(user, reviewables);
  const [dragged, setDragged] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);

  const dropIndex = (event: DragEvent, index: number) => {
    const box = event.currentTarget.getBoundingClientRect();
    return event.clientX < box.left + box.width / 2 ? index : index + 1;
  };
  const endDrag = () => {
    setDragged(null);
    setDropAt(null);
  };

  return (
    <div className="pwr-strip-area">
      <ol className="pwr-strip" aria-label="Reviewables" aria-busy={saving}>
        {reviewables.map((reviewable, index) => (
          <li
            key={reviewable.activityId}
            className={[
              'pwr-card',
              reviewable.activityId === selected ? 'pwr-card-selected' : '',
              reviewable.activityId === dragged ? 'pwr-card-dragged' : '',
              dropAt === index ? 'pwr-drop-before' : '',
              dropAt === index + 1 && index === reviewables.length - 1 ? 'pwr-drop-after' : '',
            ]
              .filter(Boolean)
              .join(' ')}
            data-activity={reviewable.activityId}
            data-label={titleOf(reviewable)}
            draggable={reorder.allowed && !saving}
            onDragStart={(event) => {
              event.dataTransfer.setData(CARD_DRAG, reviewable.activityId);
              event.dataTransfer.effectAllowed = 'move';
              setDragged(reviewable.activityId);
            }}
            onDragOver={(event) => {
              if (!dragged || !event.dataTransfer.types.includes(CARD_DRAG)) return;
              event.preventDefault();
              event.dataTransfer.dropEffect = 'move';
              setDropAt(dropIndex(event, index));
            }}
            onDrop={(event) => {
              if (!dragged || !event.dataTransfer.types.includes(CARD_DRAG)) return;
              event.preventDefault();
              event.stopPropagation();
              const target = dropIndex(event, index);
              const from = reviewables.findIndex((r) => r.activityId === dragged);
              // Dropping past itself: the others close up first.
              const to = target > from ? target - 1 : target;
              if (to !== from) onMove(dragged, to);
              endDrag();
            }}
            onDragEnd={endDrag}
          >
            <Card
              project={project}
              reviewable={reviewable}
              selected={reviewable.activityId === selected}
              onSelect={() => onSelect(reviewable.activityId)}
              mayRename={mayRename(user, reviewable)}
              onRename={(label) => onRename(reviewable.activityId, label)}
              move={
                reorder.allowed
                  ? {
                      earlier: index > 0 && !saving ? () => onMove(reviewable.activityId, index - 1) : null,
                      later:
                        index < reviewables.length - 1 && !saving
                          ? () => onMove(reviewable.activityId, index + 1)
                          : null,
                    }
                  : null
              }
            />
          </li>
        ))}
      </ol>
      {reorder.allowed && (
        <p className="muted pw-small pwr-strip-hint">
          {saving ? 'Saving the order…' : 'Drag the cards (or use their arrows) to change the order.'}
        </p>
      )}
      {reorder.why && <p className="muted pw-small pwr-strip-hint">{reorder.why}</p>}
    </div>
  );
}

function Card({
  project,
  reviewable,
  selected,
  onSelect,
  mayRename,
  onRename,
  move,
}: {
  project: string;
  reviewable: Reviewable;
  selected: boolean;
  onSelect(): void;
  mayRename: boolean;
  onRename(label: string): Promise<void>;
  move: { earlier: (() => void) | null; later: (() => void) | null } | null;
}) {
  const client = useClient();
  const thumbnail = usePicture(client, project, reviewable.fileId, { kind: 'thumbnail' });
  const [editing, setEditing] = useState(false);
  const availability = AVAILABILITY[reviewable.availability];
  const title = titleOf(reviewable);
  return (
    <>
      <button
        type="button"
        className="pwr-card-open"
        aria-pressed={selected}
        aria-label={`Show ${title}`}
        title={`${reviewable.filename} — uploaded by ${reviewable.author.fullName || reviewable.author.name}`}
        onClick={onSelect}
      >
        {thumbnail.src ? (
          <img className="pwr-thumb" src={thumbnail.src} alt="" draggable={false} />
        ) : (
          <span className="pwr-thumb pwr-thumb-empty">{thumbnail.error ? 'No preview' : ''}</span>
        )}
      </button>
      {editing ? (
        <RenameForm initial={title} onSave={onRename} onDone={() => setEditing(false)} />
      ) : (
        <div className="pwr-card-title">
          <span className="pwr-card-label" title={title}>
            {title}
          </span>
          {mayRename && (
            <button
              type="button"
              className="pw-link"
              aria-label={`Rename ${title}`}
              onClick={() => setEditing(true)}
            >
              Rename
            </button>
          )}
        </div>
      )}
      <div className="pwr-card-facts">
        <span
          className={`pw-badge pw-badge-${availability.tone}`}
          title={availability.hint}
          data-availability={reviewable.availability}
        >
          {availability.text}
        </span>
        <span className="muted pw-small">{shortFacts(reviewable)}</span>
        {move && (
          <span className="pwr-card-move">
            {(['earlier', 'later'] as const).map((way) => (
              <button
                key={way}
                type="button"
                disabled={!move[way]}
                onClick={move[way] ?? undefined}
                aria-label={`Move ${title} ${way}`}
                title={`Move ${way}`}
              >
                {way === 'earlier' ? '←' : '→'}
              </button>
            ))}
          </span>
        )}
      </div>
    </>
  );
}

/** The label in place: Enter saves, Escape leaves it as it was. */
function RenameForm({
  initial,
  onSave,
  onDone,
}: {
  initial: string;
  onSave(label: string): Promise<void>;
  onDone(): void;
}) {
  const [value, setValue] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);
  const label = value.trim();
  return (
    <form
      className="pwr-rename"
      onSubmit={(event) => {
        event.preventDefault();
        if (!label) return;
        if (label === initial) return onDone();
        setBusy(true);
        setError(null);
        onSave(label).then(onDone, (failure) => {
          setBusy(false);
          setError(messageOf(failure));
        });
      }}
    >
      <input
        ref={input}
        aria-label="Label"
        value={value}
        maxLength={255}
        disabled={busy}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && onDone()}
      />
      <span className="pw-row">
        <button type="submit" className="primary" disabled={busy || !label}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onDone} disabled={busy}>
          Cancel
        </button>
      </span>
      {!label && (
        <small className="muted">A label cannot be empty (the API replaces labels, never clears them).</small>
      )}
      {error && (
        <small className="pwr-error" role="alert">
          {error}
        </small>
      )}
    </form>
  );
}
