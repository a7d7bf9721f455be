import type { ScreenUser } from '@pipewright/sdk/screen';
import type { Reviewable } from './api';

// The reviewables addon's rules for changes, as far as the screen can know them, so it offers only what the
// server would accept: managers change anything; others rename what they uploaded and reorder a version only
// when every reviewable in it is theirs. Publish rights on the version's folder come on top; the screen cannot
// see those, so a refusal for that reason is shown as the server words it.

const isManager = (user: ScreenUser) => user.isAdmin || user.isManager;

export const mayRename = (user: ScreenUser, reviewable: Reviewable) =>
  isManager(user) || reviewable.author.name === user.name;

export function reorderRule(user: ScreenUser, reviewables: Reviewable[]): { allowed: boolean; why?: string } {
  if (reviewables.length < 2) return { allowed: false };
  if (isManager(user) || reviewables.every((r) => r.author.name === user.name)) return { allowed: true };
  return { allowed: false, why: 'Only a manager can reorder reviewables that others uploaded.' };
}
