import type { EventInput } from '@pipewright/sdk';
import type { ReferenceInput, ReferenceRow } from './store.js';

// Activities that are bookkeeping rather than news: broadcast so open feeds refresh, never stored as events.
const UNTRACKED = new Set(['watch']);

/** What the server notes of a change (a status, an attribute): news to those concerned, never important. */
export const CHANGE_TYPES: readonly string[] = ['status.change', 'attrib.change'];

type AnyReference = Pick<ReferenceRow, 'reference_type' | 'entity_type' | 'entity_id'> | ReferenceInput;

function referenceSummary(references: AnyReference[]) {
  return references
    .map((ref) =>
      'referenceType' in ref
        ? { entity_id: ref.entityId ?? null, entity_type: ref.entityType, reference_type: ref.referenceType }
        : { entity_id: ref.entity_id, entity_type: ref.entity_type, reference_type: ref.reference_type },
    )
    .filter((ref) => ref.entity_id !== null);
}

/**
 * activity.created, activity.updated or activity.deleted. The summary keeps AYON's snake_case keys: its web app
 * reads summary.activity_id and summary.references[].entity_id to refresh the feeds that show the activity.
 */
export function activityEvent(
  action: 'created' | 'updated' | 'deleted',
  projectName: string,
  activity: { id: string; type: string; body: string },
  references: AnyReference[],
  user: string | null,
  store = true,
): EventInput {
  return {
    topic: `activity.${action}`,
    project: projectName,
    user,
    description: `${action[0].toUpperCase()}${action.slice(1)} ${activity.type} activity`,
    summary: {
      activity_id: activity.id,
      activity_type: activity.type,
      references: referenceSummary(references),
    },
    payload: { body: activity.body },
    store: store && !UNTRACKED.has(activity.type),
  };
}

/**
 * inbox.message for the users an activity addresses, broadcast only (the inbox itself is read from the
 * references): mentions and watchers are important, except for status changes; relations are not.
 */
export function inboxMessages(
  projectName: string,
  activity: { type: string; body: string },
  addressed: { name: string; referenceType: string }[],
  author: string | null,
): EventInput[] {
  const important: string[] = [];
  const normal: string[] = [];
  for (const { name, referenceType } of addressed) {
    if (name === author) continue;
    const isImportant =
      (referenceType === 'mention' || referenceType === 'watching') && !CHANGE_TYPES.includes(activity.type);
    (isImportant ? important : normal).push(name);
  }
  const description = activity.body.split('\n')[0];
  return [
    { recipients: important, summary: { isImportant: true } },
    { recipients: normal, summary: { isImportant: false } },
  ]
    .filter((message) => message.recipients.length > 0)
    .map((message) => ({
      topic: 'inbox.message',
      project: projectName,
      user: author,
      description,
      summary: message.summary,
      recipients: message.recipients,
      store: false,
    }));
}
