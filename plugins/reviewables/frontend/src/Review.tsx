import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenProps, ScreenUser } from '@pipewright/sdk/screen';
import { ErrorBox, messageOf, useLiveEvents, useLoaded, useSearchParam } from '@pipewright/sdk/ui';
import { readVersion, saveLabel, saveOrder, type Reviewable } from './api';
import { placeOf, versionLabel, type VersionPlace } from './browse';
import { titleOf } from './describe';
import { FileKindsNote } from './FileKindsNote';
import { PLAIN_RANGE } from './frames';
import { Stage } from './Stage';
import { Strip } from './Strip';
import { UploadBar } from './UploadBar';
import { readVersionFacts } from './version-facts';
import { VersionBrowser } from './VersionBrowser';
import { VersionTitle } from './VersionTitle';
import './review.css';

// The review of a version: its reviewables (videos and images) on a stage with review controls, in a strip below
// in their order, new ones uploaded by dropping them on the screen, and the version's activity feed beside it (the
// activities addon's, embedded). ?version= opens a version directly, so other screens can link here, and
// ?reviewable= keeps the one on the stage across a reload.

export default function Review(props: ScreenProps) {
  if (!props.project)
    return (
      <section className="pw-screen">
        <h1>Review</h1>
        <p className="muted">Choose a project in the project menu at the top to review its versions.</p>
      </section>
    );
  return <ProjectReview {...props} project={props.project} />;
}

function ProjectReview({ client, token, user, project, Extension }: ScreenProps & { project: string }) {
  const [versionId, setVersionId] = useSearchParam('version');
  const [, setReviewable] = useSearchParam('reviewable');
  // A list of versions opened in review (?list=): the lists addon's strip steps through it above the stage.
  const [listId] = useSearchParam('list');
  const [place, setPlace] = useState<VersionPlace | null>(null);
  const [placeError, setPlaceError] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState(!versionId);

  // A version opened from the address (or a link) is looked up to show where it is and to open the browser there.
  useEffect(() => {
    if (!versionId || place?.version.id === versionId) return;
    let current = true;
    setPlaceError(null);
    placeOf(client, project, versionId).then(
      (found) => {
        if (!current) return;
        if (found) return setPlace(found);
        setPlaceError(
          `There is no version ${versionId} in ${project} that you can see: it may have been deleted, or it is in a folder you have no access to. Choose another version below.`,
        );
        setBrowsing(true);
      },
      (failure) => current && setPlaceError(`The version could not be read: ${messageOf(failure)}`),
    );
    return () => {
      current = false;
    };
  }, [client, project, versionId, place]);

  const choose = (chosen: VersionPlace) => {
    setPlace(chosen);
    setPlaceError(null);
    // Another version starts with its own first reviewable.
    if (chosen.version.id !== versionId) setReviewable(null);
    setVersionId(chosen.version.id);
    setBrowsing(false);
  };

  const shown = place && place.version.id === versionId ? place : null;
  return (
    <section className="pw-screen pwr-screen">
      <header className="pw-header">
        <h1>Review</h1>
        {shown && (
          <VersionTitle
            client={client}
            project={project}
            place={shown}
            onStatus={(status) => setPlace({ ...shown, version: { ...shown.version, status } })}
          />
        )}
        <span className="pw-grow" />
        {versionId && (
          <button type="button" onClick={() => setBrowsing(!browsing)} aria-expanded={browsing}>
            {browsing ? 'Close the version list' : 'Choose another version'}
          </button>
        )}
      </header>
      {listId && (
        <Extension
          module="lists_screens/ListStrip"
          props={{
            listId,
            versionId,
            onOpen: (id: string) => {
              setReviewable(null);
              setVersionId(id);
            },
          }}
          fallback={null}
        />
      )}
      {placeError && <p className="error-box">{placeError}</p>}
      {browsing && (
        <VersionBrowser
          key={shown?.version.id ?? 'none'}
          client={client}
          project={project}
          start={shown}
          current={versionId}
          onChoose={choose}
        />
      )}
      {!versionId && (
        <p className="muted">
          Choose a folder, one of its products and a version to review its videos and images. Other screens
          can link straight to a version’s review.
        </p>
      )}
      {/* Shown once the version is known to exist, so a stale link asks nothing more of it. */}
      {shown && (
        <VersionReview
          key={shown.version.id}
          client={client}
          token={token}
          user={user}
          project={project}
          versionId={shown.version.id}
          versionName={versionLabel(shown.version)}
          Extension={Extension}
        />
      )}
      {versionId && !shown && !placeError && <p className="muted">Opening the version…</p>}
    </section>
  );
}

/** Topics that change what a version's review shows: uploads, and reviewable activities deleted from the feed. */
const LIVE_TOPICS = ['reviewable.created', 'activity.deleted'];

