import { roleOf, type UserRecord } from './routes';

// What a user reaches, in one glance: admins and managers are not limited by access groups at all, which the
// access table alone would not tell (it shows no groups for them); everyone else reaches only their projects.

function headline(user: UserRecord): string {
  switch (roleOf(user)) {
    case 'admin':
      return 'Administrator: sees every project and may do everything, studio settings, addons and users included.';
    case 'service':
      return 'Service user: sees every project and may do everything, for the pipeline tools that log in as it.';
    case 'manager':
      return (
        'Manager: managers see every project and may change everything in them; access groups do not limit ' +
        'them. Only administrators publish versions on behalf of other authors.'
      );
    case 'guest':
      return 'Guest: sees only the projects below, with what their access groups allow.';
    default:
      return 'User: sees only the projects below, with what their access groups allow.';
  }
}

/** A short summary of a user's access, above the editor's sections. */
export function AccessSummary({ user }: { user: UserRecord }) {
  const role = roleOf(user);
  const limited = role === 'user' || role === 'guest';
  const projects = Object.entries(user.data.accessGroups ?? {}).filter(([, groups]) => groups.length > 0);
  return (
    <section className="pw-group us-section" aria-label="Access summary">
      <p>{headline(user)}</p>
      {limited &&
        (projects.length ? (
          <ul className="us-summary">
            {projects.map(([project, groups]) => (
              <li key={project}>
                {project}: {groups.join(', ')}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No project yet: nothing is visible until access groups are given in one.</p>
        ))}
    </section>
  );
}
