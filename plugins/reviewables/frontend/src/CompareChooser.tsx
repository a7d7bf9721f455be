import { ErrorBox, useClient, useLoaded } from '@pipewright/sdk/ui';
import { readVersion, type VersionReviewables } from './api';
import { versionsOf } from './browse';
import type { CompareState } from './compare-state';
import { titleOf } from './describe';

// Choosing side B of a comparison: another reviewable of the version under review, or one of another version of
// the same product (v002 against v003 of the shot), the newest versions first.

/** Versions offered beside the one under review; older ones are rarely compared and each is one more read. */
export const OTHER_VERSIONS = 12;

export function CompareChooser({
  project,
  shown,
  aActivityId,
  current,
  onChoose,
  onClose,
}: {
  project: string;
  /** The version under review, with its reviewables. */
  shown: VersionReviewables;
  /** Side A, on the stage: not offered against itself. */
  aActivityId: string;
  current: CompareState | null;
  onChoose(versionId: string, activityId: string): void;
  onClose(): void;
}) {
  const client = useClient();
  const others = useLoaded(async () => {
    const versions = (await versionsOf(client, project, shown.productId)).filter((v) => v.id !== shown.id);
    const read = await Promise.all(
      versions.slice(0, OTHER_VERSIONS).map((version) => readVersion(client, project, version.id)),
    );
    return { read, more: versions.length - read.length };
  }, [client, project, shown.productId, shown.id]);
  const groups = [
    { version: shown, reviewables: shown.reviewables.filter((r) => r.activityId !== aActivityId) },
    ...(others.data?.read ?? []).map((version) => ({ version, reviewables: version.reviewables })),
  ];

  return (
    <section className="pw-panel pwr-compare-chooser" aria-label="Compare with">
      <header className="pw-row">
        <strong>Compare with…</strong>
        <span className="muted pw-small">
          Side A stays on the stage; side B is what you choose here, from{' '}
          {shown.productName || 'this product'}.
        </span>
        <span className="pw-grow" />
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <ErrorBox error={others.error} prefix="The other versions could not be read:" />
      {groups.map(({ version, reviewables }) => (
        <div key={version.id} className="pwr-compare-group" role="group" aria-label={version.name}>
          <span className="pwr-compare-version">
            {version.name}
            {version.id === shown.id ? ' (this version)' : ''}
          </span>
          {reviewables.length === 0 && (
            <span className="muted pw-small">
              {version.id === shown.id ? 'No other reviewable' : 'No reviewables'}
            </span>
          )}
          {reviewables.map((reviewable) => {
            const chosen = current?.versionId === version.id && current.activityId === reviewable.activityId;
            return (
              <button
                key={reviewable.activityId}
                type="button"
                aria-pressed={chosen}
                aria-label={`Compare with ${version.name} · ${titleOf(reviewable)}`}
                title={reviewable.filename}
                onClick={() => onChoose(version.id, reviewable.activityId)}
              >
                {titleOf(reviewable)}
              </button>
            );
          })}
        </div>
      ))}
      {others.loading && <p className="muted pw-small">Reading the other versions…</p>}
      {!!others.data?.more && (
        <p className="muted pw-small">
          {others.data.more} older versions are not listed: open one of them in review to compare from there.
        </p>
      )}
    </section>
  );
}
