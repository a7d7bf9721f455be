import { ChoosableRow, Table } from '@pipewright/sdk/ui';
import { pathOf, type EntityPaths } from './entity-paths';
import type { EventRow } from './events';
import { formatTime, statusLabel } from './format';

/** The theme's badge colour of each status. */
const STATUS_TONE: Record<string, string> = {
  finished: 'pw-badge-good',
  failed: 'pw-badge-bad',
  in_progress: 'pw-badge-info',
  restarted: 'pw-badge-info',
  pending: 'pw-badge-warn',
  aborted: 'pw-badge-off',
};

/** The status, with a bar for jobs that report their progress. */
export function StatusBadge({ status, progress }: { status: string; progress?: number | null }) {
  return (
    <span className={`pw-badge ${STATUS_TONE[status] ?? ''}`.trim()}>
      {statusLabel(status)}
      {status === 'in_progress' && progress != null && (
        <span
          className="pw-progress pw-progress-small"
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
  paths,
  arrived,
  selected,
  onSelect,
}: {
  rows: EventRow[];
  /** Full paths of the entities the events are about, to tell apart two entities of one name. */
  paths: EntityPaths;
  arrived: Set<string>;
  selected: string | null;
  onSelect(id: string): void;
}) {
  return (
    <Table
      label="Events"
      columns={['Time', 'Topic', 'Status', 'Project', 'User', 'Description']}
      className="ev-table"
    >
      {rows.map((row) => (
        <ChoosableRow
          key={row.id}
          data-event-id={row.id}
          className={arrived.has(row.id) ? 'ev-arrived' : undefined}
          selected={row.id === selected}
          onChoose={() => onSelect(row.id)}
        >
          <td className="ev-time">{formatTime(row.createdAt)}</td>
          <td className="pw-mono ev-topic">{row.topic}</td>
          <td>
            <StatusBadge status={row.status} progress={row.progress} />
          </td>
          <td>{row.project ?? <span className="muted">studio</span>}</td>
          <td>{row.user ?? <span className="muted">—</span>}</td>
          <td className="ev-description">
            {row.description}
            {pathOf(row, paths) && <span className="ev-path">{pathOf(row, paths)}</span>}
          </td>
        </ChoosableRow>
      ))}
    </Table>
  );
}
