import type { EventInput, RequestUser, Sender } from '@pipewright/sdk';

// The entity.project.* events, each emitted by its change's own unit of work.

/** The event of a change to a project: created, changed or deleted. */
export function projectEvent(
  topic: string,
  project: string,
  caller: RequestUser,
  sender: Sender,
  summary: Record<string, unknown> = {},
): EventInput {
  return {
    topic,
    project,
    user: caller.name,
    sender: sender.sender,
    senderType: sender.senderType,
    summary: { name: project, ...summary },
    description: `${topic.split('.').pop()} project ${project}`,
  };
}
