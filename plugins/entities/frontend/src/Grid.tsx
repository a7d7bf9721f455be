import { useState, type MouseEvent } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { refusalFor, useProjectAccess } from './access';
import { AssigneePicker, personLabel, type Person } from './Assignees';
import { CellEditor, type EditTarget } from './CellEditor';
import { DeadlineMark } from './DeadlineMark';
import { formatValue, statusOf, type AttributeDef, type Entity, type ProjectMeta } from './model';
import { taskDeadline } from './progress';
import type { GridRow, Sort } from './rows';
import { Thumbnail } from './Thumbnail';
import { useCellCursor, type PastedChanges } from './useCellCursor';
import { VirtualRows } from './VirtualRows';

export interface Column {
  key: string;
  title: string;
  width: number;
  kind: 'name' | 'type' | 'status' | 'assignees' | 'attrib';
  attribute?: AttributeDef;
  /** Kept in view at `left` px while the others scroll sideways (the view's column layout: views.ts). */
  pinned?: boolean;
  left?: number;
}

/** Pinned columns stay in view; without a layout, the name does. */
const pinned = (column: Column) => column.pinned ?? column.kind === 'name';

export const ROW_HEIGHT = 32;

export function columnsFor(attributes: AttributeDef[]): Column[] {
  return [
    { key: 'name', title: 'Name', width: 300, kind: 'name' },
    { key: 'type', title: 'Type', width: 110, kind: 'type' },
    { key: 'status', title: 'Status', width: 130, kind: 'status' },
    { key: 'assignees', title: 'Assignees', width: 120, kind: 'assignees' },
    ...attributes.map((attribute): Column => ({
      key: `attrib.${attribute.name}`,
      title: attribute.data.title || attribute.name,
      width: attribute.data.type === 'string' ? 130 : 96,
      kind: 'attrib',
      attribute,
    })),
  ];
}

/** Which cells may be edited in place: status and attributes the entity's kind carries. */
function editableKind(column: Column, entity: Entity): boolean {
  if (column.kind === 'status') return true;
  if (column.kind === 'assignees') return entity.kind === 'task';
  return column.kind === 'attrib' && !!column.attribute?.scope.includes(entity.kind);
}

export interface GridProps {
  rows: GridRow[];
  columns: Column[];
  meta: ProjectMeta;
  project: string;
  client: PipewrightClient;
  flat: boolean;
  selection: Set<string>;
  revealIndex: number | null;
  sort: Sort;
  onSort(key: string): void;
  onSelect(entity: Entity, how: 'only' | 'toggle' | 'range'): void;
  onToggle(id: string): void;
  onToggleGroup(key: string): void;
  onEdit(target: EditTarget, value: unknown): void;
  onMove(by: number): void;
  onEscape(): void;
  /** The people tasks can be assigned to. */
  people: Person[];
  /** The tasks an assignment made in this task's cell applies to (the selection when the task is in it). */
  assignTargets(task: Entity): Entity[];
  onAssign(tasks: Entity[], name: string, assign: boolean): void;
  /** A pasted block's changes, checked cell by cell already (useCellCursor). */
  onPaste?(pasted: PastedChanges): void;
  /** Say something about copy, paste or the keyboard (a refused cell, how many cells were copied). */
  onNotice?(notice: { kind: 'error' | 'info'; text: string }): void;
}