/** Read the listing again when someone else uploads to this version or removes one of its reviewables. */
function useLiveReload(client: PipewrightClient, project: string, versionId: string, reload: () => void) {
  useLiveEvents({
    client,
    topics: LIVE_TOPICS,
    project,
    onEvent: (event) => {
      const summary = (event.summary ?? {}) as {
        versionId?: string;
        activity_type?: string;
        references?: { entity_id?: string }[];
      };
      const concerns =
        summary.versionId === versionId ||
        (summary.activity_type === 'reviewable' &&
          (summary.references ?? []).some((reference) => reference.entity_id === versionId));
      if (concerns) reload();
    },
  });
}

function VersionReview({
  client,
  token,
  user,
  project,
  versionId,
  versionName,
  Extension,
}: {
  client: PipewrightClient;
  token: string;
  user: ScreenUser;
  project: string;
  versionId: string;
  versionName: string;
  Extension: ScreenProps['Extension'];
}) {
  const listing = useLoaded(() => readVersion(client, project, versionId), [client, project, versionId]);
  // The frame range and the representations. The player waits for the range, so a frame is never shown under
  // another number first; if it cannot be read, frames count from 1 and the error says so.
  const facts = useLoaded(() => readVersionFacts(client, project, versionId), [client, project, versionId]);
  const range = facts.data?.range ?? (facts.error ? PLAIN_RANGE : null);
  useLiveReload(client, project, versionId, listing.reload);
  const [selected, setSelected] = useSearchParam('reviewable');
  // The order the user made, shown at once while it is saved (and dropped when the server refuses it).
  const [order, setOrder] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [changeError, setChangeError] = useState<unknown>(null);
  const [dropped, setDropped] = useState<{ file: File } | null>(null);
  const [dragging, setDragging] = useState(false);
  const stage = useRef<HTMLDivElement>(null);

  const reviewables = useMemo(() => {
    const listed = listing.data?.reviewables ?? [];
    if (!order) return listed;
    const byId = new Map(listed.map((r) => [r.activityId, r]));
    const ordered = order.map((id) => byId.get(id)).filter((r): r is Reviewable => !!r);
    // Something that arrived meanwhile goes at the end, as the server puts new uploads.
    return [...ordered, ...listed.filter((r) => !order.includes(r.activityId))];
  }, [listing.data, order]);

  const onStage = reviewables.find((r) => r.activityId === selected) ?? reviewables[0] ?? null;

  const select = useCallback(
    (activityId: string) => {
      setSelected(activityId);
      // The keys (space, arrows) go to the player, not to the card just clicked.
      stage.current?.focus({ preventScroll: true });
    },
    [setSelected],
  );

  const move = (activityId: string, index: number) => {
    const ids = reviewables.map((r) => r.activityId).filter((id) => id !== activityId);
    ids.splice(index, 0, activityId);
    setOrder(ids);
    setSaving(true);
    setChangeError(null);
    saveOrder(client, project, versionId, ids)
      .then(
        () => listing.reload(),
        (failure) => {
          setChangeError(failure);
          setOrder(null);
        },
      )
      .finally(() => setSaving(false));
  };

  // Once the listing has the saved order, the local one is no longer needed: looked at when the listing changes,
  // not when the order does (a new order is kept until a listing read after its save arrives).
  const reordering = useRef({ order, saving });
  reordering.current = { order, saving };
  useEffect(() => {
    const { order, saving } = reordering.current;
    if (order && !saving && listing.data && !listing.loading) setOrder(null);
  }, [listing.data, listing.loading]);

  const rename = async (activityId: string, label: string) => {
    await saveLabel(client, project, versionId, activityId, label);
    listing.reload();
  };

  const onUploaded = (reviewable: Reviewable) => {
    setSelected(reviewable.activityId);
    listing.reload();
  };

  // Files dragged from the desktop anywhere on the review go to the upload; the strip's own cards do not.
  const acceptsFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const dropHandlers = {
    onDragOver: (event: DragEvent) => {
      if (!acceptsFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!acceptsFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      const file = event.dataTransfer.files[0];
      if (file) setDropped({ file });
    },
  };

  return (
    <div className="pwr-body">
      <div className={dragging ? 'pwr-main pwr-dropping' : 'pwr-main'} {...dropHandlers}>
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
              client={client}
              token={token}
              project={project}
              reviewable={onStage}
              range={range}
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
        {listing.data && facts.data && (
          <FileKindsNote
            versionName={versionName}
            reviewables={listing.data.reviewables.length}
            representations={facts.data.representations}
          />
        )}
        {dragging && <div className="pwr-drop-hint">Drop to add it to {versionName}</div>}
        {reviewables.length > 0 && (
          <Strip
            client={client}
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
        <ErrorBox error={changeError} prefix="The change was not saved:" />
        <UploadBar
          client={client}
          project={project}
          versionId={versionId}
          versionName={versionName}
          dropped={dropped}
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
