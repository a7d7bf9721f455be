import type { AttributeDef, Entity } from '../model';

// The grid's columns: the entity's own fields, then one per attribute.

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

export const ROW_HEIGHT = 32;

/** Pinned columns stay in view; without a layout, the name does. */
export const pinned = (column: Column) => column.pinned ?? column.kind === 'name';

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
export function editableKind(column: Column, entity: Entity): boolean {
  if (column.kind === 'status') return true;
  if (column.kind === 'assignees') return entity.kind === 'task';
  return column.kind === 'attrib' && !!column.attribute?.scope.includes(entity.kind);
}
