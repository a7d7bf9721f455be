import { API_VERSION, PipewrightError, ServiceUnavailable } from '@pipewright/sdk';

/** Base URL of the Ynput Cloud API; an operator may point it at another deployment. */
export const CLOUD_URL_VARIABLE = 'YNPUT_CLOUD_URL';
/** Seconds to wait for an answer from the cloud. */
export const CLOUD_TIMEOUT_VARIABLE = 'YNPUT_CLOUD_TIMEOUT';
export const DEFAULT_CLOUD_URL = 'https://im.ayon.cloud';
const DEFAULT_TIMEOUT_SECONDS = 5;

/** 502: the cloud could not be reached, did not answer in time, or answered something unusable. */
export class CloudUnreachable extends PipewrightError {
  constructor(message: string) {
    super(502, message, 'cloud-unreachable');
  }
}

/** 403: the cloud answered, and refused the key it was given (revoked, mistyped, for another instance). */
export class CloudRejected extends PipewrightError {
  constructor(message: string) {
    super(403, message, 'cloud-rejected');
  }
}

export interface CloudSettings {
  baseUrl: string;
  timeoutMs: number;
}

/**
 * Where the cloud is and how long to wait for it. Read at every call rather than once at setup, so an operator
 * who changes the environment of a running process (or a test) is followed at once. A malformed value answers 503
 * naming the variable: the server is misconfigured, not the caller's request.
 */
export function cloudSettings(env: NodeJS.ProcessEnv = process.env): CloudSettings {
  const raw = (env[CLOUD_URL_VARIABLE] || DEFAULT_CLOUD_URL).trim();
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ServiceUnavailable(`${CLOUD_URL_VARIABLE} is not an http(s) URL: "${raw}"`);
  }
  const rawTimeout = env[CLOUD_TIMEOUT_VARIABLE];
  let seconds = DEFAULT_TIMEOUT_SECONDS;
  if (rawTimeout !== undefined && rawTimeout !== '') {
    seconds = Number(rawTimeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 120) {
      throw new ServiceUnavailable(
        `${CLOUD_TIMEOUT_VARIABLE} must be a number of seconds between 0 and 120, got "${rawTimeout}"`,
      );
    }
  }
  return { baseUrl: raw.replace(/\/+$/, ''), timeoutMs: Math.round(seconds * 1000) };
}

/** What a call to the cloud needs besides the path. */
export interface CloudCall {
  method: 'GET' | 'POST';
  path: string;
  /** Sent as x-ynput-cloud-instance and x-ynput-cloud-key, as AYON servers do. */
  instanceId: string;
  key: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** The words for "the cloud at this URL": every error names the URL, the first thing an operator checks. */
export const cloudAt = (settings: CloudSettings) => `Ynput Cloud at ${settings.baseUrl}`;

/**
 * Call the cloud and answer the JSON object it sends back. A refused key (401, 403) is CloudRejected; no answer,
 * a timeout, any other error status or a body that is not a JSON object is CloudUnreachable, each with the reason.
 */
export async function callCloud(settings: CloudSettings, call: CloudCall): Promise<Record<string, unknown>> {
  const url = new URL(`${settings.baseUrl}${call.path}`);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'x-ynput-cloud-instance': call.instanceId,
    'x-ynput-cloud-key': call.key,
    'x-ynput-server-version': API_VERSION,
  };
  if (call.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (error) {
    throw new CloudUnreachable(`${cloudAt(settings)} cannot be reached: ${failureReason(error, settings)}`);
  }

  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new CloudUnreachable(`${cloudAt(settings)} cannot be reached: ${failureReason(error, settings)}`);
  }
  if (response.status === 401 || response.status === 403) {
    throw new CloudRejected(`${cloudAt(settings)} refused the key (HTTP ${response.status})`);
  }
  if (response.status < 200 || response.status >= 300) {
    throw new CloudUnreachable(
      `${cloudAt(settings)} answered HTTP ${response.status} to ${call.method} ${call.path}`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new CloudUnreachable(
      `${cloudAt(settings)} answered ${call.method} ${call.path} with something other than a JSON object`,
    );
  }
  return body as Record<string, unknown>;
}

/**
 * A sentence for why a request never got an answer: Node's fetch hides the useful part in error.cause. Errors are
 * read by shape, not instanceof: fetch's errors may come from another realm than this module's Error.
 */
function failureReason(error: unknown, settings: CloudSettings): string {
  const { name, message, cause } = (error ?? {}) as { name?: unknown; message?: unknown; cause?: unknown };
  if (name === 'TimeoutError' || name === 'AbortError')
    return `no answer within ${settings.timeoutMs / 1000} s`;
  const causeMessage = (cause as { message?: unknown } | undefined)?.message;
  if (typeof causeMessage === 'string' && causeMessage) return causeMessage;
  if (typeof message === 'string' && message) return message;
  return String(error);
}
