import type { ChangedBy, EventInput } from '@pipewright/sdk';

type Json = Record<string, unknown>;

/**
 * The event of a change to a user, written by the change's own unit of work. Without `by` (seeding, the first
 * administrator) it names no author.
 */
export function userEvent(topic: string, userName: string, by?: ChangedBy, summary: Json = {}): EventInput {
  return {
    topic,
    user: by?.user ?? null,
    sender: by?.sender.sender ?? null,
    senderType: by?.sender.senderType ?? null,
    description: `${topic.split('.')[1]} ${userName}`,
    summary: { userName, ...summary },
  };
}
