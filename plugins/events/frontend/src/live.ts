import { useEffect, useRef, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';

export type { LiveEvent };

/** Whether events arrive by themselves, and if not, why and when the client tries again. */
export type Connection =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; inSeconds: number; reason: string }
  | { state: 'refused'; reason: string };

/** The client's close code for a connection that fell silent (no heartbeat). */
const SILENT = 4000;

interface Options {
  client: PipewrightClient;
  /** Topic prefixes ("entity.folder", "*"); other filters mean a new subscription. */
  topics: string[];
  project: string | null;
  onEvent(event: LiveEvent): void;
  /** Called after a dropped connection is back: events sent meanwhile were missed. */
  onReconnect(): void;
}

/**
 * Follow events over /ws through the client's subscription (it authorises, watches the heartbeat and reconnects
 * with growing pauses), and say how the connection stands, counting down to the next attempt.
 */
export function useLiveEvents({ client, topics, project, onEvent, onReconnect }: Options): Connection {
  const [connection, setConnection] = useState<Connection>({ state: 'connecting' });
  // Handlers change with every render; the subscription reads the latest through a ref.
  const latest = useRef({ onEvent, onReconnect });
  latest.current = { onEvent, onReconnect };
  const filterKey = `${topics.join('\u0000')}|${project ?? ''}`;

  useEffect(() => {
    setConnection({ state: 'connecting' });
    let countdown: ReturnType<typeof setInterval> | undefined;
    const subscription = client.subscribe({
      topics,
      project,
      onEvent: (event) => latest.current.onEvent(event),
      onConnect: ({ connections }) => {
        clearInterval(countdown);
        if (connections > 1) latest.current.onReconnect();
        setConnection({ state: 'live' });
      },
      onDisconnect: ({ code, reason, retryInMs }) => {
        clearInterval(countdown);
        if (retryInMs === null)
          return setConnection({ state: 'refused', reason: reason || 'The server refused the session' });
        let left = Math.ceil(retryInMs / 1000);
        const why = code === SILENT ? 'no answer from the server' : 'connection lost';
        setConnection({ state: 'reconnecting', inSeconds: left, reason: why });
        countdown = setInterval(() => {
          left = Math.max(0, left - 1);
          setConnection({ state: 'reconnecting', inSeconds: left, reason: why });
        }, 1000);
      },
      // A live connection outlasts a failing handler; anything else stopped the subscription for good.
      onError: (error) =>
        setConnection((current) =>
          current.state === 'live' ? current : { state: 'refused', reason: error.message },
        ),
    });
    return () => {
      clearInterval(countdown);
      void subscription.close();
    };
    // filterKey stands for topics and project: a new array with the same topics is no new subscription.
  }, [client, filterKey]);

  return connection;
}
