import type { ProjectMeta } from './model';
import { NO_FILTER, type Filter } from './rows';

interface Conflict {
  why: string;
  fix: string;
  fixed: Partial<Filter>;
}

/** Filters that cannot both hold, said in words with the change that resolves them; null when none are. */
export function conflictOf(meta: ProjectMeta, filter: Filter): Conflict | null {
  const isTaskType = meta.taskTypes.some((t) => t.name === filter.type);
  const isFolderType = meta.folderTypes.some((t) => t.name === filter.type);
  const clearType = { fix: 'Clear the type filter', fixed: { type: '' } };
  if (filter.type && filter.kind === 'task' && !isTaskType)
    return { why: `${filter.type} is a folder type, and Show is set to Tasks only.`, ...clearType };
  if (filter.type && filter.kind === 'folder' && !isFolderType)
    return { why: `${filter.type} is a task type, and Show is set to Folders only.`, ...clearType };
  if (filter.progress && filter.kind === 'folder')
    return {
      why: 'The progress filter finds tasks, and Show is set to Folders only.',
      fix: 'Clear the progress filter',
      fixed: { progress: '' },
    };
  if (filter.progress && filter.type && !isTaskType)
    return { why: `The progress filter finds tasks, and ${filter.type} is a folder type.`, ...clearType };
  return null;
}

/**
 * Shown when the filters find nothing: why, when two of them contradict each other, and a one-click way out
 * (the filter in the way, or every filter).
 */
export function FilterHint({
  meta,
  filter,
  onFilter,
}: {
  meta: ProjectMeta;
  filter: Filter;
  onFilter(filter: Filter): void;
}) {
  const conflict = conflictOf(meta, filter);
  return (
    <div className="pwo-filter-hint" role="status">
      <span>{conflict ? `Nothing can match: ${conflict.why}` : 'Nothing matches these filters.'}</span>
      {conflict && (
        <button type="button" onClick={() => onFilter({ ...filter, ...conflict.fixed })}>
          {conflict.fix}
        </button>
      )}
      <button type="button" onClick={() => onFilter(NO_FILTER)}>
        Clear all filters
      </button>
    </div>
  );
}
