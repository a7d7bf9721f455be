import { useCallback, useEffect, useState } from 'react';
import { comparing, readCompare, writeCompare, type CompareState } from './compare-state';
import { useSessionContext } from './session-context';

/** The comparison of the review, kept in the address (see compare-state.ts). */
export interface CompareAddress {
  /** The comparison shown; null when the review shows side A alone. */
  state: CompareState | null;
  /** Compare side A with this reviewable (of this version or another). */
  start(versionId: string, activityId: string): void;
  change(patch: Partial<CompareState>): void;
  leave(): void;
}

/** How long the address waits for a change to rest: a dragged divider or slider writes it once, not per pixel. */
const SETTLE_MS = 150;

export function useCompare(thisVersion: string): CompareAddress {
  const [state, setState] = useState(() => readCompare(new URLSearchParams(location.search), thisVersion));

  // Back and forward bring another address: follow it.
  useEffect(() => {
    const follow = () => setState(readCompare(new URLSearchParams(location.search), thisVersion));
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, [thisVersion]);

  // Replaced, not pushed, as the screen's other parameters are: Back leaves the review rather than undoing a drag.
  useEffect(() => {
    const write = setTimeout(() => {
      const url = new URL(location.href);
      writeCompare(url, state);
      if (url.href !== location.href) history.replaceState(history.state, '', url);
    }, SETTLE_MS);
    return () => clearTimeout(write);
  }, [state]);

  // In a synced review, the driver's comparison is everyone's: it goes to the session, and the others take it up.
  const session = useSessionContext();
  const driving = !!session?.driving;
  const shared = session?.state?.compare ?? null;
  const command = session?.command;
  useEffect(() => {
    if (!driving || !command || !session?.state) return;
    const sent = setTimeout(() => {
      if (JSON.stringify(state) !== JSON.stringify(shared))
        void command({ command: 'compare', compare: state as unknown as Record<string, unknown> | null });
    }, SETTLE_MS);
    return () => clearTimeout(sent);
  }, [driving, state]); // eslint-disable-line react-hooks/exhaustive-deps
  const sharedKey = JSON.stringify(shared);
  useEffect(() => {
    if (!session?.state || driving) return;
    setState(shared as unknown as CompareState | null);
  }, [sharedKey, driving]); // eslint-disable-line react-hooks/exhaustive-deps

  const start = useCallback(
    (versionId: string, activityId: string) => setState((before) => comparing(before, versionId, activityId)),
    [],
  );
  const change = useCallback(
    (patch: Partial<CompareState>) => setState((before) => before && { ...before, ...patch }),
    [],
  );
  const leave = useCallback(() => setState(null), []);
  return { state, start, change, leave };
}
