import type { ReactNode } from 'react';
import type { AttributeDef, Kind, ProjectMeta } from './model';
import type { Filter, GroupBy } from './rows';

/** Filters, grouping and the create buttons above the grid. */
export function Toolbar({
  meta,
  attributes,
  filter,
  groupBy,
  summary,
  canCreateTask,
  onFilter,
  onGroupBy,
  onNew,
  onRefresh,
  edit,
  tools,
}: {
  meta: ProjectMeta;
  attributes: AttributeDef[];
  filter: Filter;
  groupBy: GroupBy;
  summary: string;
  canCreateTask: boolean;
  onFilter(filter: Filter): void;
  onGroupBy(groupBy: GroupBy): void;
  onNew(kind: Kind): void;
  onRefresh(): void;
  /** Shaping the hierarchy: bulk creation, and rename, move, delete of the selection, undo of the last change. */
  edit: {
    selected: number;
    canRename: boolean;
    undoLabel: string | null;
    onBulk(): void;
    onRename(): void;
    onMove(): void;
    onDelete(): void;
    onUndo(): void;
  };
  /** More tools after the editing ones (products and versions, views, columns: OverviewTools). */
  tools?: ReactNode;
}) {
  const types = [...new Set([...meta.folderTypes, ...meta.taskTypes].map((t) => t.name))];
  // Only attributes with a fixed list of values make sensible groups (priority, ...).
  const groupable = attributes.filter((a) => a.data.enum?.length);
  const filtered =
    filter.text !== '' ||
    filter.status !== '' ||
    filter.type !== '' ||
    filter.kind !== 'all' ||
    groupBy !== 'none';
  return (
    <div className="pwo-toolbar" role="toolbar" aria-label="Grid tools">
      <button type="button" className="primary" onClick={() => onNew('folder')}>
        New folder
      </button>
      <button
        type="button"
        className="primary"
        disabled={!canCreateTask}
        title={canCreateTask ? undefined : 'Select the folder the task belongs to first'}
        onClick={() => onNew('task')}
      >
        New task
      </button>
      <button
        type="button"
        onClick={edit.onBulk}
        title="Many folders (sh010 to sh200) or tasks on the selected folders"
      >
        Create in bulk
      </button>
      <button type="button" disabled={!edit.canRename} onClick={edit.onRename}>
        Rename
      </button>
      <button type="button" disabled={edit.selected === 0} onClick={edit.onMove}>
        Move
      </button>
      <button type="button" disabled={edit.selected === 0} onClick={edit.onDelete}>
        Delete
      </button>
      <button
        type="button"
        disabled={!edit.undoLabel}
        title={edit.undoLabel ? `Undo: ${edit.undoLabel}` : 'Nothing to undo'}
        aria-label={edit.undoLabel ? `Undo: ${edit.undoLabel}` : 'Undo'}
        onClick={edit.onUndo}
      >
        Undo
      </button>
      {tools}
      <span className="pwo-toolbar-gap" />
      <input
        type="search"
        aria-label="Filter by name or path"
        placeholder="Filter by name or path…"
        value={filter.text}
        onChange={(e) => onFilter({ ...filter, text: e.target.value })}
      />
      <select
        aria-label="Status filter"
        value={filter.status}
        onChange={(e) => onFilter({ ...filter, status: e.target.value })}
      >
        <option value="">Any status</option>
        {meta.statuses.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name}
          </option>
        ))}
      </select>
      <select
        aria-label="Type filter"
        value={filter.type}
        onChange={(e) => onFilter({ ...filter, type: e.target.value })}
      >
        <option value="">Any type</option>
        {types.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <select
        aria-label="Show"
        value={filter.kind}
        onChange={(e) => onFilter({ ...filter, kind: e.target.value as Filter['kind'] })}
      >
        <option value="all">Folders and tasks</option>
        <option value="folder">Folders only</option>
        <option value="task">Tasks only</option>
      </select>
      <select aria-label="Group by" value={groupBy} onChange={(e) => onGroupBy(e.target.value)}>
        <option value="none">No grouping</option>
        <option value="status">Group by status</option>
        <option value="type">Group by type</option>
        <option value="kind">Group by folder or task</option>
        {groupable.map((a) => (
          <option key={a.name} value={`attrib.${a.name}`}>
            Group by {(a.data.title || a.name).toLowerCase()}
          </option>
        ))}
      </select>
      {filtered && (
        <button
          type="button"
          onClick={() => {
            onFilter({ text: '', status: '', type: '', kind: 'all' });
            onGroupBy('none');
          }}
        >
          Back to the hierarchy
        </button>
      )}
      <span className="muted pwo-summary" role="status">
        {summary}
      </span>
      <span className="spacer" />
      <button type="button" onClick={onRefresh} title="Read the folders and tasks again">
        Refresh
      </button>
    </div>
  );
}
