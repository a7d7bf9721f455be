import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import type { Person } from '../Assignees';
import { cellText, mergeChange, parseCell, parseDelimited, toTsv, type CellChange } from './cells';
import type { Column } from './columns';
import type { Entity, ProjectMeta } from '../model';
import type { GridRow } from '../rows';
import './cells.css';

// The grid as a spreadsheet: a cursor cell moved with the arrows and Tab, a rectangle of cells stretched with
// shift-click or shift-arrows, Enter to edit the cursor's cell, Ctrl+C to copy the rectangle as tab-separated
// text and Ctrl+V to paste such a block from the cursor down and right (checked cell by cell first).

export interface CellPos {
  id: string;
  column: string;
}

/** The changes a pasted block makes, per entity; nothing is sent when a cell is refused. */
export interface PastedChanges {
  changes: { entity: Entity; change: CellChange }[];
  cells: number;
}

interface Options {
  rows: GridRow[];
  columns: Column[];
  meta: ProjectMeta;
  people: Person[];
  editing: boolean;
  editable(column: Column, entity: Entity): boolean;
  startEditing(entity: Entity, column: Column): void;
  onMove(by: number): void;
  onEscape(): void;
  onPaste(pasted: PastedChanges): void;
  onNotice(notice: { kind: 'error' | 'info'; text: string }): void;
}

