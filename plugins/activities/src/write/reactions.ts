import { NotFound, type EventInput } from '@pipewright/sdk';
import { activityEvent } from '../notifications.js';
import type { WriteDeps } from './prepared.js';

interface Reaction {
  reaction: string;
  userName: string;
}

/** One user's reaction added or taken back; fullName is shown with an added one. */
export interface ReactionChange extends Reaction {
  action: 'add' | 'remove';
  fullName: unknown;
}

/**
 * Apply a reaction to the locked activity; each user has each reaction at most once. A reaction is not an edit:
 * its event is not stored. No events when nothing changed.
 */
export async function writeReaction(
  { store }: WriteDeps,
  projectName: string,
  id: string,
  change: ReactionChange,
): Promise<EventInput[]> {
  const row = await store.get(projectName, id, true);
  if (!row) throw new NotFound(`Activity ${id} not found`);
  const reactions = (row.data.reactions ?? []) as Reaction[];
  const mine = (r: Reaction) => r.reaction === change.reaction && r.userName === change.userName;
  let next = reactions;
  if (change.action === 'add' && !reactions.some(mine)) {
    const { reaction, userName, fullName } = change;
    next = [...reactions, { reaction, userName, fullName, timestamp: new Date().toISOString() } as Reaction];
  }
  if (change.action === 'remove') next = reactions.filter((r) => !mine(r));
  if (next === reactions || next.length === reactions.length) return [];
  await store.setData(projectName, id, { ...row.data, reactions: next });
  const references = await store.references(projectName, id);
  const activity = { id, type: row.activity_type, body: row.body };
  return [activityEvent('updated', projectName, activity, references, change.userName, false)];
}
