import type { PipewrightClient } from '@pipewright/sdk/client';
import { deadlineOf, useLoaded, type Deadline } from '@pipewright/sdk/ui';
import './task-deadlines.css';

// My tasks marks late and near tasks by the rule the dashboard counts them by and the overview marks them by
// (sdk deadlines). The kanban's dueDate is the task's own end date only (as AYON answers it), so each task's
// end date in force, inherited from its folders or the project, is read from its project.

/** What My tasks shows; the deadline filters keep the tasks with that mark. */
export type Showing = 'all' | Deadline['kind'];

const ENDS = `query Ends($project: String!, $ids: [String!], $first: Int) { project(name: $project) {
  tasks(ids: $ids, first: $first) { edges { node { id attrib { endDate } } } } } }`;

interface Ends {
  project: { tasks: { edges: { node: { id: string; attrib: { endDate: string | null } } }[] } } | null;
}

/** Each listed task's end date in force, by task id; empty until read (the kanban's own dates stand in). */
export function useEndDates(
  client: PipewrightClient,
  tasks: { projectName: string; id: string }[] | null,
): Map<string, string | null> {
  const ends = useLoaded(() => readEnds(client, tasks ?? []), [client, tasks], { enabled: !!tasks?.length });
  return ends.data ?? NO_ENDS;
}

const NO_ENDS = new Map<string, string | null>();

/** The end dates in force of tasks, in one request per project; a project that cannot be read gives none. */
async function readEnds(client: PipewrightClient, tasks: { projectName: string; id: string }[]) {
  const byProject = new Map<string, string[]>();
  for (const task of tasks)
    byProject.set(task.projectName, [...(byProject.get(task.projectName) ?? []), task.id]);
  const lists = await Promise.all(
    [...byProject].map(([project, ids]) =>
      client
        .graphql<Ends>(ENDS, { project, ids, first: ids.length })
        .then(
          (data) => data.project?.tasks.edges.map((e) => [e.node.id, e.node.attrib.endDate] as const) ?? [],
        )
        .catch(() => []),
    ),
  );
  return new Map(lists.flat());
}

/** The deadline of a task by its end date in force (else its own) and its status's state. */
export const taskDeadline = (endDate: string | null | undefined, state: string | undefined) =>
  deadlineOf(endDate, state, Date.now());

/** "Overdue" or "Due soon", in colour, with how late or how near in its title. */
export function DueMark({ deadline }: { deadline: Deadline | null }) {
  if (!deadline) return null;
  const overdue = deadline.kind === 'overdue';
  return (
    <span
      className={`pw-due ${overdue ? 'pw-due-overdue' : 'pw-due-soon'}`}
      title={deadline.text.charAt(0).toUpperCase() + deadline.text.slice(1)}
    >
      {overdue ? 'Overdue' : 'Due soon'}
    </span>
  );
}
