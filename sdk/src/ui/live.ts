import { useEffect, useRef, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '../client/index.js';

// The one way a screen follows live events: the client's subscription (it authorises, watches the heartbeat and
// reconnects with growing pauses) held for as long as the component is shown, with handlers that may change on every
// render.

/** Whether events arrive by themselves, and if not, why and when the client tries again. */
export type Connection =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; retryAt: number; reason: string }
  | { state: 'refused'; reason: string };

/** The same, in the four words a badge needs. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'off';

/** A connection in those four words: a refused one is off. */
export function liveStateOf(connection: Connection): LiveState {
  return connection.state === 'refused' ? 'off' : connection.state;
}

/** The client's close code for a connection that fell silent (no heartbeat). */
const SILENT = 4000;

export interface LiveEventsOptions {
  client: PipewrightClient;
  /** Topic prefixes ("entity.folder", "*"). A new array with the same topics is no new subscription. */
  topics: string[];
  /** The project whose events are heard; null for every project's. */
  project: string | null;
  /** Called with each event, as the latest render gave it. */
  onEvent(event: LiveEvent): void;
  /** Called after a dropped connection is back: events sent meanwhile were missed, so read again. */
  onReconnect?(): void;
  /** False to hold no subscription (a screen shown to someone it does not concern); true by default. */
  enabled?: boolean;
}

/** Follow live events while the component is shown, and say how the connection stands. */
export function useLiveEvents({
  client,
  topics,
  project,
  onEvent,
  onReconnect,
  enabled = true,
}: LiveEventsOptions): Connection {
  const [connection, setConnection] = useState<Connection>({ state: 'connecting' });
  // Handlers change with every render; the subscription reads the latest through a ref.
  const latest = useRef({ onEvent, onReconnect });
  latest.current = { onEvent, onReconnect };
  // The topics as one value, so that an array written inline in a render is no new subscription.
  const topicKey = topics.join('\u0000');

  useEffect(() => {
    if (!enabled) return;
    setConnection({ state: 'connecting' });
    const subscription = client.subscribe({
      topics: topicKey ? topicKey.split('\u0000') : [],
      project,
      onEvent: (event) => latest.current.onEvent(event),
      onConnect: ({ connections }) => {
        if (connections > 1) latest.current.onReconnect?.();
        setConnection({ state: 'live' });
      },
      onDisconnect: ({ code, reason, retryInMs }) =>
        setConnection(
          retryInMs === null
            ? { state: 'refused', reason: reason || 'The server refused the session' }
            : {
                state: 'reconnecting',
                retryAt: Date.now() + retryInMs,
                reason: code === SILENT ? 'no answer from the server' : 'connection lost',
              },
        ),
      // A live connection outlasts a failing handler; anything else stopped the subscription for good.
      onError: (error) =>
        setConnection((current) =>
          current.state === 'live' ? current : { state: 'refused', reason: error.message },
        ),
    });
    return () => void subscription.close();
  }, [client, topicKey, project, enabled]);

  return connection;
}
