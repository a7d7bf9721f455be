import { useEffect, useRef, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import { readPicture, type Picture } from './api';

// An <img src> cannot carry the session's Authorization header: pictures are read through the client and handed
// to <img> as object URLs. Thumbnails and stills are kept for the session (a file's bytes never change under its
// id, and the strip shows the same thumbnails again and again); a full image is released when it leaves the screen.
const kept = new Map<string, Promise<string>>();

const keyOf = (project: string, fileId: string, picture: Picture) =>
  `${project}/${fileId}/${picture.kind}/${picture.kind === 'still' ? picture.seconds : ''}`;

export interface PictureState {
  src: string | null;
  /** Why it could not be read, as a sentence; null while loading or when it loaded. */
  error: string | null;
}

/** A picture of a file as an object URL for <img>; null while it loads or when fileId is null. */
export function usePicture(
  client: PipewrightClient,
  project: string,
  fileId: string | null,
  picture: Picture,
): PictureState {
  const [state, setState] = useState<PictureState>({ src: null, error: null });
  const key = fileId ? keyOf(project, fileId, picture) : null;
  // What the key stands for, read when the key changes (a picture written inline is a new object every render).
  const asked = useRef({ project, fileId, picture });
  asked.current = { project, fileId, picture };
  useEffect(() => {
    setState({ src: null, error: null });
    const { project, fileId, picture } = asked.current;
    if (!fileId || !key) return;
    let current = true;
    const keep = picture.kind !== 'payload';
    let pending = keep ? kept.get(key) : undefined;
    if (!pending) {
      pending = readPicture(client, project, fileId, picture).then((blob) => URL.createObjectURL(blob));
      // A failure is not kept: the next look asks again (the server may have made the thumbnail meanwhile).
      if (keep) {
        kept.set(key, pending);
        pending.catch(() => kept.delete(key));
      }
    }
    let own: string | null = null;
    pending.then(
      (src) => {
        if (!keep) own = src;
        if (current) setState({ src, error: null });
        else if (!keep) URL.revokeObjectURL(src);
      },
      (failure) => current && setState({ src: null, error: messageOf(failure) }),
    );
    return () => {
      current = false;
      if (own) URL.revokeObjectURL(own);
    };
  }, [client, key]);
  return state;
}
