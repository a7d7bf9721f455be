import type { ReactNode } from 'react';
import { Options, useClient } from '@pipewright/sdk/ui';
import {
  forgetProjectAccess,
  newFolderRefusal,
  newTaskRefusal,
  refusalFor,
  useProjectAccess,
} from './access';
import type { AttributeDef, Entity, Kind, ProjectMeta } from './model';
import { ProgressFilter } from './ProgressFilter';
import { ToolButton } from './ToolButton';
import { isFlat, NO_FILTER, type Filter, type GroupBy } from './rows';

/** Filters, grouping and the create buttons above the grid; what the user's access refuses is disabled, saying why. */
export function Toolbar({
  project,
  meta,
  attributes,
  filter,
  groupBy,
  summary,
  parentForNew,
  onFilter,
  onGroupBy,
  onNew,
  onRefresh,
  edit,
  tools,
}: {
  project: string;
  meta: ProjectMeta;
  attributes: AttributeDef[];
  filter: Filter;
  groupBy: GroupBy;
  summary: string;
  /** Where New folder and New task put what they make: the chosen folder (or task's folder), if any. */
  parentForNew: Entity | null;
  onFilter(filter: Filter): void;
  onGroupBy(groupBy: GroupBy): void;
  onNew(kind: Kind): void;
  onRefresh(): void;
  /** Shaping the hierarchy: bulk creation, and rename, move, delete of the selection, undo of the last change. */
  edit: {
    /** The rows the editing buttons act on, and the one Rename renames. */
    chosen: Entity[];
    renaming: Entity | null;
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
  const client = useClient();
  const access = useProjectAccess(client, project);
  const folderWhy = newFolderRefusal(access, parentForNew);
  const taskWhy = parentForNew
    ? newTaskRefusal(access, parentForNew)
    : 'Select the folder the task belongs to first';
  const chosenFolders = edit.chosen.filter((e) => e.kind === 'folder');
  // Bulk creation makes folders in the chosen one, or tasks in each chosen folder.
  const bulkWhy =
    folderWhy && (chosenFolders.length === 0 || refusalFor(access, 'create', 'creating tasks', chosenFolders))
      ? folderWhy
      : null;
  const nothing = edit.chosen.length === 0;
  const renameWhy = edit.renaming && refusalFor(access, 'update', 'renaming', [edit.renaming]);
  const moveWhy = refusalFor(access, 'update', 'moving', edit.chosen);
  const deleteWhy = refusalFor(access, 'delete', 'deleting', edit.chosen);
  const types = [...new Set([...meta.folderTypes, ...meta.taskTypes].map((t) => t.name))];
  // Only attributes with a fixed list of values make sensible groups (priority, ...).
  const groupable = attributes.filter((a) => a.data.enum?.length);
  const filtered = isFlat(filter, groupBy);
  return (
    <div className="pwo-toolbar" role="toolbar" aria-label="Grid tools">
      <ToolButton className="primary" why={folderWhy} onClick={() => onNew('folder')}>
        New folder
      </ToolButton>
      <ToolButton className="primary" why={taskWhy} onClick={() => onNew('task')}>
        New task
      </ToolButton>
      <ToolButton
        why={bulkWhy}
        hint="Many folders (sh010 to sh200) or tasks on the selected folders"
        onClick={edit.onBulk}
      >
        Create in bulk
      </ToolButton>
      <ToolButton why={renameWhy} idle={!edit.renaming} onClick={edit.onRename}>
        Rename
      </ToolButton>
      <ToolButton why={moveWhy} idle={nothing} onClick={edit.onMove}>
        Move
      </ToolButton>
      <ToolButton why={deleteWhy} idle={nothing} onClick={edit.onDelete}>
        Delete
      </ToolButton>
      <ToolButton
        idle={!edit.undoLabel}
        hint={edit.undoLabel ? `Undo: ${edit.undoLabel}` : 'Nothing to undo'}
        label={edit.undoLabel ? `Undo: ${edit.undoLabel}` : 'Undo'}
        onClick={edit.onUndo}
      >
        Undo
      </ToolButton>
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
        <Options items={meta.statuses} value={(s) => s.name} />
      </select>
      <ProgressFilter value={filter.progress} onChange={(progress) => onFilter({ ...filter, progress })} />
      <select
        aria-label="Type filter"
        value={filter.type}
        onChange={(e) => onFilter({ ...filter, type: e.target.value })}
      >
        <option value="">Any type</option>
        <Options items={types} value={(t) => t} />
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
            onFilter(NO_FILTER);
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
      <button
        type="button"
        onClick={() => {
          forgetProjectAccess(client, project);
          onRefresh();
        }}
        title="Read the folders, the tasks and what you may do again"
      >
        Refresh
      </button>
    </div>
  );
}
