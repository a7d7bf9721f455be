import { Forbidden, NotFound } from '@pipewright/sdk';
import type { AttachedFile } from '../attachments.js';
import { activityEvent } from '../notifications.js';
import type { ActivityRow } from '../store.js';
import type { PreparedDelete, WriteDeps, WriteResult } from './prepared.js';
import { isAdmin } from './rules.js';

/** Delete an activity: its author or an administrator. */
export async function writeDelete(deps: WriteDeps, p: PreparedDelete): Promise<WriteResult> {
  const row = await deps.store.get(p.projectName, p.id, true);
  if (!row) throw new NotFound(`Activity ${p.id} not found`);
  if (row.data.author !== p.caller.name && !isAdmin(p.caller))
    throw new Forbidden('Only the author or an administrator deletes an activity');
  return removeActivity(deps, p.projectName, row, p.caller.name);
}

/** Remove a stored activity and let its files go; the deleted event names what it referred to. */
export async function removeActivity(
  { store, attachments }: WriteDeps,
  projectName: string,
  row: ActivityRow,
  user: string | null,
): Promise<WriteResult> {
  const references = await store.references(projectName, row.id);
  const files = ((row.data.files ?? []) as AttachedFile[]).map((file) => file.id);
  await attachments.link(projectName, row.id, [], files);
  await store.remove(projectName, [row.id]);
  const activity = { id: row.id, type: row.activity_type, body: row.body };
  return { id: row.id, events: [activityEvent('deleted', projectName, activity, references, user)] };
}
