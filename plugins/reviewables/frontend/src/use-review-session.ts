import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';
import { useLiveEvents } from '@pipewright/sdk/ui';
import { act, sampleClock, type SessionCommand, type SessionState } from './review-session';
import { clockOffset, type ClockSample } from './session-time';

/** Exchanges with the server's clock when joining, and how often the offset is measured again. */
const CLOCK_SAMPLES = 5;
const CLOCK_AGAIN_MS = 30_000;

/**
 * Taking part in the synced review session of a list: joins it, follows its state (the newest revision heard,
 * live), knows the offset of this clock to the server's, and sends the driver's commands. Leaves on the way out.
 */
export function useReviewSession(
  client: PipewrightClient,
  project: string,
  listId: string | null,
  me: string,
) {
  const [state, setState] = useState<SessionState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const offset = useRef(0);
  const newest = useCallback((next: SessionState) => {
    setState((current) => (current && current.revision >= next.revision ? current : next));
  }, []);

  const measure = useCallback(async () => {
    const samples: ClockSample[] = [];
    for (let i = 0; i < CLOCK_SAMPLES; i++) samples.push(await sampleClock(client));
    offset.current = clockOffset(samples);
  }, [client]);

  const join = useCallback(async () => {
    if (!listId) return;
    try {
      await measure();
      newest(await act(client, project, listId, { command: 'join' }));
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [client, project, listId, measure, newest]);

  useEffect(() => {
    if (!listId) return;
    setState(null);
    void join();
    const again = setInterval(() => void measure().catch(() => undefined), CLOCK_AGAIN_MS);
    return () => {
      clearInterval(again);
      void act(client, project, listId, { command: 'leave' }).catch(() => undefined);
    };
  }, [client, project, listId, join, measure]);

  useLiveEvents({
    client,
    topics: ['review_session.changed', 'review_session.requested'],
    project,
    enabled: !!listId,
    onEvent: (event: LiveEvent) => {
      const summary = event.summary as Record<string, unknown>;
      if (summary.listId !== listId) return;
      if (event.topic === 'review_session.requested') {
        if (summary.driver === me) setAsking(String(summary.from));
      } else newest(summary as unknown as SessionState);
    },
    // Changes made while the connection was down: the session as it is now.
    onReconnect: () => void join(),
  });

  const driving = !!state && state.driver === me;
  const command = useCallback(
    async (next: SessionCommand) => {
      if (!listId || !driving) return;
      try {
        newest(await act(client, project, listId, next));
      } catch (failure) {
        setError((failure as Error).message);
      }
    },
    [client, project, listId, driving, newest],
  );
  const handTo = useCallback(
    async (to: string) => {
      if (!listId) return;
      setAsking(null);
      try {
        newest(await act(client, project, listId, { command: 'hand', to }));
      } catch (failure) {
        setError((failure as Error).message);
      }
    },
    [client, project, listId, newest],
  );
  const ask = useCallback(
    () => listId && void act(client, project, listId, { command: 'request' }).catch(() => undefined),
    [client, project, listId],
  );
  /** The server's clock now, as this player reckons it. */
  const serverNow = useCallback(() => Date.now() + offset.current, []);
  return { state, error, driving, asking, command, handTo, ask, serverNow };
}

export type ReviewSession = ReturnType<typeof useReviewSession>;
