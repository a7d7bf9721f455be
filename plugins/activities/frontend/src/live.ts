import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';

/** Whether news arrives by itself right now. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'off';

/**
 * Follow live events through the client's subscription (it authorises, watches the heartbeat and reconnects).
 * After a reconnect `onReconnect` runs: events sent while the connection was down were missed, read again.
 */
export function useLive(
  client: PipewrightClient,
  topics: string[],
  project: string | null,
  onEvent: (event: LiveEvent) => void,
  onReconnect: () => void,
): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  // The handlers change with every render; the subscription calls the latest ones.
  const latest = useRef({ onEvent, onReconnect });
  latest.current = { onEvent, onReconnect };
  const key = `${topics.join(' ')}|${project ?? ''}`;

  useEffect(() => {
    setState('connecting');
    const subscription = client.subscribe({
      topics,
      project,
      onEvent: (event) => latest.current.onEvent(event),
      onConnect: ({ connections }) => {
        setState('live');
        if (connections > 1) latest.current.onReconnect();
      },
      onDisconnect: ({ retryInMs }) => setState(retryInMs === null ? 'off' : 'reconnecting'),
      onError: () => setState((current) => (current === 'live' ? current : 'off')),
    });
    return () => void subscription.close();
    // key stands for topics and project.
  }, [client, key]);

  return state;
}

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
  const state = useLive(
    client,
    topics,
    project,
    (event) => listeners.current.forEach((listener) => listener.onEvent(event)),
    () => listeners.current.forEach((listener) => listener.onReconnect()),
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
  useEffect(
    () =>
      hub.listen({
        onEvent: (event) => latest.current.onEvent(event),
        onReconnect: () => latest.current.onReconnect(),
      }),
    [hub.listen],
  );
}
