import { useEffect, useState } from 'react';
import { useClient } from '@pipewright/sdk/ui';
import type { PipewrightClient } from '@pipewright/sdk/client';

// An <img src> cannot send the session's credentials: thumbnails are read through the client, kept as object URLs
// (one per image, shared by every row that shows it) and handed to <img>. Only entities that have a thumbnail ask.
const cache = new Map<string, Promise<string | null>>();

type Kind = 'folder' | 'task' | 'version';

/** The image as a blob; a missing one (404 with placeholder=none) or any failure is simply no thumbnail. */
function readThumbnail(
  client: PipewrightClient,
  project: string,
  kind: Kind,
  id: string,
  thumbnailId: string,
) {
  // v is for the browser's cache only (the server ignores it): a new image gets a new address.
  const query = { placeholder: 'none' as const, v: thumbnailId };
  const init = { parseAs: 'blob' as const };
  const read =
    kind === 'folder'
      ? client.GET('/api/projects/{project_name}/folders/{folder_id}/thumbnail', {
          params: { path: { project_name: project, folder_id: id }, query },
          ...init,
        })
      : kind === 'task'
        ? client.GET('/api/projects/{project_name}/tasks/{task_id}/thumbnail', {
            params: { path: { project_name: project, task_id: id }, query },
            ...init,
          })
        : client.GET('/api/projects/{project_name}/versions/{version_id}/thumbnail', {
            params: { path: { project_name: project, version_id: id }, query },
            ...init,
          });
  return (read as Promise<Blob | undefined>).then(
    (blob) => (blob ? URL.createObjectURL(blob) : null),
    () => null,
  );
}

/** The thumbnail of a folder, task or version, or an empty frame while it loads or when there is none. */
export function Thumbnail({
  project,
  kind,
  id,
  thumbnailId,
  size = 'small',
}: {
  project: string;
  kind: Kind;
  id: string;
  /** Part of the cache key: a new image gets a new id. */
  thumbnailId: string | null;
  size?: 'small' | 'large';
}) {
  const client = useClient();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!thumbnailId) return setSrc(null);
    let current = true;
    const key = `${project}/${kind}/${id}/${thumbnailId}`;
    let pending = cache.get(key);
    if (!pending) cache.set(key, (pending = readThumbnail(client, project, kind, id, thumbnailId)));
    void pending.then((found) => current && setSrc(found));
    return () => {
      current = false;
    };
  }, [client, project, kind, id, thumbnailId]);
  const className = `pwo-thumb pwo-thumb-${size}`;
  return src ? (
    <img className={className} src={src} alt="" />
  ) : (
    <span className={className} aria-hidden="true" />
  );
}

/** A folder's or task's own thumbnail. */
export function EntityThumbnail({
  project,
  entity,
  size,
}: {
  project: string;
  entity: { kind: 'folder' | 'task'; id: string; thumbnailId: string | null };
  size?: 'small' | 'large';
}) {
  return (
    <Thumbnail
      project={project}
      kind={entity.kind}
      id={entity.id}
      thumbnailId={entity.thumbnailId}
      size={size}
    />
  );
}
