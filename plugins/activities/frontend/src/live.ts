import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';
import { liveStateOf, useLiveEvents, type LiveState } from '@pipewright/sdk/ui';

/** A call that runs once after a burst of requests settles (many events for one change, one read). */
export function useSettled(run: () => void, delayMs = 150): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => () => clearTimeout(timer.current), []);
  const ref = useRef(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current(), delayMs);
  });
  return ref.current;
}

interface Listener {
  onEvent(event: LiveEvent): void;
  onReconnect(): void;
}

/** One subscription shared by the parts of a screen that come and go (the feed of whichever entity is chosen). */
export interface LiveHub {
  state: LiveState;
  /** Hear the hub's events until the returned function is called. */
  listen(listener: Listener): () => void;
}

/** A subscription that outlives the components listening to it: choosing another entity opens no new socket. */
export function useLiveHub(client: PipewrightClient, topics: string[], project: string | null): LiveHub {
  const listeners = useRef(new Set<Listener>());
  const state = liveStateOf(
    useLiveEvents({
      client,
      topics,
      project,
      onEvent: (event) => listeners.current.forEach((listener) => listener.onEvent(event)),
      onReconnect: () => listeners.current.forEach((listener) => listener.onReconnect()),
    }),
  );
  const listen = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);
  return useMemo(() => ({ state, listen }), [state, listen]);
}

/** Hear a hub's events with handlers that may change every render. */
export function useHubListener(hub: LiveHub, listener: Listener): void {
  const latest = useRef(listener);
  latest.current = listener;
  const { listen } = hub;
  useEffect(
    () =>
      listen({
        onEvent: (event) => latest.current.onEvent(event),
        onReconnect: () => latest.current.onReconnect(),
      }),
    [listen],
  );
}
