import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): void;
}

/** Read something for the screen; reading again keeps the old data on screen until the new arrives. */
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
      .catch((failure: Error) => mine === generation.current && setError(failure.message))
      .finally(() => mine === generation.current && setLoading(false));
  }, []);

  useEffect(reload, [reload, ...deps]);
  return { data, error, loading, reload };
}
