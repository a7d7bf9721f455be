// What the overview knows about a project: its folders and tasks as one kind of row, and the project's lists
// (statuses, types) and attribute definitions that the grid's columns and pickers are built from.

export type Kind = 'folder' | 'task';

export interface Entity {
  kind: Kind;
  id: string;
  name: string;
  label: string | null;
  /** folderType or taskType. */
  type: string;
  status: string;
  tags: string[];
  /** The parent folder (null for a top-level folder); a task's folder. */
  parentId: string | null;
  /** "/sq010/sh010" for a folder, "/sq010/sh010/comp" for a task. */
  path: string;
  /** Every attribute value in force, inherited ones included. */
  attrib: Record<string, unknown>;
  /** The attributes set on this entity itself; the others are inherited from its parents or the project. */
  ownAttrib: string[];
  thumbnailId: string | null;
  hasChildren: boolean;
  hasTasks: boolean;
  assignees: string[];
}

export interface StatusDef {
  name: string;
  shortName?: string;
  color?: string;
  state?: string;
  scope?: string[];
}

export interface TypeDef {
  name: string;
  shortName?: string;
  color?: string;
  icon?: string;
}

export interface ProjectMeta {
  name: string;
  code: string;
  statuses: StatusDef[];
  folderTypes: TypeDef[];
  taskTypes: TypeDef[];
  attrib: Record<string, unknown>;
}

export interface AttributeDef {
  name: string;
  scope: string[];
  data: {
    type: string;
    title?: string | null;
    description?: string | null;
    enum?: { value: unknown; label: string; color?: string }[] | null;
  };
}

/** The attributes worth a column: the ones folders or tasks carry, with a value a cell can show and edit. */
export function gridAttributes(all: AttributeDef[]): AttributeDef[] {
  const simple = new Set(['string', 'integer', 'float', 'boolean', 'datetime']);
  return all.filter(
    (a) => (a.scope.includes('folder') || a.scope.includes('task')) && simple.has(a.data.type),
  );
}

export const ROOT = 'root';

/** The key children are stored under: the parent folder's id, or ROOT for the project's top level. */
export const parentKey = (entity: Entity) =>
  entity.kind === 'task' ? entity.parentId! : (entity.parentId ?? ROOT);

export function statusOf(meta: ProjectMeta, name: string): StatusDef | undefined {
  return meta.statuses.find((s) => s.name === name);
}

/** Statuses an entity of this kind may take (a status's scope lists the entity types it applies to). */
export function statusesFor(meta: ProjectMeta, kind: Kind): StatusDef[] {
  return meta.statuses.filter((s) => !s.scope || s.scope.length === 0 || s.scope.includes(kind));
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(+value.toFixed(4));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
