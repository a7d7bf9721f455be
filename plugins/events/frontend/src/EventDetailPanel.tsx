import { ErrorBox, messageOf, statusOf, useClient, useLoaded } from '@pipewright/sdk/ui';
import { readEvent, type EventRow } from './events';
import { StatusBadge } from './EventTable';
import { formatTime } from './format';

function Json({ value, label }: { value: Record<string, unknown>; label: string }) {
  if (Object.keys(value).length === 0) return <p className="muted">No {label.toLowerCase()}.</p>;
  return (
    <pre className="ev-json" aria-label={label}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/**
 * One event in full. The list row is shown at once; the payload comes from GET /api/events/{id}, which answers
 * only its owner and managers. Live changes of the row (status, progress) show here too.
 */
export function EventDetailPanel({
  id,
  row,
  onOpen,
  onClose,
}: {
  id: string;
  /** The event as listed, when it is in the list. */
  row: EventRow | undefined;
  onOpen(id: string): void;
  onClose(): void;
}) {
  const client = useClient();
  // A status change seen live means the stored event changed: read it again.
  const version = row ? `${row.status}|${row.updatedAt}` : '';

  const detail = useLoaded(
    () =>
      readEvent(client, id).catch((failure: unknown) => {
        throw new Error(
          statusOf(failure) === 403
            ? 'Only managers and the user the event belongs to may see its payload.'
            : statusOf(failure) === 404
              ? 'This event no longer exists (it may have been deleted).'
              : messageOf(failure),
        );
      }),
    [client, id, version],
  );
  const { error } = detail;
  // The stored event once read, unless reading it again failed: then the row as listed stands in.
  const shown = !error && detail.data?.id === id ? detail.data : null;
  const event = shown ?? row;
  return (
    <aside className="pw-panel ev-detail" aria-label="Event detail">
      <header className="pw-panel-header">
        <h2>{event?.topic ?? 'Event'}</h2>
        <button type="button" onClick={onClose} aria-label="Close event detail">
          Close
        </button>
      </header>
      <ErrorBox error={error} />
      {!event && !error && <p className="muted">Loading…</p>}
      {event && (
        <>
          {event.description && <p className="ev-detail-description">{event.description}</p>}
          <dl className="ev-fields">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={row?.status ?? event.status} progress={row?.progress} />
            </dd>
            <dt>Retries</dt>
            <dd>{shown ? shown.retries : (row?.retries ?? '—')}</dd>
            <dt>Project</dt>
            <dd>{event.project ?? <span className="muted">studio-wide</span>}</dd>
            <dt>User</dt>
            <dd>{event.user ?? '—'}</dd>
            <dt>Sender</dt>
            <dd>
              {event.sender ?? '—'}
              {event.senderType && <span className="muted"> ({event.senderType})</span>}
            </dd>
            <dt>Depends on</dt>
            <dd>
              {event.dependsOn ? (
                <button
                  type="button"
                  className="pw-link pw-mono ev-wrap"
                  onClick={() => onOpen(event.dependsOn!)}
                >
                  {event.dependsOn}
                </button>
              ) : (
                '—'
              )}
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(event.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatTime(row?.updatedAt ?? event.updatedAt)}</dd>
            <dt>Id</dt>
            <dd className="pw-mono ev-wrap">{id}</dd>
            {shown && (
              <>
                <dt>Hash</dt>
                <dd className="pw-mono ev-wrap">{shown.hash}</dd>
              </>
            )}
          </dl>
          <h3 className="pw-subheading">Summary</h3>
          <Json value={event.summary} label="Summary" />
          <h3 className="pw-subheading">Payload</h3>
          {shown ? <Json value={shown.payload} label="Payload" /> : <p className="muted">Not available.</p>}
        </>
      )}
    </aside>
  );
}
