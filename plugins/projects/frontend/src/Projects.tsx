import type { ScreenProps } from '@pipewright/sdk/screen';
import { exposedScreen } from '@pipewright/sdk/ui';
import { useSubPath } from './location';
import { ProjectList } from './ProjectList';
import { ProjectSettings } from './ProjectSettings';
import './projects.css';

/** The projects screen: the list with creation at its base path, one project's settings at {basePath}/{name}. */
export default exposedScreen(function Projects({ user, basePath }: ScreenProps) {
  const sub = useSubPath(basePath);
  const canManage = user.isAdmin || user.isManager;
  const projectName = sub ? decodeURIComponent(sub.split('/')[0]!) : null;
  return (
    <div className="pwp">
      {projectName ? (
        <ProjectSettings key={projectName} name={projectName} basePath={basePath} canManage={canManage} />
      ) : (
        <ProjectList basePath={basePath} canManage={canManage} />
      )}
    </div>
  );
});
