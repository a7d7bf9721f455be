import type { Connection } from './live';

const LABELS: Record<Connection['state'], string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting',
  refused: 'Not connected',
};

/** Whether new events appear by themselves, and if not, why and when it tries again. */
export function ConnectionBadge({ connection }: { connection: Connection }) {
  const detail =
    connection.state === 'reconnecting'
      ? `${connection.reason}; retrying in ${connection.inSeconds} s`
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
