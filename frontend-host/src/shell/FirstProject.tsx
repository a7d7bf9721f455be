import { useClient, useLoaded } from '@pipewright/sdk/ui';
import type { AddonPage } from '../remotes';
import { navigate } from './router';

/**
 * Home's line about the project at work: the one chosen, else where to choose one, else (a studio without any
 * project yet) how to create the first.
 */
export function ProjectLine({ project, pages }: { project: string | null; pages: AddonPage[] }) {
  const client = useClient();
  // Read only while no project is chosen. Unknown (not read yet, or the read failed): the usual advice stands.
  const listed = useLoaded(
    () =>
      client.GET('/api/projects', { params: { query: { active: true } } }).then((answer) => answer.projects),
    [client],
    { enabled: !project },
  );
  const none = listed.data?.length === 0;

  if (project) return <p className="muted">Working in {project}.</p>;
  if (!none) return <p className="muted">Choose a project in the top bar to work in it.</p>;
  const projectsPage = pages.find((p) => p.addonName === 'projects');
  return (
    <p className="notice" role="status">
      There is no project yet.{' '}
      {projectsPage ? (
        <>
          <a
            href={projectsPage.path}
            onClick={(e) => {
              if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              navigate(projectsPage.path);
            }}
          >
            Create the first project
          </a>{' '}
          in {projectsPage.label}: it opens here at once, ready for its folders and tasks.
        </>
      ) : (
        'An administrator or a manager creates projects: ask one to set up the first.'
      )}
    </p>
  );
}
