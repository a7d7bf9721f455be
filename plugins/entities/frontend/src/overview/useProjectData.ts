import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import { gridAttributes, ROOT, type AttributeDef, type ProjectMeta } from '../model';
import { ProjectStore } from '../store/ProjectStore';

/**
 * The project's settings (statuses, types), the attributes the grid shows and the store of its folders and tasks,
 * with the store's version: it moves, and the screen renders again, whenever the store changes.
 */
export function useProjectData(client: PipewrightClient, project: string) {
  const [meta, setMeta] = useState<ProjectMeta | null>(null);
  const [attributes, setAttributes] = useState<AttributeDef[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const store = useMemo(() => new ProjectStore(client, project), [client, project]);
  const version = useSyncExternalStore(store.subscribe, store.getVersion);

  useEffect(() => {
    Promise.all([
      client.GET('/api/projects/{project_name}', { params: { path: { project_name: project } } }),
      client.GET('/api/attributes'),
    ])
      .then(([projectMeta, list]) => {
        // The schema leaves the anatomy lists open ({[key]: unknown}); the overview reads the fields it knows.
        setMeta(projectMeta as unknown as ProjectMeta);
        setAttributes(gridAttributes(list.attributes as AttributeDef[]));
      })
      .catch((failure) => setLoadError(messageOf(failure)));
    void store.loadChildren(ROOT);
  }, [client, project, store]);

  return { store, version, meta, attributes, loadError };
}
