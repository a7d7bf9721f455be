import { useEffect, useMemo, useState } from 'react';
import type { ScreenProps, ScreenUser } from '@pipewright/sdk/screen';
import { createApi, currentUser, sessionToken, type Api } from './api';

/** What the screen needs from the shell: an API client for the session and who is logged in. */
export interface Session {
  api: Api;
  /** Null while it is being read from the server (shells that pass no user). */
  user: ScreenUser | null;
  error: string | null;
}

/** The session from the screen's props, filling in what an older shell does not pass. */
export function useSession(props: Partial<ScreenProps>): Session {
  const token = sessionToken(props.token);
  const api = useMemo(() => createApi(token), [token]);
  const [fetched, setFetched] = useState<ScreenUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.user) return;
    currentUser(api)
      .then(setFetched)
      .catch((failure: Error) => setError(failure.message));
  }, [api, props.user]);
  return { api, user: props.user ?? fetched, error };
}
