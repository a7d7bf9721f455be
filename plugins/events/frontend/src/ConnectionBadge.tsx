import { useEffect, useState } from 'react';
import type { Connection } from '@pipewright/sdk/ui';

const LABELS: Record<Connection['state'], string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting',
  refused: 'Not connected',
};

/** Whether new events appear by themselves, and if not, why and when it tries again. */
export function ConnectionBadge({ connection }: { connection: Connection }) {
  const inSeconds = useSecondsUntil(connection.state === 'reconnecting' ? connection.retryAt : null);
  const detail =
    connection.state === 'reconnecting'
      ? `${connection.reason}; ${inSeconds > 0 ? `retrying in ${inSeconds} s` : 'trying again now'}`
      : connection.state === 'refused'
        ? `${connection.reason}. Reload the page to log in again.`
        : connection.state === 'live'
          ? 'New events appear at the top as they happen'
          : 'Opening the live connection';
  return (
    <span className={`pw-badge ev-connection ev-connection-${connection.state}`} role="status" title={detail}>
      <span className="ev-dot" aria-hidden="true" />
      {LABELS[connection.state]}
      {connection.state !== 'live' && connection.state !== 'connecting' && (
        <span className="ev-connection-detail"> — {detail}</span>
      )}
    </span>
  );
}

const secondsUntil = (at: number | null) =>
  at === null ? 0 : Math.max(0, Math.ceil((at - Date.now()) / 1000));

/** Whole seconds left until a time, counting down once a second; 0 without one. */
function useSecondsUntil(at: number | null): number {
  const [seconds, setSeconds] = useState(() => secondsUntil(at));
  useEffect(() => {
    setSeconds(secondsUntil(at));
    if (at === null) return;
    const timer = setInterval(() => setSeconds(secondsUntil(at)), 1000);
    return () => clearInterval(timer);
  }, [at]);
  return seconds;
}
