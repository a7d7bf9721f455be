import type { Entity } from '../model';
import type { ProjectStore } from '../store/ProjectStore';

/** The folders and tasks an action applies to: the selection, else the focused row. */
export function chosenOf(selection: Set<string>, focused: Entity | null, store: ProjectStore): Entity[] {
  const picked = [...selection].map((id) => store.entities.get(id)).filter((e): e is Entity => !!e);
  return picked.length ? picked : focused ? [focused] : [];
}

/** Of those, the ones not inside another chosen folder (which takes them along anyway). */
export const outermost = (list: Entity[]) =>
  list.filter((e) => !list.some((o) => o !== e && o.kind === 'folder' && e.path.startsWith(`${o.path}/`)));

/** "sh010", or "3 entities". */
export const namedOrCounted = (entities: Entity[]) =>
  entities.length === 1 ? entities[0]!.name : `${entities.length} entities`;

/**
 * The entities an edit of this one applies to: with several rows selected, each selected one that `alike` accepts
 * (the same kind); else the entity alone.
 */
export function editTargets(
  entity: Entity,
  selection: Set<string>,
  store: ProjectStore,
  alike: (other: Entity) => boolean,
): Entity[] {
  if (!(selection.has(entity.id) && selection.size > 1)) return [entity];
  return [...selection].map((id) => store.entities.get(id)).filter((e): e is Entity => !!e && alike(e));
}
