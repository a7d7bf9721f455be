import { createClient, type PipewrightClient, type ResponseData } from '@pipewright/sdk/client';

// Every call to the server goes through a client of the sdk: the shell's own calls and, through ScreenProps.client,
// every screen's. Its fetch notices when the server no longer accepts the session.

const TOKEN_KEY = 'pipewright.token';

/** The session token this browser keeps, or null when nobody is logged in. */
function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

/** Keep (or, with null, forget) the session token. */
export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

type ExpiryListener = () => void;
let onSessionExpired: ExpiryListener = () => {};

/** The shell listens here so any 401, from the shell or any screen, returns the user to the login page. */
export function setSessionExpiredListener(listener: ExpiryListener): void {
  onSessionExpired = listener;
}

/**
 * fetch for the session's client. A 401 to a request that carried the current token means the session ended on
 * the server. Without a token a 401 is a wrong password on the login form; with an older token, an answer to a
 * request sent before the user logged in again, which must not end the new session.
 */
async function sessionFetch(request: Request): Promise<Response> {
  const sent = request.headers.get('authorization');
  const response = await fetch(request);
  const current = getToken();
  if (response.status === 401 && current && sent === `Bearer ${current}`) {
    setToken(null);
    onSessionExpired();
  }
  return response;
}

/** A client for the stored session (none: only public routes such as /api/info and login answer). */
export function sessionClient(): PipewrightClient {
  return createClient({ baseUrl: location.origin, token: getToken() ?? undefined, fetch: sessionFetch });
}

export type User = ResponseData<'get', '/api/users/me'> & {
  attrib: { fullName?: string | null };
  data: { isAdmin?: boolean; isManager?: boolean };
};
export type ServerInfo = ResponseData<'get', '/api/info'>;
export type Project = ResponseData<'get', '/api/projects'>['projects'][number];
export type LoginAnswer = ResponseData<'post', '/api/auth/login'>;
