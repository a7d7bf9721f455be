import { useMemo, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { type Deadline, useClient, useLoaded } from '@pipewright/sdk/ui';
import type { User } from '../api';
import type { AddonPage } from '../remotes';
import { ProjectLine } from './FirstProject';
import { navigate } from './router';
import { DueMark, taskDeadline, useEndDates, type Showing } from './task-deadlines';

// Home: the tasks assigned to the logged-in user across every active project (AYON's kanban query answers exactly
// that), as a list or as a board with a column per status. A task opens in the overview of its project.

interface MyTask {
  projectName: string;
  id: string;
  name: string;
  label: string | null;
  status: string;
  taskType: string;
  folderPath: string;
  dueDate: string | null;
  priority: string | null;
}

interface Status {
  name: string;
  color?: string;
  state?: string;
}

const MY_TASKS = `query MyTasks($me: [String!]) { kanban(assigneesAny: $me) { edges { node {
  projectName id name label status taskType folderPath dueDate priority } } } }`;

const VIEW_KEY = 'pipewright.home.view';

const NO_STATUSES = new Map<string, Status[]>();

/** The tasks assigned to a user, with each of their projects' statuses (in its anatomy's order and colours). */
async function readMyTasks(client: PipewrightClient, me: string) {
  const data = await client.graphql<{ kanban: { edges: { node: MyTask }[] } }>(MY_TASKS, { me: [me] });
  const tasks = data.kanban.edges.map((e) => e.node);
  // Each project's statuses, for the board's columns.
  const names = [...new Set(tasks.map((t) => t.projectName))];
  const lists = await Promise.all(
    names.map((name) =>
      client
        .GET('/api/projects/{project_name}', { params: { path: { project_name: name } } })
        .then((p) => [name, (p.statuses ?? []) as unknown as Status[]] as const)
        .catch(() => [name, [] as Status[]] as const),
    ),
  );
  return { tasks, statuses: new Map(lists) };
}

/** Where a task opens: the overview of its project, showing it. */
const taskLink = (task: MyTask) =>
  `/addon/entities/overview_remote?${new URLSearchParams({ project: task.projectName, task: task.id })}`;

export function Home({ user, project, pages }: { user: User; project: string | null; pages: AddonPage[] }) {
  const client = useClient();
  const mine = useLoaded(() => readMyTasks(client, user.name), [client, user.name]);
  const tasks = mine.data?.tasks ?? null;
  const statuses = mine.data?.statuses ?? NO_STATUSES;
  const error = mine.error;
  const [view, setView] = useState<'list' | 'board'>(() =>
    localStorage.getItem(VIEW_KEY) === 'board' ? 'board' : 'list',
  );

  const [showing, setShowing] = useState<Showing>('all');
  const ends = useEndDates(client, tasks);
  // Each task with its deadline, by its end date in force and its status's state in its project.
  const marked = useMemo(
    () =>
      (tasks ?? []).map((task) => {
        const end = ends.has(task.id) ? (ends.get(task.id) ?? null) : task.dueDate;
        const state = statuses.get(task.projectName)?.find((s) => s.name === task.status)?.state;
        return { ...task, end, deadline: taskDeadline(end, state) };
      }),
    [tasks, ends, statuses],
  );
  const shown = showing === 'all' ? marked : marked.filter((t) => t.deadline?.kind === showing);

  const choose = (next: 'list' | 'board') => {
    setView(next);
    localStorage.setItem(VIEW_KEY, next);
  };

  return (
    <section className="home">
      <h1>Welcome, {user.attrib?.fullName || user.name}</h1>
      <ProjectLine project={project} pages={pages} />
      <div className="home-heading">
        <h2>My tasks</h2>
        {tasks && <span className="muted">{shown.length}</span>}
        <span className="spacer" />
        <select
          aria-label="Show my tasks"
          value={showing}
          onChange={(e) => setShowing(e.target.value as Showing)}
        >
          <option value="all">All my tasks</option>
          <option value="overdue">Overdue</option>
          <option value="due-soon">Due soon</option>
        </select>
        <div role="group" aria-label="Show my tasks as">
          <button type="button" aria-pressed={view === 'list'} onClick={() => choose('list')}>
            List
          </button>
          <button type="button" aria-pressed={view === 'board'} onClick={() => choose('board')}>
            Board
          </button>
        </div>
      </div>
      {error ? (
        <p className="error-box" role="alert">
          Your tasks could not be read: {error}
        </p>
      ) : !tasks ? (
        <p className="muted">Reading your tasks…</p>
      ) : tasks.length === 0 ? (
        <p className="muted">No task is assigned to you. Tasks show here once a coordinator assigns you.</p>
      ) : shown.length === 0 ? (
        <p className="muted">
          None of your tasks is {showing === 'overdue' ? 'overdue' : 'due soon'}.{' '}
          <button type="button" onClick={() => setShowing('all')}>
            Show all my tasks
          </button>
        </p>
      ) : view === 'list' ? (
        <TaskList tasks={shown} statuses={statuses} />
      ) : (
        <TaskBoard tasks={shown} statuses={statuses} />
      )}
    </section>
  );
}

const colorOf = (statuses: Map<string, Status[]>, task: MyTask) =>
  statuses.get(task.projectName)?.find((s) => s.name === task.status)?.color;

/** A task with its end date in force (its own or inherited) and its deadline mark. */
type MarkedTask = MyTask & { end: string | null; deadline: Deadline | null };

function TaskList({ tasks, statuses }: { tasks: MarkedTask[]; statuses: Map<string, Status[]> }) {
  return (
    <table className="home-tasks" aria-label="My tasks">
      <thead>
        <tr>
          <th>Task</th>
          <th>Project</th>
          <th>Folder</th>
          <th>Type</th>
          <th>Status</th>
          <th>Due</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((task) => (
          <tr key={`${task.projectName}/${task.id}`}>
            <td>
              <TaskLink task={task} />
            </td>
            <td>{task.projectName}</td>
            <td className="muted">{task.folderPath}</td>
            <td>{task.taskType}</td>
            <td>
              <span className="home-dot" style={{ background: colorOf(statuses, task) ?? 'var(--muted)' }} />
              {task.status}
            </td>
            <td>
              {task.end ? new Date(task.end).toLocaleDateString() : ''}
              <DueMark deadline={task.deadline} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A column per status, in the order of the projects' anatomies (statuses no anatomy lists go last). */
function TaskBoard({ tasks, statuses }: { tasks: MarkedTask[]; statuses: Map<string, Status[]> }) {
  const columns = useMemo(() => {
    const order = [...statuses.values()].flat().map((s) => s.name);
    const used = [...new Set(tasks.map((t) => t.status))];
    const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
    return used.sort((a, b) => rank(a) - rank(b));
  }, [tasks, statuses]);
  return (
    <div className="home-board" aria-label="My tasks by status">
      {columns.map((status) => {
        const cards = tasks.filter((t) => t.status === status);
        return (
          <section key={status} className="home-column" aria-label={status}>
            <h3>
              <span
                className="home-dot"
                style={{ background: colorOf(statuses, cards[0]!) ?? 'var(--muted)' }}
              />
              {status} <span className="muted">{cards.length}</span>
            </h3>
            <ul>
              {cards.map((task) => (
                <li key={`${task.projectName}/${task.id}`} className="home-card">
                  <TaskLink task={task} />
                  <DueMark deadline={task.deadline} />
                  <div className="muted">
                    {task.projectName} / {task.folderPath}
                  </div>
                  <div className="muted">{task.taskType}</div>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function TaskLink({ task }: { task: MyTask }) {
  const to = taskLink(task);
  return (
    <a
      href={to}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {task.label || task.name}
    </a>
  );
}
