import { useClient, useLoaded } from '@pipewright/sdk/ui';
import type { Project } from '../api';
import type { AddonPage } from '../remotes';
import { navigate } from './router';

/**
 * Shown in place of a project screen while no project is chosen: the projects to pick from, or, in a studio
 * with none yet, the way to the screen that creates one.
 */
export function ChooseProject({
  screen,
  pages,
  onChoose,
}: {
  screen: string;
  pages: AddonPage[];
  onChoose(name: string): void;
}) {
  const client = useClient();
  const listed = useLoaded(
    () =>
      client.GET('/api/projects', { params: { query: { active: true } } }).then((answer) => answer.projects),
    [client],
  );
  const projects: Project[] | null = listed.data;
  const error = listed.error;

  const projectsPage = pages.find((p) => p.addonName === 'projects');
  return (
    <section className="choose-project" aria-label="Choose a project">
      <h1>{screen}</h1>
      <p className="notice" role="status">
        {screen} works inside a project. Choose one here or in the project menu at the top.
      </p>
      {error && <p className="error-box">The projects could not be listed: {error}</p>}
      {projects && projects.length > 0 && (
        <ul className="project-choices">
          {projects.map((p) => (
            <li key={p.name}>
              <button type="button" onClick={() => onChoose(p.name)}>
                {p.name} <span className="muted">({p.code})</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {projects && projects.length === 0 && (
        <p className="muted">
          There are no active projects yet.{' '}
          {projectsPage ? (
            <a
              href={projectsPage.path}
              onClick={(e) => {
                e.preventDefault();
                navigate(projectsPage.path);
              }}
            >
              Create one in {projectsPage.label}.
            </a>
          ) : (
            'A manager can create one.'
          )}
        </p>
      )}
    </section>
  );
}
