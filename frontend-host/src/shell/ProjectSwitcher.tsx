import { useState } from 'react';
import { useClient, useLoaded } from '@pipewright/sdk/ui';
import type { Project } from '../api';

const PROJECT_KEY = 'pipewright.project';

/** The project the screens work in, remembered so a reload stays in the same project. */
export function useCurrentProject(): [string | null, (name: string | null) => void] {
  const [project, setProject] = useState<string | null>(() => localStorage.getItem(PROJECT_KEY));
  const choose = (name: string | null) => {
    if (name) localStorage.setItem(PROJECT_KEY, name);
    else localStorage.removeItem(PROJECT_KEY);
    setProject(name);
  };
  return [project, choose];
}

/** The project menu of the top bar: the active projects, read again whenever it is opened. */
export function ProjectSwitcher({
  current,
  onChange,
}: {
  current: string | null;
  onChange(name: string | null): void;
}) {
  const client = useClient();
  // A project created or changed anywhere (the projects screen, a colleague, the API) shows up at once.
  const listed = useLoaded(
    () => client.GET('/api/projects').then((answer) => answer.projects.filter((p) => p.active)),
    [client],
    { live: { client, topics: ['entity.project'], project: null } },
  );
  const projects: Project[] | null = listed.data;
  const { error, reload: refresh } = listed;

  if (error)
    return (
      <span className="muted" title={error}>
        Projects unavailable
      </span>
    );
  if (!projects) return <span className="muted">Loading projects…</span>;
  // A remembered project that was deleted or archived since is not offered.
  const selected = projects.some((p) => p.name === current) ? current! : '';
  return (
    // Refreshed when opened, so a project a colleague just created shows up without a reload.
    <select
      aria-label="Project"
      value={selected}
      onFocus={() => void refresh()}
      onChange={(e) => onChange(e.target.value || null)}
    >
      <option value="">{projects.length ? 'Choose a project…' : 'No projects yet'}</option>
      {projects.map((p) => (
        <option key={p.name} value={p.name}>
          {p.name} ({p.code})
        </option>
      ))}
    </select>
  );
}
