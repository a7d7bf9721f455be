import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { useLoaded } from '@pipewright/sdk/ui';
import { gridAttributes, ROOT, type AttributeDef, type ProjectMeta } from '../model';
import { ProjectStore } from '../store/ProjectStore';

const NO_ATTRIBUTES: AttributeDef[] = [];

/** The project's settings (statuses, types) and the attributes the grid shows. */
async function readSettings(client: PipewrightClient, project: string) {
  const [projectMeta, list] = await Promise.all([
    client.GET('/api/projects/{project_name}', { params: { path: { project_name: project } } }),
    client.GET('/api/attributes'),
  ]);
  // The schema leaves the anatomy lists open ({[key]: unknown}); the overview reads the fields it knows.
  return {
    meta: projectMeta as unknown as ProjectMeta,
    attributes: gridAttributes(list.attributes as AttributeDef[]),
  };
}

/**
 * The project's settings (statuses, types), the attributes the grid shows and the store of its folders and tasks,
 * with the store's version: it moves, and the screen renders again, whenever the store changes.
 */
export function useProjectData(client: PipewrightClient, project: string) {
  const store = useMemo(() => new ProjectStore(client, project), [client, project]);
  const version = useSyncExternalStore(store.subscribe, store.getVersion);
  const settings = useLoaded(() => readSettings(client, project), [client, project]);
  // The store reads its rows itself: the top level first.
  useEffect(() => void store.loadChildren(ROOT), [store]);

  const meta = settings.data?.meta ?? null;
  const attributes = settings.data?.attributes ?? NO_ATTRIBUTES;
  return { store, version, meta, attributes, loadError: settings.error };
}
