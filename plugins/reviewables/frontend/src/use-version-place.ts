import { useEffect, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf, useSearchParam } from '@pipewright/sdk/ui';
import { placeOf, type VersionPlace } from './browse';

/** The version under review (?version=) and where it is, and the version browser's state around it. */
export interface ReviewedVersion {
  /** The version asked for in the address; null when none is. */
  versionId: string | null;
  /** Where that version is, once it is known to exist. */
  shown: VersionPlace | null;
  /** Why the version asked for cannot be shown. */
  placeError: string | null;
  /** Whether the version browser is open. */
  browsing: boolean;
  setBrowsing(open: boolean): void;
  /** Review the version chosen in the browser. */
  choose(chosen: VersionPlace): void;
  /** Review a version known by its id only (from a list's strip). */
  open(versionId: string): void;
  /** Show the version's new status, once it is saved. */
  setStatus(status: string): void;
}

/** Follow ?version=: a version opened from the address (or a link) is looked up to show where it is. */
export function useVersionPlace(client: PipewrightClient, project: string): ReviewedVersion {
  const [versionId, setVersionId] = useSearchParam('version');
  const [, setReviewable] = useSearchParam('reviewable');
  const [place, setPlace] = useState<VersionPlace | null>(null);
  const [placeError, setPlaceError] = useState<string | null>(null);
  const [browsing, setBrowsing] = useState(!versionId);

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

  const shown = place && place.version.id === versionId ? place : null;
  return {
    versionId,
    shown,
    placeError,
    browsing,
    setBrowsing,
    choose: (chosen) => {
      setPlace(chosen);
      setPlaceError(null);
      // Another version starts with its own first reviewable.
      if (chosen.version.id !== versionId) setReviewable(null);
      setVersionId(chosen.version.id);
      setBrowsing(false);
    },
    open: (id) => {
      setReviewable(null);
      setVersionId(id);
    },
    setStatus: (status) => shown && setPlace({ ...shown, version: { ...shown.version, status } }),
  };
}
