import type { PipewrightClient } from '../client/index.js';
import { apiErrorFor } from '../client/errors.js';

// An addon's own routes (/api/addons/{name}/{version}/...) are not among the client's typed paths. They still go
// through the client's underlying fetch client, so they carry the session's credentials and a 401 ends the
// session in the web app like any other call.

/** How to call a route the typed paths do not list. */
export interface RouteInit {
  /** GET unless given. */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; a Blob or File is sent as it is, with its own type (or contentType). */
  body?: unknown;
  /** The body's media type when it is sent as it is, e.g. "application/zip". */
  contentType?: string;
  /** More request headers (x-file-name for an upload, say). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** How to read the answer: JSON unless given; a Blob for a file to save or show. */
  parseAs?: 'json' | 'blob' | 'text';
}

type UntypedRequest = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Call a route outside the typed paths (an addon's own routes) as the screen's user; resolves to the JSON answer
 * (undefined for an empty one), or a Blob or text as parseAs asks, and throws the client's ApiError for an error answer, like the typed calls.
 */
export async function callRoute<T = unknown>(
  client: PipewrightClient,
  path: string,
  { method = 'GET', body, contentType, headers = {}, signal, parseAs = 'json' }: RouteInit = {},
): Promise<T> {
  const raw = typeof Blob !== 'undefined' && body instanceof Blob;
  const request = client.fetchClient.request as unknown as UntypedRequest;
  const { data, error, response } = await request(method.toLowerCase(), path, {
    body,
    signal,
    parseAs,
    headers: raw
      ? { 'content-type': contentType || (body as Blob).type || 'application/octet-stream', ...headers }
      : headers,
    ...(raw ? { bodySerializer: (value: unknown) => value } : {}),
  });
  if (!response.ok)
    throw apiErrorFor({ status: response.status, method, url: response.url || path, body: error });
  return data as T;
}

/** Save content as the browser saves a download, under a file name. */
export function saveBlob(blob: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
