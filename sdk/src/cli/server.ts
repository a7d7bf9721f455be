import { CliError } from './addon-folder.js';

// How the CLI reaches a server: flags first, then the environment variables the docs use.

export interface ServerOptions {
  /** Base URL, e.g. http://127.0.0.1:5000 (flag --server or PIPEWRIGHT_URL). */
  url: string;
  /** A session token (--token or PIPEWRIGHT_TOKEN) or an API key (--api-key or PIPEWRIGHT_API_KEY). */
  headers: Record<string, string>;
}

/** The server and credentials from flags and environment; an error says what is missing. */
export function serverFromOptions(
  flags: { server?: string; token?: string; 'api-key'?: string },
  env: NodeJS.ProcessEnv = process.env,
): ServerOptions {
  const url = flags.server ?? env.PIPEWRIGHT_URL;
  if (!url) throw new CliError('Which server? Give --server https://... or set PIPEWRIGHT_URL');
  const apiKey = flags['api-key'] ?? env.PIPEWRIGHT_API_KEY;
  const token = flags.token ?? env.PIPEWRIGHT_TOKEN;
  if (!apiKey && !token)
    throw new CliError(
      'An administrator must upload addons: give --api-key or --token (or set PIPEWRIGHT_API_KEY or PIPEWRIGHT_TOKEN)',
    );
  const headers: Record<string, string> = apiKey
    ? { 'x-api-key': apiKey }
    : { authorization: `Bearer ${token}` };
  return { url: url.replace(/\/+$/, ''), headers };
}

/** Call the server and parse its JSON answer; a non-2xx answer becomes a CliError with the server's reason. */
export async function callServer<T>(server: ServerOptions, path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { ...server.headers, ...(init.headers as Record<string, string> | undefined) },
    });
  } catch (error) {
    throw new CliError(
      `${server.url} could not be reached: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`,
    );
  }
  const text = await response.text();
  const body = text ? JSON.parse(text) : null;
  if (!response.ok)
    throw new CliError(
      `${init.method ?? 'GET'} ${path} answered ${response.status}: ${body?.detail ?? text}`,
    );
  return body as T;
}
