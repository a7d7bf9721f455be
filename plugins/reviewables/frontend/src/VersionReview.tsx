import { useCallback, useRef } from 'react';
import type { LiveEvent } from '@pipewright/sdk/client';
import type { ScreenProps, ScreenUser } from '@pipewright/sdk/screen';
import { ErrorBox, useClient, useLoaded, useSearchParam } from '@pipewright/sdk/ui';
import { readVersion, saveLabel, type Reviewable } from './api';
import { titleOf } from './describe';
import { useComparison } from './CompareBar';
import { FileKindsNote } from './FileKindsNote';
import { PLAIN_RANGE } from './frames';
import { useSessionContext } from './session-context';
import { Stage } from './Stage';
import { Strip } from './Strip';
import { UploadBar } from './UploadBar';
import { useFileDrop } from './use-file-drop';
import { useReviewableOrder } from './use-reviewable-order';
import { useSessionReviewable } from './use-session-place';
import { readVersionFacts } from './version-facts';

/** Topics that change what a version's review shows: uploads, and reviewable activities deleted from the feed. */
const LIVE_TOPICS = ['reviewable.created', 'activity.deleted'];

/** Whether a live event is about this version: someone else uploaded to it or removed one of its reviewables. */
function concerns(event: LiveEvent, versionId: string): boolean {
  const summary = (event.summary ?? {}) as {
    versionId?: string;
    activity_type?: string;
    references?: { entity_id?: string }[];
  };
  return (
    summary.versionId === versionId ||
    (summary.activity_type === 'reviewable' &&
      (summary.references ?? []).some((reference) => reference.entity_id === versionId))
  );
}

/** One version's review: the stage, the strip of its reviewables, the upload, and its activity feed beside them. */
export function VersionReview({
  token,
  user,
  project,
  versionId,
  versionName,
  Extension,
}: {
  token: string;
  user: ScreenUser;
  project: string;
  versionId: string;
  versionName: string;
  Extension: ScreenProps['Extension'];
}) {
  const client = useClient();
  // Read again when someone else uploads to this version or removes one of its reviewables.
  const listing = useLoaded(() => readVersion(client, project, versionId), [client, project, versionId], {
    live: { client, topics: LIVE_TOPICS, project, when: (event) => concerns(event, versionId) },
  });
  // The frame range and the representations. The player waits for the range, so a frame is never shown under
  // another number first; if it cannot be read, frames count from 1 and the error says so.
  const facts = useLoaded(() => readVersionFacts(client, project, versionId), [client, project, versionId]);
  const range = facts.data?.range ?? (facts.error ? PLAIN_RANGE : null);
  const [selected, setSelected] = useSearchParam('reviewable');
  const {
    reviewables,
    move,
    saving,
    error: orderError,
  } = useReviewableOrder(client, project, versionId, listing);
  // Files dragged from the desktop anywhere on the review go to the upload; the strip's own cards do not.
  const drop = useFileDrop();
  const stage = useRef<HTMLDivElement>(null);

  const onStage = reviewables.find((r) => r.activityId === selected) ?? reviewables[0] ?? null;
  // Side A of a comparison is the one on the stage; side B and the mode come from the address.
  const comparison = useComparison({ token, project, versionId, version: listing.data, onStage });

  // In a synced review, the reviewable on the stage is the session's.
  useSessionReviewable(useSessionContext(), versionId, onStage?.activityId ?? null, setSelected);

  const select = useCallback(
    (activityId: string) => {
      setSelected(activityId);
      // The keys (space, arrows) go to the player, not to the card just clicked.
      stage.current?.focus({ preventScroll: true });
    },
    [setSelected],
  );

  const rename = async (activityId: string, label: string) => {
    await saveLabel(client, project, versionId, activityId, label);
    listing.reload();
  };

  const onUploaded = (reviewable: Reviewable) => {
    setSelected(reviewable.activityId);
    listing.reload();
  };

  return (
    <div className="pwr-body">
      <div className={drop.dragging ? 'pwr-main pwr-dropping' : 'pwr-main'} {...drop.handlers}>
        <ErrorBox error={listing.error} prefix="The reviewables could not be read:" />
        <ErrorBox error={facts.error} prefix="The frame range could not be read (frames count from 1):" />
        <div
          ref={stage}
          className="pwr-stage"
          tabIndex={-1}
          role="region"
          aria-label={onStage ? `Stage: ${titleOf(onStage)}` : 'Stage'}
        >
          {onStage && range ? (
            <Stage
              key={onStage.fileId}
              token={token}
              project={project}
              reviewable={onStage}
              versionId={versionId}
              range={range}
              compare={comparison.setup}
            />
          ) : listing.data && !onStage ? (
            <div className="pw-empty pwr-empty">
              <strong>{versionName} has no reviewables yet.</strong>
              <p>Drop a video or an image here, or choose a file below, to start its review.</p>
            </div>
          ) : (
            <p className="muted">Loading the reviewables…</p>
          )}
        </div>
        {comparison.bar}
        {listing.data && facts.data && (
          <FileKindsNote
            versionName={versionName}
            reviewables={listing.data.reviewables.length}
            representations={facts.data.representations}
          />
        )}
        {drop.dragging && <div className="pwr-drop-hint">Drop to add it to {versionName}</div>}
        {reviewables.length > 0 && (
          <Strip
            project={project}
            user={user}
            reviewables={reviewables}
            selected={onStage?.activityId ?? null}
            onSelect={select}
            onMove={move}
            onRename={rename}
            saving={saving}
          />
        )}
        <ErrorBox error={orderError} prefix="The change was not saved:" />
        <UploadBar
          project={project}
          versionId={versionId}
          versionName={versionName}
          dropped={drop.dropped}
          onUploaded={onUploaded}
        />
      </div>
      <aside className="pw-panel pwr-side" aria-label={`Activity of ${versionName}`}>
        <h2>Activity</h2>
        <Extension
          module="activities_screens/ActivityFeed"
          props={{ entityType: 'version', entityId: versionId }}
          fallback={
            <p className="muted pw-small">
              The version’s comments appear here when the activities addon is installed.
            </p>
          }
        />
      </aside>
    </div>
  );
}
