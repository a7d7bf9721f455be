import { useState } from 'react';
import { ErrorBox, Table, useClient, useLoaded } from '@pipewright/sdk/ui';
import { CreateProjectForm } from './CreateProjectForm';
import { chooseProject, go } from './location';

/** Every project of the studio (archived ones too, marked), with the form that creates a new one. */
export function ProjectList({ basePath, canManage }: { basePath: string; canManage: boolean }) {
  const client = useClient();
  const listed = useLoaded(
    () =>
      client.GET('/api/projects', { params: { query: { order: 'name' } } }).then((answer) => answer.projects),
    [client],
  );
  const projects = listed.data;
  const error = listed.error;
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [search, setSearch] = useState('');

  const onCreated = (name: string) => {
    setCreating(false);
    setCreated(name);
    listed.reload();
    // Whoever creates a project means to work in it next.
    chooseProject(name);
  };

  const shown = projects?.filter((p) => p.name.toLowerCase().includes(search.trim().toLowerCase())) ?? [];
  const formOpen = creating || (projects !== null && projects.length === 0 && canManage);

  return (
    <section className="pwp-list" aria-label="Projects">
      <header className="pw-header">
        <h1>Projects</h1>
        {projects && projects.length > 0 && <span className="muted">{projects.length} in this studio</span>}
        <span className="spacer" />
        {projects && projects.length > 5 && (
          <input
            type="search"
            aria-label="Find a project"
            placeholder="Find a project…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        )}
        {canManage && !formOpen && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New project
          </button>
        )}
      </header>

      {created && (
        <p className="notice" role="status">
          Project {created} is ready. It is the project you work in now (see the menu at the top).{' '}
          <a
            href={`${basePath}/${created}`}
            onClick={(e) => {
              e.preventDefault();
              go(`${basePath}/${created}`);
            }}
          >
            Review its settings
          </a>{' '}
          or start on its folders and tasks in the Overview.
        </p>
      )}
      <ErrorBox
        error={error && `The projects could not be listed: ${error}. Reload the page to try again.`}
      />

      {formOpen && (
        <CreateProjectForm
          taken={projects?.map((p) => p.name) ?? []}
          onCreated={onCreated}
          onCancel={projects && projects.length > 0 ? () => setCreating(false) : undefined}
        />
      )}

      {projects === null && !error && <p className="muted">Loading projects…</p>}
      {projects !== null && projects.length === 0 && (
        <div className="pw-empty">
          <strong>No projects yet.</strong>
          <p>
            {canManage
              ? 'Create the first one above: a name, a short code for file names, and the anatomy preset it starts from.'
              : 'Ask a manager to create one; it will appear here and in the project menu.'}
          </p>
        </div>
      )}
      {projects !== null && projects.length > 0 && (
        <Table label="Projects" columns={['Name', 'Code', 'Library', 'Active', 'Created']}>
          {shown.map((p) => (
            <tr key={p.name} className={p.active ? undefined : 'pw-dimmed'}>
              <td>
                <a
                  href={`${basePath}/${p.name}`}
                  onClick={(e) => {
                    e.preventDefault();
                    go(`${basePath}/${p.name}`);
                  }}
                >
                  {p.name}
                </a>
              </td>
              <td>
                <code>{p.code}</code>
              </td>
              <td>{p.library ? 'Library' : '—'}</td>
              <td>{p.active ? 'Active' : 'Archived'}</td>
              <td className="muted">{new Date(p.createdAt).toLocaleDateString()}</td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
                No project name contains “{search}”.
              </td>
            </tr>
          )}
        </Table>
      )}
    </section>
  );
}
