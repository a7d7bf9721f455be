import type { PipewrightClient } from '@pipewright/sdk/client';
import { useLoaded } from '@pipewright/sdk/ui';
import { readVersion, type Reviewable, type VersionReviewables } from './api';
import type { CompareState } from './compare-state';
import { titleOf } from './describe';

export interface SideB {
  reviewable: Reviewable | null;
  /** "v002 · Main take" (or the version alone while its reviewables load). */
  title: string;
  error: string | null;
}

/** The reviewable the comparison names as side B: one of this version's, or read from its own version. */
export function useSideB(
  client: PipewrightClient,
  project: string,
  shown: VersionReviewables | null,
  state: CompareState | null,
): SideB {
  const elsewhere = !!state && !!shown && state.versionId !== shown.id;
  const other = useLoaded(
    () => readVersion(client, project, state!.versionId),
    [client, project, elsewhere, state?.versionId],
    { enabled: elsewhere, reset: true },
  );
  if (!state) return { reviewable: null, title: '', error: null };
  // An answer for the version named before does not stand in while the one named now is read.
  const version = elsewhere ? (other.data?.id === state.versionId ? other.data : null) : shown;
  const reviewable = version?.reviewables.find((r) => r.activityId === state.activityId) ?? null;
  const error = elsewhere && other.error ? `Side B could not be read: ${other.error}` : null;
  return {
    reviewable,
    title: reviewable && version ? `${version.name} · ${titleOf(reviewable)}` : (version?.name ?? 'B'),
    error:
      error ??
      (version && !reviewable
        ? `Side B is no longer among ${version.name}’s reviewables (it may have been removed): choose another.`
        : null),
  };
}
