import type { EventInput, RequestUser } from '@pipewright/sdk';

// The entity.project.* events, each emitted by its change's own unit of work.

/** The event of a change to a project: created, changed or deleted. */
export function projectEvent(
  topic: string,
  project: string,
  caller: RequestUser,
  summary: Record<string, unknown> = {},
): EventInput {
  return {
    topic,
    project,
    user: caller.name,
    summary: { name: project, ...summary },
    description: `${topic.split('.').pop()} project ${project}`,
  };
}