/** The folders and tasks with their attributes: virtualised rows, sortable columns, cells edited in place. */
export function Grid(props: GridProps) {
  const { rows, columns, sort, onSort } = props;
  const [editing, setEditing] = useState<EditTarget | null>(null);
  // Cells of entities the user's access groups keep from changing are not offered for editing.
  const access = useProjectAccess(props.client, props.project);
  const refusal = (entity: Entity) => refusalFor(access, 'update', 'changing entities', [entity]);
  const editable = (column: Column, entity: Entity) => editableKind(column, entity) && !refusal(entity);
  const cells = useCellCursor({
    rows,
    columns,
    meta: props.meta,
    people: props.people,
    editing: editing !== null,
    editable,
    startEditing: (entity, column) => setEditing({ entity, column }),
    onMove: props.onMove,
    onEscape: props.onEscape,
    onPaste: (pasted) => props.onPaste?.(pasted),
    onNotice: (notice) => props.onNotice?.(notice),
  });
  const width = columns.reduce((sum, c) => sum + c.width, 0);

  const header = (
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

  // Arrows, Tab, Enter, Escape and shift to stretch a rectangle of cells: useCellCursor.
  const onKeyDown = cells.onKeyDown;

  const renderRow = (index: number, top: number) => {
    const row = rows[index]!;
    const style = { top, height: ROW_HEIGHT, width };
    if (row.type === 'group')
      return (
        <div key={row.key} className="pwo-row pwo-group-row" style={style} role="row">
          <button type="button" className="pwo-group-toggle" onClick={() => props.onToggleGroup(row.key)}>
            <span className="pwo-expander">{row.collapsed ? '▸' : '▾'}</span>
            {row.color && <span className="pwo-dot" style={{ background: row.color }} />}
            <strong>{row.label}</strong> <span className="muted">{row.count.toLocaleString()}</span>
          </button>
        </div>
      );
    if (row.type === 'pending')
      return (
        <div key={row.key} className="pwo-row pwo-pending-row" style={style} role="row">
          <span
            style={{ paddingLeft: 12 + row.depth * 18 }}
            className={row.error ? 'pwo-error-text' : 'muted'}
          >
            {row.error ? `Could not read this level: ${row.error}` : 'Loading…'}
          </span>
        </div>
      );
    const { entity } = row;
    const selected = props.selection.has(entity.id);
    const select = (event: MouseEvent) =>
      props.onSelect(entity, event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'only');
    return (
      <div
        key={row.key}
        className={`pwo-row pwo-entity-row${selected ? ' pwo-selected' : ''}`}
        style={style}
        role="row"
        aria-selected={selected}
        data-entity={entity.name}
        data-kind={entity.kind}
        // Shift-click extends the selection of rows; without this the browser would also select the page's text.
        onMouseDown={(event) => event.shiftKey && event.preventDefault()}
        onClick={select}
      >
        {columns.map((column) => {
          const target = { entity, column };
          const isEditing = editing?.entity.id === entity.id && editing.column.key === column.key;
          return (
            <div
              key={column.key}
              // The name stays in view while the attribute columns scroll sideways.
              className={pinned(column) ? 'pwo-cell pwo-cell-sticky' : 'pwo-cell'}
              style={{ width: column.width, left: column.left }}
              role="gridcell"
              data-column={column.key}
              data-cell={`${entity.id}|${column.key}`}
              data-cursor={
                cells.cursor?.id === entity.id && cells.cursor.column === column.key ? '' : undefined
              }
              data-in-range={cells.inRange(entity.id, column.key) ? '' : undefined}
              title={editableKind(column, entity) ? (refusal(entity) ?? undefined) : undefined}
              onClick={(event) => cells.onCellClick(entity, column, event)}
              onDoubleClick={() => {
                const chosen = cells.doubleClickTarget(entity, column);
                if (editable(chosen.column, chosen.entity))
                  setEditing({ entity: chosen.entity, column: chosen.column });
              }}
            >
              {isEditing && column.kind === 'assignees' ? (
                <>
                  <CellContent {...props} row={row} column={column} />
                  <AssigneePicker
                    people={props.people}
                    tasks={props.assignTargets(entity)}
                    onToggle={(name, assign) => props.onAssign(props.assignTargets(entity), name, assign)}
                    onClose={() => setEditing(null)}
                  />
                </>
              ) : isEditing ? (
                <CellEditor
                  target={target}
                  meta={props.meta}
                  onDone={(value) => {
                    setEditing(null);
                    if (value !== undefined) props.onEdit(target, value);
                  }}
                />
              ) : (
                <CellContent {...props} row={row} column={column} />
              )}
            </div>
          );
        })}
      </div>
    );
  };

  return (
    <div ref={cells.box} className="pwo-grid-cells" onCopy={cells.onCopy} onPaste={cells.onPaste}>
      <VirtualRows
        className="pwo-grid"
        label="Folders and tasks"
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        width={width}
        header={header}
        renderRow={renderRow}
        revealIndex={props.revealIndex}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}

function CellContent({
  row,
  column,
  meta,
  project,
  client,
  flat,
  onToggle,
  people,
}: GridProps & { row: Extract<GridRow, { type: 'entity' }>; column: Column }) {
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
            <Thumbnail
              project={project}
              kind={entity.kind}
              id={entity.id}
              thumbnailId={entity.thumbnailId}
              client={client}
            />
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
