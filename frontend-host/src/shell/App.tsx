import { useCallback, useEffect, useRef, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { ClientProvider, statusOf } from '@pipewright/sdk/ui';
import { sessionClient, setSessionExpiredListener, setToken, type ServerInfo, type User } from '../api';
import { Layout } from './Layout';
import { Login } from './Login';
import { Onboarding } from './Onboarding';
import { ChooseNewPassword, ForgotPassword, RESET_PATH } from './PasswordReset';
import { GuestReview } from './GuestReview';
import { GUEST_PATH } from './guest-api';

type State =
  | { kind: 'loading' }
  | { kind: 'unreachable'; error: string }
  | { kind: 'onboarding'; info: ServerInfo }
  | { kind: 'login'; info: ServerInfo; message?: string }
  | { kind: 'forgot' }
  | { kind: 'reset'; token: string }
  | { kind: 'app'; info: ServerInfo; user: User };

/** The token of the password reset link this page was opened with, if it was. */
function resetToken(): string | null {
  return location.pathname === RESET_PATH ? new URLSearchParams(location.search).get('token') : null;
}

/** A guest link's page needs no login; everything else is the studio's app. */
export function App() {
  return location.pathname === GUEST_PATH ? <GuestReview /> : <StudioApp />;
}

/**
 * Decides which face the app shows: onboarding, login (or the way to a new password), or the shell with its
 * screens.
 */
function StudioApp() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  // One client per session: a new login gets a new one, so screens never mix two sessions' answers.
  const [client, setClient] = useState<PipewrightClient>(sessionClient);
  // The session the page was opened with, started once; later ones start where they begin (login, logout, expiry).
  const firstSession = useRef(client);

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
        info:
          'info' in current
            ? current.info
            : { version: '', noAdminUser: false, passwordRecoveryAvailable: false },
        message: 'Your session has ended. Please log in again.',
      }));
    });
    const token = resetToken();
    if (token) setState({ kind: 'reset', token });
    else void start(firstSession.current);
  }, [start]);

  const begin = (message?: string) => {
    // Off the reset link's address: the used token need not stay in the address bar or the history.
    if (location.pathname === RESET_PATH) history.replaceState(null, '', '/');
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

  // Every face reads the session's client through useClient.
  const face = () => {
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
        return (
          <Login
            info={state.info}
            message={state.message}
            onDone={loggedIn}
            onForgot={() => setState({ kind: 'forgot' })}
          />
        );
      case 'forgot':
        return <ForgotPassword onBack={() => begin()} />;
      case 'reset':
        return <ChooseNewPassword token={state.token} onDone={loggedIn} onBack={() => begin()} />;
      case 'app':
        return <Layout user={state.user} onLogout={logout} />;
    }
  };
  return <ClientProvider client={client}>{face()}</ClientProvider>;
}
