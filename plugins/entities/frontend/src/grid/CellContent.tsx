import { personLabel, type Person } from '../Assignees';
import { DeadlineMark } from '../DeadlineMark';
import { formatValue, statusOf, type ProjectMeta } from '../model';
import { taskDeadline } from '../progress';
import type { GridRow } from '../rows';
import { EntityThumbnail } from '../Thumbnail';
import type { Column } from './columns';

/** What one cell of an entity's row shows, by the kind of its column. */
export function CellContent({
  row,
  column,
  meta,
  project,
  flat,
  onToggle,
  people,
}: {
  row: Extract<GridRow, { type: 'entity' }>;
  column: Column;
  meta: ProjectMeta;
  project: string;
  /** Rows found across the project: the name shows where each is. */
  flat: boolean;
  onToggle(id: string): void;
  people: Person[];
}) {
  const { entity } = row;
  switch (column.kind) {
    case 'name':
      return (
        <span className="pwo-name" style={{ paddingLeft: row.depth * 18 }}>
          {row.expandable ? (
            <button
              type="button"
              className="pwo-expander"
              aria-label={`${row.expanded ? 'Close' : 'Open'} ${entity.name}`}
              aria-expanded={row.expanded}
              onClick={(event) => {
                event.stopPropagation();
                onToggle(entity.id);
              }}
            >
              {row.expanded ? '▾' : '▸'}
            </button>
          ) : (
            <span className="pwo-expander" />
          )}
          {entity.thumbnailId ? (
            <EntityThumbnail project={project} entity={entity} />
          ) : (
            <span className={`pwo-kind pwo-kind-${entity.kind}`} aria-hidden="true" />
          )}
          <span className="pwo-name-text" title={entity.path}>
            {entity.label || entity.name}
          </span>
          <DeadlineMark deadline={taskDeadline(entity, meta, Date.now())} />
          {flat && (
            <span className="muted pwo-path">
              {entity.path.slice(0, entity.path.lastIndexOf('/')) || '/'}
            </span>
          )}
        </span>
      );
    case 'type': {
      const list = entity.kind === 'folder' ? meta.folderTypes : meta.taskTypes;
      const color = list.find((t) => t.name === entity.type)?.color;
      return (
        <span className="pwo-type">
          {color && <span className="pwo-dot" style={{ background: color }} />}
          {entity.type}
        </span>
      );
    }
    case 'status': {
      const status = statusOf(meta, entity.status);
      return (
        <span className="pwo-status" style={{ color: status?.color }} title="Double-click to change">
          <span className="pwo-dot" style={{ background: status?.color ?? 'var(--muted)' }} />
          {entity.status}
        </span>
      );
    }
    case 'assignees':
      return (
        <span
          className="pwo-value"
          title={entity.kind === 'task' ? 'Double-click to assign people' : undefined}
        >
          {entity.assignees.map((name) => personLabel(people, name)).join(', ')}
        </span>
      );
    case 'attrib': {
      const name = column.attribute!.name;
      if (!column.attribute!.scope.includes(entity.kind)) return null;
      const own = entity.ownAttrib.includes(name);
      const value = entity.attrib[name];
      const option = column.attribute!.data.enum?.find((o) => o.value === value);
      return (
        <span
          className={own ? 'pwo-value' : 'pwo-value pwo-inherited'}
          title={own ? 'Set here' : 'Inherited from a parent folder or the project'}
        >
          {option ? option.label : formatValue(value)}
        </span>
      );
    }
  }
}
