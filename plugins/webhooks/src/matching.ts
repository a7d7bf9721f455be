import type { StoredEvent } from '@pipewright/sdk';
import { allHold } from './conditions.js';
import type { WebhookRow } from './store.js';

// Which events a webhook wants: topics as globs over AYON's topic names ("entity.task.status_changed",
// "entity.*.attrib_changed", "entity.*"), where * stands for any run of characters; then, for entity events, the
// entity types it names, and for attribute changes the attributes it names; a project webhook only its project's;
// last, its conditions on the event (conditions.ts).

const globs = new Map<string, RegExp>();

function glob(pattern: string): RegExp {
  let regex = globs.get(pattern);
  if (!regex) {
    const body = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
    globs.set(pattern, (regex = new RegExp(`^${body.join('.*')}$`)));
  }
  return regex;
}

/** The attributes an attribute change event changed (its payload keeps both sets). */
function changedAttributes(event: StoredEvent): string[] {
  const before = (event.payload.oldValue ?? {}) as Record<string, unknown>;
  const after = (event.payload.newValue ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
}

export function wants(webhook: WebhookRow, event: StoredEvent): boolean {
  if (webhook.project_name && webhook.project_name !== event.project) return false;
  if (!webhook.topics.some((pattern) => glob(pattern).test(event.topic))) return false;
  const [scope, type, action] = event.topic.split('.');
  if (scope === 'entity') {
    if (webhook.entity_types.length && !webhook.entity_types.includes(type!)) return false;
    if (
      webhook.attributes.length &&
      action === 'attrib_changed' &&
      !changedAttributes(event).some((name) => webhook.attributes.includes(name))
    )
      return false;
  }
  return webhook.conditions.length === 0 || allHold(webhook.conditions, eventData(event, 'full'));
}

/** What a message says: a thin summary of the event, or everything it holds (full). */
export function messageBody(webhook: WebhookRow, event: StoredEvent): Record<string, unknown> {
  return { type: event.topic, timestamp: event.createdAt, data: eventData(event, webhook.payload) };
}

/** The data of a message about an event: its summary, and its payload when full. */
function eventData(event: StoredEvent, payload: 'thin' | 'full'): Record<string, unknown> {
  const data: Record<string, unknown> = {
    eventId: event.id,
    topic: event.topic,
    project: event.project,
    user: event.user,
    sender: event.sender,
    description: event.description,
    summary: event.summary,
    createdAt: event.createdAt,
  };
  if (payload === 'full') data.payload = event.payload;
  return data;
}

/** The order messages keep: one entity's in order; events about no entity each on their own. */
export const orderKey = (event: StoredEvent) => String(event.summary.entityId ?? event.id);
