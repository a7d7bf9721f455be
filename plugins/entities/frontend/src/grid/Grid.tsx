import { useState, type CSSProperties, type MouseEvent } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { refusalFor, useProjectAccess } from '../access';
import { AssigneePicker, type Person } from '../Assignees';
import type { Entity, ProjectMeta } from '../model';
import type { GridRow, Sort } from '../rows';
import { VirtualRows } from '../VirtualRows';
import { CellContent } from './CellContent';
import { CellEditor, type EditTarget } from './CellEditor';
import { editableKind, pinned, ROW_HEIGHT, type Column } from './columns';
import { GridHeader } from './GridHeader';
import { useCellCursor, type PastedChanges } from './useCellCursor';
import { useCellHint } from './useCellHint';

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
  /** Other addons' parts: the last change of the cell the pointer rests on (history addon). */
  Extension?: ScreenProps['Extension'];
}

/** The folders and tasks with their attributes: virtualised rows, sortable columns, cells edited in place. */
export function Grid(props: GridProps) {
  const { rows, columns, sort, onSort } = props;
  const [editing, setEditing] = useState<EditTarget | null>(null);
  // Cells of entities the user's access groups keep from changing are not offered for editing.
  const access = useProjectAccess(props.client, props.project);
  const refusal = (entity: Entity) => refusalFor(access, 'update', 'changing entities', [entity]);
  const editable = (column: Column, entity: Entity) => editableKind(column, entity) && !refusal(entity);
  // Arrows, Tab, Enter, Escape and shift to stretch a rectangle of cells: useCellCursor.
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
  const hints = useCellHint();
  const { Extension } = props;
  const offsetOf = (column: Column) =>
    columns.slice(0, columns.indexOf(column)).reduce((x, c) => x + c.width, 0);

  const renderRow = (index: number, top: number) => {
    const row = rows[index]!;
    const style = { top, height: ROW_HEIGHT, width };
    if (row.type === 'group')
      return <GroupRow key={row.key} row={row} style={style} onToggle={() => props.onToggleGroup(row.key)} />;
    if (row.type === 'pending') return <PendingRow key={row.key} row={row} style={style} />;
    const { entity } = row;
    const selected = props.selection.has(entity.id);
    const select = (event: MouseEvent) =>
      props.onSelect(entity, event.shiftKey ? 'range' : event.ctrlKey || event.metaKey ? 'toggle' : 'only');
    const content = (column: Column) => <CellContent {...props} row={row} column={column} />;
    return (
      <div
        key={row.key}
        className={`pwo-row pwo-entity-row${selected ? ' pwo-selected' : ''}`}
        // A row showing a cell's last change lies over the rows below it.
        style={hints.hint?.entity.id === entity.id ? { ...style, zIndex: 3 } : style}
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
              onMouseEnter={() => hints.enter(entity, column)}
              onMouseLeave={hints.leave}
              onDoubleClick={() => {
                const chosen = cells.doubleClickTarget(entity, column);
                if (editable(chosen.column, chosen.entity))
                  setEditing({ entity: chosen.entity, column: chosen.column });
              }}
            >
              {isEditing && column.kind === 'assignees' ? (
                <>
                  {content(column)}
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
                content(column)
              )}
            </div>
          );
        })}
        {Extension && hints.hint?.entity.id === entity.id && !editing && (
          <div className="pwo-cell-hint" style={{ left: offsetOf(hints.hint.column), top: ROW_HEIGHT }}>
            <Extension
              module="history_screens/LastChange"
              props={{ entityType: entity.kind, entityId: entity.id, field: hints.hint.field }}
              fallback={null}
            />
          </div>
        )}
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
        header={<GridHeader columns={columns} sort={sort} onSort={onSort} />}
        renderRow={renderRow}
        revealIndex={props.revealIndex}
        onKeyDown={cells.onKeyDown}
      />
    </div>
  );
}

/** A group's heading row when rows are grouped: opens and closes the group. */
function GroupRow({
  row,
  style,
  onToggle,
}: {
  row: Extract<GridRow, { type: 'group' }>;
  style: CSSProperties;
  onToggle(): void;
}) {
  return (
    <div className="pwo-row pwo-group-row" style={style} role="row">
      <button type="button" className="pwo-group-toggle" onClick={onToggle}>
        <span className="pwo-expander">{row.collapsed ? '▸' : '▾'}</span>
        {row.color && <span className="pwo-dot" style={{ background: row.color }} />}
        <strong>{row.label}</strong> <span className="muted">{row.count.toLocaleString()}</span>
      </button>
    </div>
  );
}

/** A level shown open while it is read (or when it could not be). */
function PendingRow({ row, style }: { row: Extract<GridRow, { type: 'pending' }>; style: CSSProperties }) {
  return (
    <div className="pwo-row pwo-pending-row" style={style} role="row">
      <span style={{ paddingLeft: 12 + row.depth * 18 }} className={row.error ? 'pwo-error-text' : 'muted'}>
        {row.error ? `Could not read this level: ${row.error}` : 'Loading…'}
      </span>
    </div>
  );
}
