import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from './errors.js';

/** Something a screen reads from the server, as it stands: the data, the failure, whether a read is under way. */
export interface Loaded<T> {
  /** The last data read, kept on screen while a new read is under way; null before the first arrives. */
  data: T | null;
  /** Why the last read failed, as a sentence; null when it succeeded. */
  error: string | null;
  loading: boolean;
  /** Read again (after a change the screen made). */
  reload(): void;
}

/**
 * Read something for the screen, again whenever `deps` change. Reading again keeps the old data on screen until
 * the new arrives, and an answer to a read that has been superseded is dropped.
 */
export function useLoaded<T>(read: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  // `read` is a new closure every render; deps say when it reads something else.
  const readRef = useRef(read);
  readRef.current = read;

  const reload = useCallback(() => {
    const mine = ++generation.current;
    setLoading(true);
    readRef
      .current()
      .then((value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(null);
      })
      .catch((failure: unknown) => mine === generation.current && setError(messageOf(failure)))
      .finally(() => mine === generation.current && setLoading(false));
  }, []);

  useEffect(reload, [reload, ...deps]);
  return { data, error, loading, reload };
}
