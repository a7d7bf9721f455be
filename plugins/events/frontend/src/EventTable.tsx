import type { EventRow } from './events';
import { formatTime, statusLabel } from './format';

/** The status, with a bar for jobs that report their progress. */
export function StatusBadge({ status, progress }: { status: string; progress?: number | null }) {
  return (
    <span className={`ev-status ev-status-${status}`}>
      {statusLabel(status)}
      {status === 'in_progress' && progress != null && (
        <span
          className="ev-progress"
          role="progressbar"
          aria-valuenow={progress}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <span style={{ width: `${progress}%` }} />
        </span>
      )}
    </span>
  );
}

/** The event list, newest first; a row opens the event's details. */
export function EventTable({
  rows,
  arrived,
  selected,
  onSelect,
}: {
  rows: EventRow[];
  arrived: Set<string>;
  selected: string | null;
  onSelect(id: string): void;
}) {
  return (
    <table className="ev-table" aria-label="Events">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Topic</th>
          <th scope="col">Status</th>
          <th scope="col">Project</th>
          <th scope="col">User</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.id}
            data-event-id={row.id}
            className={[arrived.has(row.id) ? 'ev-arrived' : '', row.id === selected ? 'ev-selected' : '']
              .join(' ')
              .trim()}
            aria-selected={row.id === selected}
            tabIndex={0}
            onClick={() => onSelect(row.id)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onSelect(row.id);
              }
            }}
          >
            <td className="ev-time">{formatTime(row.createdAt)}</td>
            <td className="ev-topic">{row.topic}</td>
            <td>
              <StatusBadge status={row.status} progress={row.progress} />
            </td>
            <td>{row.project ?? <span className="muted">studio</span>}</td>
            <td>{row.user ?? <span className="muted">—</span>}</td>
            <td className="ev-description">{row.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
