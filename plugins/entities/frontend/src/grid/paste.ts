import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import { updateData, type CellChange } from './cells';
import type { Entity } from '../model';
import type { ProjectStore } from '../store/ProjectStore';
import type { PastedChanges } from './useCellCursor';

type Say = (notice: { kind: 'error' | 'info'; text: string }) => void;

/** The entity as it looks with a change applied, shown before the server answers. */
function changed(entity: Entity, change: CellChange): Partial<Entity> {
  const patch: Partial<Entity> = {};
  if (change.status !== undefined) patch.status = change.status;
  if (change.type !== undefined) patch.type = change.type;
  if (change.assignees !== undefined) patch.assignees = change.assignees;
  if (change.attrib) {
    const set = Object.entries(change.attrib).filter(([, value]) => value !== null);
    patch.attrib = { ...entity.attrib, ...Object.fromEntries(set) };
    patch.ownAttrib = [
      ...new Set([
        ...entity.ownAttrib.filter((name) => change.attrib![name] !== null),
        ...set.map(([n]) => n),
      ]),
    ];
  }
  return patch;
}

/**
 * Store a pasted block: every changed entity in one atomic /operations request (all cells or none), shown at once
 * and then read back with what their descendants inherit.
 */
export async function savePaste(
  client: PipewrightClient,
  project: string,
  store: ProjectStore,
  { changes, cells }: PastedChanges,
  say: Say,
): Promise<void> {
  const batch = client.operations(project);
  for (const { entity, change } of changes) {
    batch.update(entity.kind, entity.id, updateData(entity.kind, change));
    store.patch(entity.id, changed(entity, change));
  }
  try {
    const answer = await batch.commit();
    if (answer.success)
      say({ kind: 'info', text: `Pasted ${cells} cell${cells === 1 ? '' : 's'} on ${changes.length} rows.` });
    else {
      const failed = answer.operations.find((o) => !o.success);
      const who = changes.find((c) => c.entity.id === failed?.entityId)?.entity.name;
      say({
        kind: 'error',
        text: `Nothing pasted: ${who ? `${who}: ` : ''}${failed?.detail ?? 'the server refused the change'}.`,
      });
    }
  } catch (failure) {
    say({ kind: 'error', text: `Nothing pasted: ${messageOf(failure)}.` });
  }
  await store
    .refresh(store.subtrees(changes.map((c) => c.entity)))
    .catch((failure) => say({ kind: 'error', text: `Could not read the new values: ${messageOf(failure)}` }));
}
