import type { Sort } from '../rows';
import { pinned, type Column } from './columns';

/** The grid's header row: a sort button per column (but Assignees), the sort told by aria-sort. */
export function GridHeader({
  columns,
  sort,
  onSort,
}: {
  columns: Column[];
  sort: Sort;
  onSort(key: string): void;
}) {
  return (
    <div className="pwo-row pwo-header-row" role="row">
      {columns.map((column) => (
        <div
          key={column.key}
          className={`pwo-cell pwo-header-cell${pinned(column) ? ' pwo-cell-sticky' : ''}`}
          role="columnheader"
          style={{ width: column.width, left: column.left }}
          aria-sort={sort.key === column.key ? (sort.desc ? 'descending' : 'ascending') : 'none'}
          title={column.attribute?.data.description ?? undefined}
        >
          {column.kind === 'assignees' ? (
            column.title
          ) : (
            <button type="button" className="pwo-sort" onClick={() => onSort(column.key)}>
              {column.title}
              {/* The direction is told by aria-sort on the header cell; the arrow is for the eye. */}
              <span aria-hidden="true">{sort.key === column.key ? (sort.desc ? ' ▼' : ' ▲') : ''}</span>
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