export function useCellCursor(options: Options) {
  const { rows, columns } = options;
  const [cursor, setCursor] = useState<CellPos | null>(null);
  const [anchor, setAnchor] = useState<CellPos | null>(null);
  const latest = useRef(options);
  latest.current = options;
  const box = useRef<HTMLDivElement>(null);

  const entities = useMemo(() => rows.flatMap((row) => (row.type === 'entity' ? [row.entity] : [])), [rows]);
  const rowIndex = useMemo(() => new Map(entities.map((entity, i) => [entity.id, i])), [entities]);
  const columnIndex = (key: string) => columns.findIndex((c) => c.key === key);

  /** The rectangle between the anchor and the cursor, as entities and columns. */
  const range = useMemo(() => {
    if (!cursor) return null;
    const from = anchor ?? cursor;
    const [r1, r2] = [rowIndex.get(from.id), rowIndex.get(cursor.id)];
    const [c1, c2] = [
      columns.findIndex((c) => c.key === from.column),
      columns.findIndex((c) => c.key === cursor.column),
    ];
    if (r1 === undefined || r2 === undefined || c1 < 0 || c2 < 0) return null;
    return {
      rows: entities.slice(Math.min(r1, r2), Math.max(r1, r2) + 1),
      columns: columns.slice(Math.min(c1, c2), Math.max(c1, c2) + 1),
    };
  }, [cursor, anchor, rowIndex, entities, columns]);
  const inRange = useMemo(() => {
    const ids = new Set(range?.rows.map((e) => e.id));
    const keys = new Set(range?.columns.map((c) => c.key));
    return (id: string, column: string) => ids.has(id) && keys.has(column);
  }, [range]);

  const grid = () => box.current?.querySelector<HTMLElement>('[role="grid"]') ?? null;

  // After an edit ends the editor is gone: the keyboard goes back to the grid, so the arrows keep working.
  const wasEditing = useRef(false);
  useEffect(() => {
    if (wasEditing.current && !options.editing) {
      const active = document.activeElement;
      if (!active || active === document.body || !box.current?.contains(active)) grid()?.focus();
    }
    wasEditing.current = options.editing;
  }, [options.editing]);

  // A double-click starts editing the cell its first click chose, even when that click opened the detail panel and
  // the grid narrowed under the pointer, so the second click landed elsewhere.
  const lastClick = useRef<{ entity: Entity; column: Column; at: number; x: number; y: number } | null>(null);
  useEffect(() => {
    const onDoubleClick = (event: globalThis.MouseEvent) => {
      const click = lastClick.current;
      // Only a second click where the first one was: the layout moved under a pointer that stayed put.
      const samePlace =
        click && Math.abs(click.x - event.clientX) < 5 && Math.abs(click.y - event.clientY) < 5;
      if (!click || !samePlace || Date.now() - click.at > 800 || box.current?.contains(event.target as Node))
        return;
      event.preventDefault();
      event.stopPropagation();
      const { editable, startEditing } = latest.current;
      if (editable(click.column, click.entity)) startEditing(click.entity, click.column);
    };
    document.addEventListener('dblclick', onDoubleClick, true);
    return () => document.removeEventListener('dblclick', onDoubleClick, true);
  }, []);

  const onCellClick = (entity: Entity, column: Column, event: MouseEvent) => {
    const pos = { id: entity.id, column: column.key };
    lastClick.current = { entity, column, at: Date.now(), x: event.clientX, y: event.clientY };
    setCursor(pos);
    if (!event.shiftKey || !anchor) setAnchor(pos);
  };
  /** The cell a double-click edits: the one its first click chose. */
  const doubleClickTarget = (entity: Entity, column: Column) => {
    const click = lastClick.current;
    return click && Date.now() - click.at < 800 ? click : { entity, column };
  };

  const moveTo = (pos: CellPos, extend: boolean) => {
    setCursor(pos);
    if (!extend) setAnchor(pos);
    // Keep the cursor's cell in view sideways; rows are kept in view by the grid's reveal.
    requestAnimationFrame(() =>
      box.current
        ?.querySelector(`[data-cell="${CSS.escape(`${pos.id}|${pos.column}`)}"]`)
        ?.scrollIntoView({ block: 'nearest', inline: 'nearest' }),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const { editing, editable, startEditing, onMove, onEscape } = latest.current;
    if (editing) {
      // Tab leaves the editor (leaving saves) and goes on to the next cell.
      if (event.key === 'Tab' && cursor) {
        event.preventDefault();
        (document.activeElement as HTMLElement | null)?.blur();
        step(0, event.shiftKey ? -1 : 1, false);
      }
      return;
    }
    const here = cursor && rowIndex.has(cursor.id) ? cursor : null;
    const r = here ? rowIndex.get(here.id)! : -1;
    const c = here ? Math.max(0, columnIndex(here.column)) : 0;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        const by = event.key === 'ArrowDown' ? 1 : -1;
        if (event.shiftKey && here) return step(by, 0, true);
        // The row selection and the details follow, as before cells had a cursor.
        onMove(by);
        const next = entities[Math.min(entities.length - 1, Math.max(0, r + by))];
        if (next) moveTo({ id: next.id, column: columns[c]?.key ?? 'name' }, false);
        return;
      }
      case 'ArrowLeft':
      case 'ArrowRight':
        event.preventDefault();
        return step(0, event.key === 'ArrowRight' ? 1 : -1, event.shiftKey);
      case 'Tab':
        if (!here) return;
        event.preventDefault();
        return step(0, event.shiftKey ? -1 : 1, false);
      case 'Enter':
      case 'F2': {
        if (!here) return;
        const entity = entities[r]!;
        const column = columns[c]!;
        event.preventDefault();
        if (editable(column, entity)) startEditing(entity, column);
        else
          latest.current.onNotice({
            kind: 'info',
            text: `${column.title} of ${entity.name} cannot be edited here.`,
          });
        return;
      }
      case 'Escape':
        // A rectangle shrinks back to its cursor first; then the selection goes.
        if (here && anchor && (anchor.id !== here.id || anchor.column !== here.column))
          return setAnchor(here);
        setCursor(null);
        setAnchor(null);
        return onEscape();
    }
  };

  /** Move the cursor by rows and columns (stretching the rectangle when extend). */
  const step = (byRows: number, byColumns: number, extend: boolean) => {
    if (!cursor) return;
    const r = rowIndex.get(cursor.id);
    if (r === undefined) return;
    const c = Math.max(0, columnIndex(cursor.column));
    const row = entities[Math.min(entities.length - 1, Math.max(0, r + byRows))]!;
    const column = columns[Math.min(columns.length - 1, Math.max(0, c + byColumns))]!;
    moveTo({ id: row.id, column: column.key }, extend);
  };

  const onCopy = (event: ClipboardEvent<HTMLDivElement>) => {
    if (options.editing || !range) return;
    event.preventDefault();
    const text = toTsv(
      range.rows.map((entity) => range.columns.map((col) => cellText(entity, col, options.people))),
    );
    event.clipboardData.setData('text/plain', text);
    const cells = range.rows.length * range.columns.length;
    options.onNotice({ kind: 'info', text: `Copied ${cells} cell${cells === 1 ? '' : 's'}.` });
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    if (options.editing || !range) return;
    event.preventDefault();
    paste(event.clipboardData.getData('text/plain'));
  };

  /** Check a pasted block against the columns it lands in, and hand over the changes only when all are good. */
  const paste = (text: string) => {
    if (!range) return;
    const block = parseDelimited(text.replace(/\r?\n$/, ''), '\t');
    if (block.length === 0) return;
    const single = block.length === 1 && block[0]!.length === 1;
    // One value pasted over a rectangle fills it, as spreadsheets do; a block starts at the rectangle's corner.
    const top = rowIndex.get(range.rows[0]!.id)!;
    const left = columnIndex(range.columns[0]!.key);
    const height = single ? range.rows.length : block.length;
    const width = single ? range.columns.length : Math.max(...block.map((line) => line.length));
    const errors: string[] = [];
    if (top + height > entities.length || left + width > columns.length)
      errors.push(
        `the block is ${height} × ${width} cells but only ${entities.length - top} rows and ${columns.length - left} columns are there from ${range.rows[0]!.name}`,
      );
    const byEntity = new Map<string, { entity: Entity; change: CellChange }>();
    let cells = 0;
    for (let i = 0; i < height && !errors.length; i++) {
      const entity = entities[top + i]!;
      for (let j = 0; j < width; j++) {
        const column = columns[left + j]!;
        const value = single ? block[0]![0]! : (block[i]![j] ?? '');
        const parsed = parseCell(entity, column, value, options.meta, options.people);
        if ('error' in parsed) {
          errors.push(`${entity.name}, ${column.title}: ${parsed.error}`);
          continue;
        }
        if (!parsed.change) continue;
        cells++;
        const known = byEntity.get(entity.id);
        byEntity.set(entity.id, { entity, change: mergeChange(known?.change ?? {}, parsed.change) });
      }
    }
    if (errors.length) {
      options.onNotice({
        kind: 'error',
        text: `Nothing pasted: ${errors.slice(0, 3).join('; ')}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}.`,
      });
      return;
    }
    if (!cells) return options.onNotice({ kind: 'info', text: 'Pasted: nothing changed.' });
    // The pasted block is the new rectangle, so it can be copied again or undone by eye.
    setAnchor({ id: entities[top]!.id, column: columns[left]!.key });
    setCursor({ id: entities[top + height - 1]!.id, column: columns[left + width - 1]!.key });
    options.onPaste({ changes: [...byEntity.values()], cells });
  };

  return { box, cursor, inRange, onCellClick, doubleClickTarget, onKeyDown, onCopy, onPaste };
}
