import { Forbidden, NotFound } from '@pipewright/sdk';
import type { AttachedFile } from '../attachments.js';
import { hasChecklist, onlyCheckboxesChanged } from '../markdown.js';
import { activityEvent, inboxMessages } from '../notifications.js';
import type { ActivityRow } from '../store.js';
import type { ActivityPatch, PreparedUpdate, WriteDeps, WriteResult } from './prepared.js';
import { clientData, isAdmin } from './rules.js';

const filesOf = (row: ActivityRow) => (row.data.files ?? []) as AttachedFile[];

/** The patch as the caller may make it: others may tick the author's checklist, nothing more. */
function allowedPatch(
  p: PreparedUpdate,
  row: ActivityRow,
): { patch: ActivityPatch; files: AttachedFile[] | null } {
  if (row.data.author === p.caller.name || isAdmin(p.caller)) return { patch: p.patch, files: p.files };
  // Other fields they send are ignored, as AYON does.
  if (p.patch.body !== undefined && !onlyCheckboxesChanged(row.body, p.patch.body))
    throw new Forbidden('Only the author changes this activity; others may only tick its checkboxes');
  return { patch: { body: p.patch.body }, files: null };
}

/** Edit an activity (decided against the stored one), its mentions and files; tells newly mentioned users. */
export async function writeUpdate(
  { store, attachments }: WriteDeps,
  p: PreparedUpdate,
): Promise<WriteResult> {
  const row = await store.get(p.projectName, p.id, true);
  if (!row) throw new NotFound(`Activity ${p.id} not found`);
  const { patch, files } = allowedPatch(p, row);
  const body = patch.body ?? row.body;
  const data: Record<string, unknown> = { ...row.data, ...clientData(patch.data) };
  delete data.hasChecklist;
  if (row.activity_type === 'comment' && hasChecklist(body)) data.hasChecklist = true;
  const before = filesOf(row).map((file) => file.id);
  let fileIds = before;
  if (files) {
    const kept = patch.appendFiles ? filesOf(row).filter((file) => !files.some((f) => f.id === file.id)) : [];
    const list = [...kept, ...files];
    fileIds = list.map((file) => file.id);
    if (list.length) data.files = list;
    else delete data.files;
  }
  await store.update(p.projectName, p.id, { body, tags: patch.tags ?? row.tags, data });

  let newlyMentioned: string[] = [];
  if (p.mentions && patch.body !== undefined) {
    const origin = row.data.origin as { id: string };
    const author = row.data.author as string | undefined;
    const users = p.mentions.users.filter((name) => name !== author);
    const entities = p.mentions.entities.filter((entity) => entity.id !== origin.id);
    await store.dropMentions(p.projectName, p.id, {
      users,
      entityIds: entities.map((entity) => entity.id),
    });
    newlyMentioned = await store.mentionUsers(p.projectName, p.id, users);
    await store.mentionEntities(p.projectName, p.id, entities);
  }
  if (files) await attachments.link(p.projectName, p.id, fileIds, before);

  const references = await store.references(p.projectName, p.id);
  const activity = { id: p.id, type: row.activity_type, body };
  return {
    id: p.id,
    events: [
      activityEvent('updated', p.projectName, activity, references, p.caller.name),
      ...inboxMessages(
        p.projectName,
        activity,
        newlyMentioned.map((name) => ({ name, referenceType: 'mention' })),
        (row.data.author as string | undefined) ?? null,
      ),
    ],
  };
}
