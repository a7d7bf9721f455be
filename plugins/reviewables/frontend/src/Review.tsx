import type { ScreenProps } from '@pipewright/sdk/screen';
import { exposedScreen, NoProjectChosen, useSearchParam } from '@pipewright/sdk/ui';
import { versionLabel } from './browse';
import { ReviewSessionContext } from './session-context';
import { SessionBar } from './SessionBar';
import { useReviewSession } from './use-review-session';
import { useSessionVersion } from './use-session-place';
import { useVersionPlace } from './use-version-place';
import { VersionBrowser } from './VersionBrowser';
import { VersionReview } from './VersionReview';
import { VersionTitle } from './VersionTitle';
import './review.css';

// The review of a version: its reviewables (videos and images) on a stage with review controls, in a strip below
// in their order, new ones uploaded by dropping them on the screen, and the version's activity feed beside it (the
// activities addon's, embedded). ?version= opens a version directly, so other screens can link here, and
// ?reviewable= keeps the one on the stage across a reload.

export default exposedScreen(function Review(props: ScreenProps) {
  if (!props.project) return <NoProjectChosen title="Review" purpose="review its versions" />;
  return <ProjectReview {...props} project={props.project} />;
});

function ProjectReview({ client, token, user, project, Extension }: ScreenProps & { project: string }) {
  const { versionId, shown, placeError, browsing, setBrowsing, choose, open, setStatus } = useVersionPlace(
    client,
    project,
  );
  // A list of versions opened in review (?list=): the lists addon's strip steps through it above the stage.
  const [listId] = useSearchParam('list');
  // Its synced review (?session=1): everyone in it sees what the driver shows.
  const [synced, setSynced] = useSearchParam('session');
  const session = useReviewSession(client, project, listId && synced ? listId : null, user.name);
  const inSession = listId && synced ? session : null;
  useSessionVersion(inSession, versionId, open);

  return (
    <section className="pw-screen pwr-screen">
      <header className="pw-header">
        <h1>Review</h1>
        {shown && <VersionTitle project={project} place={shown} onStatus={setStatus} />}
        <span className="pw-grow" />
        {versionId && (
          <button type="button" onClick={() => setBrowsing(!browsing)} aria-expanded={browsing}>
            {browsing ? 'Close the version list' : 'Choose another version'}
          </button>
        )}
        {versionId && <Extension module="lists_screens/ShareVersion" props={{ versionId }} fallback={null} />}
      </header>
      {listId && (
        <Extension
          module="lists_screens/ListStrip"
          props={{ listId, versionId, onOpen: open }}
          fallback={null}
        />
      )}
      {listId && !synced && (
        <p className="pwr-session-start">
          <button type="button" onClick={() => setSynced('1')}>
            Review together
          </button>{' '}
          <span className="muted pw-small">
            Everyone who joins sees the same version and frame, played and paused by whoever drives.
          </span>
        </p>
      )}
      {inSession && <SessionBar session={inSession} me={user.name} onLeave={() => setSynced(null)} />}
      {placeError && <p className="error-box">{placeError}</p>}
      {browsing && (
        <VersionBrowser
          key={shown?.version.id ?? 'none'}
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
        <ReviewSessionContext.Provider value={inSession}>
          <VersionReview
            key={shown.version.id}
            token={token}
            user={user}
            project={project}
            versionId={shown.version.id}
            versionName={versionLabel(shown.version)}
            Extension={Extension}
          />
        </ReviewSessionContext.Provider>
      )}
      {versionId && !shown && !placeError && <p className="muted">Opening the version…</p>}
    </section>
  );
}
