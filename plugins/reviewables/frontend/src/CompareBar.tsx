import { useState, type ReactNode } from 'react';
import { useClient } from '@pipewright/sdk/ui';
import type { Reviewable, VersionReviewables } from './api';
import type { CompareSetup } from './Compare';
import { CompareChooser } from './CompareChooser';
import { isVideo, titleOf } from './describe';
import { useCompare } from './use-compare';
import { useSideB } from './use-side-b';

// The comparison on the version's review: what the address asks for, side B read, and the bar under the stage
// that starts a comparison, changes its side B, or leaves it.

export function useComparison({
  token,
  project,
  versionId,
  version,
  onStage,
}: {
  token: string;
  project: string;
  versionId: string;
  /** The version under review with its reviewables, once read. */
  version: VersionReviewables | null;
  /** Side A: the reviewable on the stage. */
  onStage: Reviewable | null;
}): { setup: CompareSetup | null; bar: ReactNode } {
  const client = useClient();
  const compare = useCompare(versionId);
  const side = useSideB(client, project, version, compare.state);
  const [choosing, setChoosing] = useState(false);
  const { state } = compare;
  const aTitle = version && onStage ? `${version.name} · ${titleOf(onStage)}` : 'A';
  // Only a video on the stage is compared: it has the transport that drives both sides.
  const playable = !!onStage && isVideo(onStage);

  const setup: CompareSetup | null =
    state && playable
      ? {
          state,
          change: compare.change,
          b: side.reviewable,
          error: side.error,
          aTitle,
          bTitle: side.title,
          token,
          project,
        }
      : null;

  const bar = version && onStage && (
    <div className="pwr-compare-bar">
      {state ? (
        <span className="pwr-compare-sides" aria-label="Compared">
          <strong>A</strong> {aTitle} <span className="muted">against</span> <strong>B</strong> {side.title}
        </span>
      ) : (
        <span className="muted pw-small">
          {playable
            ? 'Compare this video with another version or reviewable.'
            : 'A video on the stage can be compared with another.'}
        </span>
      )}
      <span className="pw-grow" />
      <button
        type="button"
        aria-expanded={choosing}
        disabled={!playable}
        onClick={() => setChoosing(!choosing)}
      >
        {state ? 'Change B…' : 'Compare…'}
      </button>
      {state && (
        <button type="button" onClick={compare.leave}>
          Leave compare
        </button>
      )}
      {choosing && playable && (
        <CompareChooser
          project={project}
          shown={version}
          aActivityId={onStage.activityId}
          current={state}
          onChoose={(chosenVersion, activityId) => {
            compare.start(chosenVersion, activityId);
            setChoosing(false);
          }}
          onClose={() => setChoosing(false)}
        />
      )}
    </div>
  );
  return { setup, bar };
}
