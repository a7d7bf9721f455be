import { BadRequest, NotFound, ValidationFailed, mergePatch, newId, type Problem } from '@pipewright/sdk';
import type { ItemCreate, ItemPatch, MultiPatchItem } from './schemas.js';

// How each change of a list's items rearranges them, as pure functions over the ordered items: the store then
// writes the difference. Positions are always the items' indexes (0..n-1) once a change is planned.

type Json = Record<string, unknown>;

/** An item as a change leaves it; isNew and changed tell the store what to write. */
export interface PlannedItem {
  id: string;
  entityId: string;
  label: string | null;
  attrib: Json;
  data: Json;
  tags: string[];
  isNew: boolean;
  changed: boolean;
}

/** Stored items, in list order, ready to be planned on. */
export function fromStored(
  rows: { id: string; entity_id: string; label: string | null; attrib: Json; data: Json; tags: string[] }[],
): PlannedItem[] {
  return rows.map((row) => ({
    id: row.id,
    entityId: row.entity_id,
    label: row.label,
    attrib: row.attrib,
    data: row.data,
    tags: row.tags,
    isNew: false,
    changed: false,
  }));
}

/** A new item from a create body (the entity has been checked already). */
export function newItem(input: ItemCreate | MultiPatchItem, entityId: string): PlannedItem {
  return {
    id: input.id ?? newId(),
    entityId,
    label: input.label ?? null,
    attrib: input.attrib ?? {},
    data: input.data ?? {},
    tags: input.tags ?? [],
    isNew: true,
    changed: true,
  };
}

const clamp = (position: number, length: number) => Math.max(0, Math.min(position, length));

function indexOf(items: PlannedItem[], id: string, listLabel: string): number {
  const at = items.findIndex((item) => item.id === id);
  if (at === -1) throw new NotFound(`Item ${id} not found in list ${listLabel}`);
  return at;
}

/** Insert at a position (the others from there on shift down one), or at the end when none is given. */
export function insertAt(items: PlannedItem[], item: PlannedItem, position?: number | null): PlannedItem[] {
  const next = [...items];
  next.splice(
    position === undefined || position === null ? next.length : clamp(position, next.length),
    0,
    item,
  );
  return next;
}

/**
 * Patch one item the way AYON does: attrib and data merge (null removes a key), label, tags and entityId replace.
 * A position moves the item there; the others close the gap and make room.
 */
export function patchItem(
  items: PlannedItem[],
  id: string,
  patch: ItemPatch,
  listLabel: string,
): PlannedItem[] {
  const at = indexOf(items, id, listLabel);
  const patched = applyFields(items[at], patch);
  const next = [...items];
  next[at] = patched;
  if (patch.position === undefined || patch.position === null) return next;
  next.splice(at, 1);
  next.splice(clamp(patch.position, next.length), 0, patched);
  return next;
}

/** The list without one item; the items after it move up. */
export function removeItem(items: PlannedItem[], id: string, listLabel: string): PlannedItem[] {
  const at = indexOf(items, id, listLabel);
  return [...items.slice(0, at), ...items.slice(at + 1)];
}

function applyFields(item: PlannedItem, patch: ItemPatch | MultiPatchItem): PlannedItem {
  return {
    ...item,
    entityId: patch.entityId ?? item.entityId,
    label: patch.label !== undefined ? patch.label : item.label,
    attrib: patch.attrib ? mergePatch(item.attrib, patch.attrib) : item.attrib,
    data: patch.data ? mergePatch(item.data, patch.data) : item.data,
    tags: patch.tags ?? item.tags,
    changed: true,
  };
}

function requireEntityIds(payload: MultiPatchItem[], needs: (item: MultiPatchItem) => boolean, why: string) {
  const problems: Problem[] = [];
  payload.forEach((item, i) => {
    if (needs(item) && !item.entityId)
      problems.push({ loc: ['body', 'items', i, 'entityId'], msg: why, type: 'missing' });
  });
  if (problems.length) throw new ValidationFailed(problems, `Validation error: ${problems[0].msg}`);
}

