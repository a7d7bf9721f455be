import { useEffect, useState } from 'react';

// Thumbnails need the session token, which an <img src> cannot send: they are fetched, kept as object URLs (one
// per image, shared by every row that shows it) and handed to <img>. Only entities that have a thumbnail ask.
const cache = new Map<string, Promise<string | null>>();

function objectUrl(url: string, token: string): Promise<string | null> {
  let pending = cache.get(url);
  if (!pending) {
    pending = fetch(url, { headers: { authorization: `Bearer ${token}` } })
      .then(async (response) =>
        response.ok && response.status !== 204 ? URL.createObjectURL(await response.blob()) : null,
      )
      .catch(() => null);
    cache.set(url, pending);
  }
  return pending;
}

/** The thumbnail of a folder, task or version, or an empty frame while it loads or when there is none. */
export function Thumbnail({
  project,
  kind,
  id,
  thumbnailId,
  token,
  size = 'small',
}: {
  project: string;
  kind: 'folder' | 'task' | 'version';
  id: string;
  /** Part of the cache key: a new image gets a new id. */
  thumbnailId: string | null;
  token: string;
  size?: 'small' | 'large';
}) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!thumbnailId) return setSrc(null);
    let current = true;
    const url = `/api/projects/${encodeURIComponent(project)}/${kind}s/${id}/thumbnail?placeholder=none&v=${thumbnailId}`;
    void objectUrl(url, token).then((found) => current && setSrc(found));
    return () => {
      current = false;
    };
  }, [project, kind, id, thumbnailId, token]);
  const className = `pwo-thumb pwo-thumb-${size}`;
  return src ? (
    <img className={className} src={src} alt="" />
  ) : (
    <span className={className} aria-hidden="true" />
  );
}
