// Every call to the server goes through here: it adds the session token and notices when the session is gone.

const TOKEN_KEY = 'pipewright.token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

type ExpiryListener = () => void;
let onSessionExpired: ExpiryListener = () => {};

/** The shell listens here so any 401, from any screen, returns the user to the login page. */
export function setSessionExpiredListener(listener: ExpiryListener): void {
  onSessionExpired = listener;
}

async function errorFrom(response: Response): Promise<ApiError> {
  let detail = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (typeof body?.detail === 'string') detail = body.detail;
  } catch {
    // Not JSON (a proxy's error page): the status line is all there is.
  }
  return new ApiError(response.status, detail);
}

/** Call the API; throws ApiError on a non-2xx answer. A 401 with a token means the session ended. */
export async function api<T = unknown>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) {
    const error = await errorFrom(response);
    // Without a token a 401 is just a wrong password on the login form, not an expired session.
    if (response.status === 401 && token) {
      setToken(null);
      onSessionExpired();
    }
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? await response.json() : await response.text()) as T;
}

export interface User {
  name: string;
  attrib?: { fullName?: string | null; email?: string | null };
  data?: { isAdmin?: boolean; isManager?: boolean };
}

export interface ServerInfo {
  motd: string | null;
  version: string;
  noAdminUser: boolean;
  onboarding?: boolean;
  user?: User;
}

export interface Project {
  name: string;
  code: string;
  active: boolean;
}

export interface FrontendModule {
  addonName: string;
  addonVersion: string;
  modules: Record<string, string[]>;
}

export interface LoginAnswer {
  detail: string;
  token: string;
  user: User;
}
