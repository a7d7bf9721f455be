import { useEffect, useMemo, useRef, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { Loaded } from '@pipewright/sdk/ui';
import { saveOrder, type Reviewable, type VersionReviewables } from './api';

/** A version's reviewables in the order shown, and moving one in it. */
export interface ReviewableOrder {
  reviewables: Reviewable[];
  /** Put a reviewable at an index of the order, and save the new order. */
  move(activityId: string, index: number): void;
  /** True while an order is saved. */
  saving: boolean;
  /** Why the last order was refused; null when it was not. */
  error: unknown;
}

/**
 * The reviewables in the order the user made, shown at once while it is saved (and dropped when the server refuses
 * it); the listing's order otherwise.
 */
export function useReviewableOrder(
  client: PipewrightClient,
  project: string,
  versionId: string,
  listing: Loaded<VersionReviewables>,
): ReviewableOrder {
  const [order, setOrder] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const reviewables = useMemo(() => {
    const listed = listing.data?.reviewables ?? [];
    if (!order) return listed;
    const byId = new Map(listed.map((r) => [r.activityId, r]));
    const ordered = order.map((id) => byId.get(id)).filter((r): r is Reviewable => !!r);
    // Something that arrived meanwhile goes at the end, as the server puts new uploads.
    return [...ordered, ...listed.filter((r) => !order.includes(r.activityId))];
  }, [listing.data, order]);

  const move = (activityId: string, index: number) => {
    const ids = reviewables.map((r) => r.activityId).filter((id) => id !== activityId);
    ids.splice(index, 0, activityId);
    setOrder(ids);
    setSaving(true);
    setError(null);
    saveOrder(client, project, versionId, ids)
      .then(
        () => listing.reload(),
        (failure) => {
          setError(failure);
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

  return { reviewables, move, saving, error };
}
