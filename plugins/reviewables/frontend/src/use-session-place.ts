import { useEffect } from 'react';
import type { ReviewSession } from './use-review-session';

// What is on screen in a synced review: the driver's choice becomes the session's, and every other player opens
// what the session shows. Only a change of either side's place is a reason to act, not every revision.

/** The version: followed by Review, which opens versions. */
export function useSessionVersion(
  session: ReviewSession | null,
  versionId: string | null,
  open: (versionId: string) => void,
) {
  const state = session?.state ?? null;
  const driving = !!session?.driving;
  useEffect(() => {
    if (!state || !versionId) return;
    if (driving && state.versionId !== versionId) void session?.command({ command: 'select', versionId });
    if (!driving && state.versionId && state.versionId !== versionId) open(state.versionId);
  }, [driving, state?.versionId, versionId]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** The reviewable of the version: followed by the version's review, which chooses among them. */
export function useSessionReviewable(
  session: ReviewSession | null,
  versionId: string,
  reviewableId: string | null,
  select: (reviewableId: string) => void,
) {
  const state = session?.state ?? null;
  const driving = !!session?.driving;
  useEffect(() => {
    if (!state || state.versionId !== versionId || !reviewableId) return;
    if (driving && state.reviewableId !== reviewableId)
      void session?.command({ command: 'select', versionId, reviewableId });
    if (!driving && state.reviewableId && state.reviewableId !== reviewableId) select(state.reviewableId);
  }, [driving, state?.versionId, state?.reviewableId, versionId, reviewableId]); // eslint-disable-line react-hooks/exhaustive-deps
}
