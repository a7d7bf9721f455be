import { useMemo } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { apiWith } from './api';
import { useSubPath } from './location';
import { ProjectList } from './ProjectList';
import { ProjectSettings } from './ProjectSettings';
import './projects.css';

/** The projects screen: the list with creation at its base path, one project's settings at {basePath}/{name}. */
export default function Projects({ token, user, basePath }: ScreenProps) {
  const api = useMemo(() => apiWith(token), [token]);
  const sub = useSubPath(basePath);
  const canManage = user.isAdmin || user.isManager;
  const projectName = sub ? decodeURIComponent(sub.split('/')[0]!) : null;
  return (
    <div className="pwp">
      {projectName ? (
        <ProjectSettings
          key={projectName}
          api={api}
          name={projectName}
          basePath={basePath}
          canManage={canManage}
        />
      ) : (
        <ProjectList api={api} basePath={basePath} canManage={canManage} />
      )}
    </div>
  );
}
