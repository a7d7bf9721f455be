import { useCallback, useEffect, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { statusOf } from '@pipewright/sdk/ui';
import { sessionClient, setSessionExpiredListener, setToken, type ServerInfo, type User } from '../api';
import { Layout } from './Layout';
import { Login } from './Login';
import { Onboarding } from './Onboarding';

type State =
  | { kind: 'loading' }
  | { kind: 'unreachable'; error: string }
  | { kind: 'onboarding'; info: ServerInfo }
  | { kind: 'login'; info: ServerInfo; message?: string }
  | { kind: 'app'; info: ServerInfo; user: User };

/** Decides which of the three faces the app shows: onboarding, login, or the shell with its screens. */
export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  // One client per session: a new login gets a new one, so screens never mix two sessions' answers.
  const [client, setClient] = useState<PipewrightClient>(sessionClient);

  const start = useCallback(async (session: PipewrightClient, message?: string) => {
    try {
      const info = await session.GET('/api/info');
      if (info.noAdminUser) return setState({ kind: 'onboarding', info });
      if (!session.token) return setState({ kind: 'login', info, message });
      // A stale token answers 401 here, and the expiry listener takes the user to the login page.
      const user = (await session.GET('/api/users/me')) as User;
      setState({ kind: 'app', info, user });
    } catch (error) {
      // A 401 was already handled by the expiry listener.
      if (statusOf(error) === 401) return;
      setState({ kind: 'unreachable', error: (error as Error).message });
    }
  }, []);

  useEffect(() => {
    setSessionExpiredListener(() => {
      setClient(sessionClient());
      setState((current) => ({
        kind: 'login',
        info: 'info' in current ? current.info : { motd: null, version: '', noAdminUser: false },
        message: 'Your session has ended. Please log in again.',
      }));
    });
    // The first session only: later ones start where they begin (login, logout, expiry).
    void start(client);
  }, [start]);

  const begin = (message?: string) => {
    const session = sessionClient();
    setClient(session);
    void start(session, message);
  };

  const loggedIn = (answer: { token: string }) => {
    setToken(answer.token);
    begin();
  };

  const logout = async () => {
    // The server forgets the session; even if that call fails, this browser forgets the token.
    await client.logout().catch(() => undefined);
    setToken(null);
    begin('You are logged out.');
  };

  switch (state.kind) {
    case 'loading':
      return <div className="centered muted">Loading…</div>;
    case 'unreachable':
      return (
        <div className="centered">
          <div className="error-box" role="alert">
            The server did not answer: {state.error}. Check that it runs, then reload this page.
          </div>
        </div>
      );
    case 'onboarding':
      return <Onboarding client={client} onDone={loggedIn} />;
    case 'login':
      return <Login client={client} info={state.info} message={state.message} onDone={loggedIn} />;
    case 'app':
      return <Layout client={client} user={state.user} onLogout={logout} />;
  }
}
