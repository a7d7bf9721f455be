import { useEffect, useRef, useState } from 'react';
import type { Entity } from '../model';
import type { Column } from './columns';

// The cell the pointer has rested on for a moment: the grid shows that cell's last change beside it (the history
// addon's LastChange), so "who changed this, and when?" needs no click.

const REST_MS = 600;

export interface CellHint {
  entity: Entity;
  column: Column;
  /** The field the column shows, as history names it: status, folderType, attrib.fps, ... */
  field: string;
}

function historyField(column: Column, entity: Entity): string {
  if (column.kind === 'type') return entity.kind === 'folder' ? 'folderType' : 'taskType';
  return column.key;
}

export function useCellHint() {
  const [hint, setHint] = useState<CellHint | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const leave = () => {
    clearTimeout(timer.current);
    // Unchanged state is no render: moving over the grid without resting re-renders nothing.
    setHint((shown) => (shown ? null : shown));
  };
  const enter = (entity: Entity, column: Column) => {
    leave();
    timer.current = setTimeout(
      () => setHint({ entity, column, field: historyField(column, entity) }),
      REST_MS,
    );
  };
  return { hint, enter, leave };
}
