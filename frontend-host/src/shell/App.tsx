import { useCallback, useEffect, useState } from 'react';
import { api, ApiError, getToken, setSessionExpiredListener, setToken, type LoginAnswer, type ServerInfo, type User } from '../api';
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

  const start = useCallback(async (message?: string) => {
    try {
      const info = await api<ServerInfo>('/api/info');
      if (info.noAdminUser) return setState({ kind: 'onboarding', info });
      if (!getToken()) return setState({ kind: 'login', info, message });
      // A stale token answers 401 here, and the expiry listener takes the user to the login page.
      const user = await api<User>('/api/users/me');
      setState({ kind: 'app', info, user });
    } catch (error) {
      // A 401 was already handled by the expiry listener.
      if (error instanceof ApiError && error.status === 401) return;
      setState({ kind: 'unreachable', error: (error as Error).message });
    }
  }, []);

  useEffect(() => {
    setSessionExpiredListener(() => {
      setState((current) => ({
        kind: 'login',
        info: 'info' in current ? current.info : { motd: null, version: '', noAdminUser: false },
        message: 'Your session has ended. Please log in again.',
      }));
    });
    void start();
  }, [start]);

  const loggedIn = (answer: LoginAnswer) => {
    setToken(answer.token);
    void start();
  };

  const logout = async () => {
    // The server forgets the session; even if that call fails, this browser forgets the token.
    await api('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
    setToken(null);
    void start('You are logged out.');
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
      return <Onboarding onDone={loggedIn} />;
    case 'login':
      return <Login info={state.info} message={state.message} onDone={loggedIn} />;
    case 'app':
      return <Layout user={state.user} onLogout={logout} />;
  }
}