function refuseRepeatedIds(payload: { id?: string | null }[], loc: (i: number) => (string | number)[]) {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  payload.forEach((item, i) => {
    if (!item.id) return;
    if (seen.has(item.id))
      problems.push({
        loc: loc(i),
        msg: `item ${item.id} is given more than once`,
        type: 'value_error.duplicate',
      });
    seen.add(item.id);
  });
  if (problems.length) throw new ValidationFailed(problems, `Validation error: ${problems[0].msg}`);
}

/** Items of a create body, in the order given (AYON ignores their positions there). */
export function itemsOfNewList(payload: ItemCreate[]): PlannedItem[] {
  refuseRepeatedIds(payload, (i) => ['body', 'items', i, 'id']);
  return payload.map((input) => newItem(input, input.entityId));
}

/**
 * Multi-patch "replace": the list becomes exactly these items in this order. An item whose id is already in the
 * list keeps its identity (and creation time) but takes the content given, as if written anew.
 */
export function planReplace(current: PlannedItem[], payload: MultiPatchItem[]): PlannedItem[] {
  requireEntityIds(payload, () => true, 'entityId is required in replace mode');
  refuseRepeatedIds(payload, (i) => ['body', 'items', i, 'id']);
  const stored = new Set(current.map((item) => item.id));
  return payload.map((input) => {
    const item = newItem(input, input.entityId as string);
    return input.id && stored.has(input.id) ? { ...item, isNew: false } : item;
  });
}

/**
 * Multi-patch "merge": items with a known id are patched as PATCH of one item does; others are added. An item
 * keeps its place unless it names a position; new items without one go to the end. Items that name positions are
 * placed last, in the order of those positions, so each lands where it asked when the positions allow it.
 */
export function planMerge(current: PlannedItem[], payload: MultiPatchItem[]): PlannedItem[] {
  const stored = new Set(current.map((item) => item.id));
  requireEntityIds(
    payload,
    (input) => !input.id || !stored.has(input.id),
    'entityId is required for an item the list does not hold yet',
  );
  // Indexed by id, so a payload of any length is planned in one pass.
  const items = [...current];
  const at = new Map(items.map((item, index) => [item.id, index]));
  // The same item named twice goes where it was last asked to go.
  const placed = new Map<string, { position: number; order: number }>();
  payload.forEach((input, order) => {
    let id: string;
    const index = input.id === undefined || input.id === null ? undefined : at.get(input.id);
    if (index !== undefined) {
      id = items[index].id;
      items[index] = applyFields(items[index], input);
    } else {
      const item = newItem(input, input.entityId as string);
      id = item.id;
      at.set(id, items.push(item) - 1);
    }
    if (input.position !== undefined && input.position !== null) {
      placed.delete(id);
      placed.set(id, { position: input.position, order });
    }
  });
  if (!placed.size) return items;
  const rest = items.filter((item) => !placed.has(item.id));
  const moves = [...placed].sort(([, a], [, b]) => a.position - b.position || a.order - b.order);
  for (const [id, { position }] of moves) rest.splice(clamp(position, rest.length), 0, items[at.get(id)!]);
  return rest;
}

/** Multi-patch "delete": the items with these ids go (items given without an id are skipped, as AYON does). */
export function planDelete(
  current: PlannedItem[],
  payload: MultiPatchItem[],
  listLabel: string,
): PlannedItem[] {
  const held = new Set(current.map((item) => item.id));
  const gone = new Set<string>();
  for (const input of payload) {
    if (!input.id) continue;
    if (!held.has(input.id) || gone.has(input.id))
      throw new NotFound(`Item ${input.id} not found in list ${listLabel}`);
    gone.add(input.id);
  }
  return current.filter((item) => !gone.has(item.id));
}

/** A new order of every item; the ids must be exactly the list's items, each once. */
export function planOrder(current: PlannedItem[], order: string[]): PlannedItem[] {
  const byId = new Map(current.map((item) => [item.id, item]));
  const unique = new Set(order);
  if (unique.size !== order.length || unique.size !== byId.size || order.some((id) => !byId.has(id)))
    throw new BadRequest('The list of item IDs must be the same as the current items in the list');
  return order.map((id) => byId.get(id) as PlannedItem);
}
