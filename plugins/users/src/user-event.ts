import type { EventInput } from '@pipewright/sdk';

type Json = Record<string, unknown>;

/** Who made a change to a user; the client they made it from travels with the request (currentSender). */
export interface ChangedBy {
  user: string;
}

/**
 * The event of a change to a user, written by the change's own unit of work. Without `by` (seeding, the first
 * administrator) it names no author.
 */
export function userEvent(topic: string, userName: string, by?: ChangedBy, summary: Json = {}): EventInput {
  return {
    topic,
    user: by?.user ?? null,
    description: `${topic.split('.')[1]} ${userName}`,
    summary: { userName, ...summary },
  };
}
