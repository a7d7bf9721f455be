import type { ScreenUser } from '@pipewright/sdk/screen';

// Calls to the server from this screen: the session token of the web app on every request, and the server's
// error shapes turned into one error type the screen can show. Kept small and local, so the screen depends on
// nothing but the HTTP API.

/** Where the shell keeps the session token; read when the shell does not pass the token in the props. */
const TOKEN_KEY = 'pipewright.token';

/** One problem of a 422 answer: where (loc) and what (msg). */
export interface Problem {
  loc: (string | number)[];
  msg: string;
  type?: string;
}

/** A refused request: the status, the server's sentence, and the 422 problems when there are any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }
}

/** The token the shell passed, else the one it stored (shells older than ScreenProps pass none). */
export function sessionToken(given: string | undefined | null): string | null {
  return given || localStorage.getItem(TOKEN_KEY);
}

async function errorOf(response: Response): Promise<ApiError> {
  let detail = `${response.status} ${response.statusText}`;
  let problems: Problem[] = [];
  try {
    const body = await response.json();
    if (typeof body?.detail === 'string') detail = body.detail;
    if (Array.isArray(body?.errors)) problems = body.errors;
  } catch {
    // Not JSON (a proxy's error page): the status line is all there is.
  }
  if (response.status === 401) detail = 'Your session has ended. Reload the page to log in again.';
  return new ApiError(response.status, detail, problems);
}

export interface Api {
  get<T>(path: string): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
  graphql<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
  readonly token: string | null;
}

/** An API client for one session token. */
export function createApi(token: string | null): Api {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw await errorOf(response);
    // 204 and some 201 answers have no body.
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return {
    token,
    get: (path) => call('GET', path),
    send: (method, path, body) => call(method, path, body),
    async graphql<T>(query: string, variables: Record<string, unknown> = {}) {
      const answer = await call<{ data: T | null; errors?: { message: string }[] }>('POST', '/graphql', {
        query,
        variables,
      });
      if (answer.errors?.length) throw new ApiError(422, answer.errors.map((e) => e.message).join('; '));
      return answer.data as T;
    },
  };
}

/** The logged-in user as the shell describes it, read from the server when the shell passed none. */
export async function currentUser(api: Api): Promise<ScreenUser> {
  const me = await api.get<{ name: string; data: { isAdmin?: boolean; isManager?: boolean } }>(
    '/api/users/me',
  );
  return { name: me.name, isAdmin: me.data.isAdmin === true, isManager: me.data.isManager === true };
}
