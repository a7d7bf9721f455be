import { useCallback, useEffect, useState } from 'react';
import { describe, type Api } from './api';
import { CreateProjectForm } from './CreateProjectForm';
import { go } from './location';

export interface ProjectSummary {
  name: string;
  code: string;
  active: boolean;
  library: boolean;
  createdAt: string;
}

/** Every project of the studio (archived ones too, marked), with the form that creates a new one. */
export function ProjectList({
  api,
  basePath,
  canManage,
}: {
  api: Api;
  basePath: string;
  canManage: boolean;
}) {
  const [projects, setProjects] = useState<ProjectSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [search, setSearch] = useState('');

  const load = useCallback(
    () =>
      api<{ projects: ProjectSummary[] }>('/api/projects?order=name')
        .then((answer) => {
          setProjects(answer.projects);
          setError(null);
        })
        .catch((failure) => setError(describe(failure))),
    [api],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const onCreated = (name: string) => {
    setCreating(false);
    setCreated(name);
    void load();
  };

  const shown = projects?.filter((p) => p.name.toLowerCase().includes(search.trim().toLowerCase())) ?? [];
  const formOpen = creating || (projects !== null && projects.length === 0 && canManage);

  return (
    <section className="pwp-list" aria-label="Projects">
      <header className="pwp-header">
        <h1>Projects</h1>
        {projects && projects.length > 0 && (
          <span className="pwp-muted">{projects.length} in this studio</span>
        )}
        <span className="pwp-spacer" />
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
        <p className="pwp-notice" role="status">
          Project {created} is ready.{' '}
          <a
            href={`${basePath}/${created}`}
            onClick={(e) => {
              e.preventDefault();
              go(`${basePath}/${created}`);
            }}
          >
            Review its settings
          </a>{' '}
          or choose it in the project menu at the top to start working in it.
        </p>
      )}
      {error && (
        <p className="pwp-error" role="alert">
          The projects could not be listed: {error}. Reload the page to try again.
        </p>
      )}

      {formOpen && (
        <CreateProjectForm
          api={api}
          taken={projects?.map((p) => p.name) ?? []}
          onCreated={onCreated}
          onCancel={projects && projects.length > 0 ? () => setCreating(false) : undefined}
        />
      )}

      {projects === null && !error && <p className="pwp-muted">Loading projects…</p>}
      {projects !== null && projects.length === 0 && (
        <div className="pwp-empty">
          <strong>No projects yet.</strong>
          <p>
            {canManage
              ? 'Create the first one above: a name, a short code for file names, and the anatomy preset it starts from.'
              : 'Ask a manager to create one; it will appear here and in the project menu.'}
          </p>
        </div>
      )}
      {projects !== null && projects.length > 0 && (
        <table className="pwp-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Code</th>
              <th>Library</th>
              <th>Active</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => (
              <tr key={p.name} className={p.active ? undefined : 'pwp-inactive'}>
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
                <td className="pwp-muted">{new Date(p.createdAt).toLocaleDateString()}</td>
              </tr>
            ))}
            {shown.length === 0 && (
              <tr>
                <td colSpan={5} className="pwp-muted">
                  No project name contains “{search}”.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
