import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, exposedScreen, NoProjectChosen, Panel, useLoaded } from '@pipewright/sdk/ui';
import { ActivityChart } from './ActivityChart';
import { follow, links } from './links';
import { ACTIVITY_DAYS, formatBytes, readDashboard, statusRows, type DashboardData } from './dashboard';
import './dashboard.css';

// The project dashboard: how big the project is, how its tasks are going, who works on it and how busy it has
// been lately. Everything comes from the dashboard addon's routes; nothing here changes the project.

export default exposedScreen(function Dashboard(props: ScreenProps) {
  if (!props.project) return <NoProjectChosen title="Dashboard" purpose="see its dashboard" />;
  return <ProjectDashboard {...props} project={props.project} />;
});

/** How long after a change the figures are read again: a burst of changes (a batch of 200 folders) is one read. */
const SETTLE_MS = 1500;

function ProjectDashboard({ client, project }: ScreenProps & { project: string }) {
  // Read again when the project's folders, tasks, products or versions change, anywhere; the project's own record
  // (entity.project.*) changes no figure here.
  const loaded = useLoaded(() => readDashboard(client, project), [client, project], {
    live: {
      client,
      topics: ['entity.'],
      project,
      when: (event) => !event.topic.startsWith('entity.project.'),
      settleMs: SETTLE_MS,
    },
  });
  const { data } = loaded;
  return (
    <section className="pw-screen pwd-screen" aria-label={`Dashboard of ${project}`}>
      <header className="pw-header">
        <h1>Dashboard</h1>
        <span className="muted">{project}</span>
        <span className="pw-grow" />
        {loaded.loading && data && <span className="muted">Reading…</span>}
        <button type="button" onClick={loaded.reload} disabled={loaded.loading}>
          Refresh
        </button>
      </header>
      <ErrorBox error={loaded.error && `The dashboard could not be read: ${loaded.error}`} />
      {!data && loaded.loading && <p className="muted">Reading the dashboard of {project}…</p>}
      {data && <Figures data={data} project={project} />}
    </section>
  );
}

/**
 * A number with what it counts, found by that name (a group labelled "Folders"); with `to`, a link to the screen
 * that lists what it counts.
 */
function Figure({
  label,
  value,
  tone,
  to,
}: {
  label: string;
  value: string | number;
  tone?: 'bad' | 'good';
  to?: string;
}) {
  const shown = typeof value === 'number' ? value.toLocaleString() : value;
  const body = (
    <>
      <strong className="pwd-value">{shown}</strong>
      <span className="pwd-label">{label}</span>
    </>
  );
  return (
    <div className={`pwd-figure${tone ? ` pwd-${tone}` : ''}`} role="group" aria-label={label}>
      {to ? (
        <a className="pwd-link" href={to} onClick={follow} aria-label={`${shown} ${label}`}>
          {body}
        </a>
      ) : (
        body
      )}
    </div>
  );
}

function Figures({ data, project }: { data: DashboardData; project: string }) {
  const { counts, health, people, activity, statuses } = data;
  const byStatus = statusRows(health, statuses);
  const most = Math.max(1, ...byStatus.map((row) => row.count));
  const roles = Object.entries(people.roles).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="pwd-grid">
      <Panel title="Entities" className="pwd-wide">
        <div className="pwd-figures">
          <Figure label="Folders" value={counts.folders} to={links.folders(project)} />
          <Figure label="Tasks" value={counts.tasks} to={links.tasks(project)} />
          <Figure label="Products" value={counts.products} to={links.versions(project)} />
          <Figure label="Versions" value={counts.versions} to={links.versions(project)} />
          <Figure label="Representations" value={counts.representations} />
          <Figure label="Workfiles" value={counts.workfiles} />
        </div>
      </Panel>

      <Panel title="Task health">
        <div className="pwd-completion">
          <progress
            className="pw-progress"
            max={100}
            value={health.completion.percentage}
            aria-label="Tasks completed"
          />
          <span>{health.completion.percentage}% of the tasks are done</span>
        </div>
        <div className="pwd-figures">
          <Figure label="Tasks in all" value={health.tasks.total} to={links.tasks(project)} />
          <Figure
            label="Completed"
            value={health.tasks.completed}
            tone="good"
            to={links.completed(project)}
          />
          <Figure
            label="Overdue"
            value={health.tasks.overdue}
            tone={health.tasks.overdue ? 'bad' : undefined}
            to={links.overdue(project)}
          />
        </div>
        {(health.completion.behind > 0 || health.completion.ahead > 0) && (
          <p className="muted">
            Unfinished tasks are {health.completion.behind.toLocaleString()} days behind their end dates in
            all; finished ones were {health.completion.ahead.toLocaleString()} days ahead.
          </p>
        )}
        {byStatus.length > 0 ? (
          <table className="pwd-statuses" aria-label="Tasks by status">
            <tbody>
              {byStatus.map((row) => (
                <tr key={row.name}>
                  <th scope="row">
                    <a href={links.status(project, row.name)} onClick={follow}>
                      {row.name}
                    </a>
                  </th>
                  <td className="pwd-bar-cell">
                    <span
                      className="pwd-bar"
                      style={{ width: `${(row.count / most) * 100}%`, background: row.color || undefined }}
                    />
                  </td>
                  <td className="pwd-count">{row.count.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">No tasks yet: their statuses show here once the project has some.</p>
        )}
      </Panel>

      <Panel title="People">
        <div className="pwd-figures">
          <Figure
            label="Team members"
            value={`${people.teamSizeActive} / ${people.teamSizeTotal}`}
            to={links.users(project)}
          />
          <Figure
            label="Users with access"
            value={`${people.usersWithAccessActive} / ${people.usersWithAccessTotal}`}
            to={links.users(project)}
          />
        </div>
        <p className="muted">Active of all: inactive users keep their place but cannot log in.</p>
        {roles.length > 0 && (
          <table className="pwd-statuses" aria-label="Users by access group">
            <tbody>
              {roles.map(([role, count]) => (
                <tr key={role}>
                  <th scope="row">{role}</th>
                  <td className="pwd-count">{count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>

      <Panel title="Storage">
        <Figure label="Storage used" value={formatBytes(health.storageUsage.used)} />
        <p className="muted">Uploads, attachments and reviewables of the project.</p>
      </Panel>

      <Panel title="Activity" className="pwd-wide">
        <ActivityChart days={activity} />
        <p className="muted">
          Changes to folders, tasks, products and versions per day over the last {ACTIVITY_DAYS} days, today
          at the right, the busiest day full height.{' '}
          <a href={links.activity(project)} onClick={follow}>
            See the changes
          </a>
        </p>
      </Panel>
    </div>
  );
}
