// The screen's calls to the server: the web app's session token on every request, and failures as ApiError
// carrying the server's sentence and, for a 422, each problem with its location so forms can mark the field.

/** One problem of a 422 answer: where (["body", "statuses", 2, "color"]) and what. */
export interface Problem {
  loc: (string | number)[];
  msg: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }
}

export type Api = <T = unknown>(path: string, init?: { method?: string; body?: unknown }) => Promise<T>;

/** A call function bound to the session token the shell hands the screen. */
export function apiWith(token: string): Api {
  return async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok) throw await errorFrom(response);
    if (response.status === 204) return undefined as T;
    const type = response.headers.get('content-type') ?? '';
    return (type.includes('json') ? await response.json() : await response.text()) as T;
  };
}

async function errorFrom(response: Response): Promise<ApiError> {
  let detail = `${response.status} ${response.statusText}`;
  let problems: Problem[] = [];
  try {
    const body = await response.json();
    if (typeof body?.detail === 'string') detail = body.detail;
    if (Array.isArray(body?.errors)) problems = body.errors;
  } catch {
    // Not JSON (a proxy's error page): the status line is all there is.
  }
  return new ApiError(response.status, detail, problems);
}

/** A failure as a sentence for the screen. */
export function describe(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}
