import { newEntityId, type Operation } from '@pipewright/sdk/client';
import type { Entity } from './model';

// Shaping the hierarchy: names for bulk creation, and the inverse of each change so the last ones can be undone by
// replaying them through the same operations endpoint.

/** A run of numbered names: "sh010" to "sh200" by 10 is sh010, sh020, ... sh200 (the padding of the first kept). */
export function numberedNames(first: string, last: string, step: number): string[] | string {
  const a = /^(.*?)(\d+)$/.exec(first.trim());
  if (!a) return `${first} does not end with a number`;
  const lastText = last.trim() || first.trim();
  const b = /^(.*?)(\d+)$/.exec(lastText);
  if (!b || b[1] !== a[1]) return `${lastText} must have the same start as ${first} and end with a number`;
  if (!Number.isInteger(step) || step < 1) return 'The step is a whole number of at least 1';
  const [from, to] = [Number(a[2]), Number(b[2])];
  if (to < from) return `${lastText} comes before ${first}`;
  const count = Math.floor((to - from) / step) + 1;
  // Enough for a season; more in one go is more likely a typo than a plan.
  if (count > 2000) return `That makes ${count} names; at most 2000 at once`;
  const width = a[2]!.length;
  return Array.from({ length: count }, (_, i) => `${a[1]}${String(from + i * step).padStart(width, '0')}`);
}

/** What undoes one change: its label for the Undo button and the operations that reverse it. */
export interface UndoStep {
  label: string;
  operations: Operation[];
  /** Folders whose children change when it is replayed (ROOT for the top level). */
  parents: string[];
}

/** One operation on a folder or task, with its data when it carries some. */
const operation = (
  type: Operation['type'],
  entity: { kind: Entity['kind']; id: string },
  data?: Record<string, unknown>,
): Operation => ({
  id: newEntityId(),
  type,
  entityType: entity.kind,
  entityId: entity.id,
  ...(data ? { data } : {}),
});

/** Deleting what a batch created: tasks first, then folders deepest first, so nothing is deleted twice. */
export function undoCreate(
  label: string,
  created: { kind: Entity['kind']; id: string; depth: number }[],
  parents: string[],
): UndoStep {
  const ordered = [...created].sort((x, y) =>
    x.kind === y.kind ? y.depth - x.depth : x.kind === 'task' ? -1 : 1,
  );
  return { label, parents, operations: ordered.map((e) => operation('delete', e)) };
}

/** Putting the old name or parent back. */
export function undoUpdate(
  label: string,
  entity: Entity,
  data: Record<string, unknown>,
  parents: string[],
): UndoStep {
  return { label, parents, operations: [operation('update', entity, data)] };
}

/**
 * Creating again, with their ids, what a delete removed: the entity and what of its subtree the screen had read,
 * parents before children. Products and versions a forced delete took along are not brought back.
 */
export function undoDelete(label: string, removed: Entity[], parents: string[]): UndoStep {
  const depth = (e: Entity) => e.path.split('/').length;
  const ordered = [...removed].sort((x, y) => depth(x) - depth(y) || (x.kind === 'folder' ? -1 : 1));
  return { label, parents, operations: ordered.map((e) => operation('create', e, createData(e))) };
}

/** What creates the entity again as it was: its own values (not the inherited ones) and its place. */
function createData(e: Entity): Record<string, unknown> {
  // A create takes no null label: left out when there is none.
  const common = {
    id: e.id,
    name: e.name,
    ...(e.label ? { label: e.label } : {}),
    status: e.status,
    tags: e.tags,
    attrib: Object.fromEntries(e.ownAttrib.map((name) => [name, e.attrib[name]])),
  };
  return e.kind === 'folder'
    ? { ...common, folderType: e.type, parentId: e.parentId }
    : { ...common, taskType: e.type, folderId: e.parentId, assignees: e.assignees };
}
