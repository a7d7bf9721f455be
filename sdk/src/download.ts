import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline } from 'node:stream/promises';
import { PipewrightError, ValidationFailed } from './errors.js';

// Every download the server makes of a URL someone gave it (addon packages, launcher installers, dependency
// packages) goes through here. Only http and https; redirects only within the same scheme, host and port, so a URL
// cannot be used to reach other services of the network; the size counted as bytes arrive (a Content-Length is a
// promise, not a fact) and the body streamed, never held whole; a time limit for the answer and for a server that
// stops sending. Failure messages say what went wrong without naming addresses, ports or system error codes: they
// end up in events that clients read.

/** 502: a download did not succeed. Its message is safe to show; the underlying error, if any, is its cause. */
export class DownloadFailed extends PipewrightError {
  constructor(reason: string, cause?: unknown) {
    super(502, `download failed: ${reason}`, 'download-failed');
    if (cause !== undefined) this.cause = cause;
  }
}

/** How long and how much a download may take. */
export interface DownloadLimits {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Time to connect and receive the answer's headers (default 30 s). */
  connectTimeoutMs?: number;
  /** Longest silence while the body arrives (default 60 s). */
  idleTimeoutMs?: number;
  /** Redirects followed, each to the same scheme, host and port (default 5). */
  maxRedirects?: number;
  /** Stops the download (the server is shutting down). */
  signal?: AbortSignal;
}

/** An answered download whose body has not been read yet. */
export interface OpenDownload {
  /** The body chunk by chunk; fails with DownloadFailed past the size limit, after a silence or a broken connection. */
  body: AsyncIterable<Buffer>;
  /** The size the server announced, if it did. */
  declaredSize: number | null;
}

const CONNECT_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

/** The URL a download may fetch, or 422 in AYON's shape at loc: only absolute http and https URLs. */
export function downloadUrl(url: string, loc: (string | number)[] = ['query', 'url']): URL {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  const refuse = (msg: string, type: string): never => {
    throw new ValidationFailed([{ loc, msg, type }], `Validation error: ${loc.join('.')}: ${msg}`);
  };
  if (!parsed) return refuse('must be an absolute http or https URL', 'url_parsing');
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname)
    return refuse('must be an http or https URL', 'url_scheme');
  return parsed;
}

/** "1 GiB", "300 MiB", "512 bytes": limits as people read them. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size && bytes % (size / 16) === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

const duration = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

const tooLarge = (maxBytes: number) =>
  new DownloadFailed(`the file is larger than the limit of ${formatBytes(maxBytes)}`);

/** Connect, send the request and wait for the answer's headers. */
function answer(target: URL, limits: DownloadLimits): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: 'GET',
      headers: { accept: '*/*', 'user-agent': 'Pipewright' },
      signal: limits.signal,
    });
    const timer = setTimeout(
      () => request.destroy(new DownloadFailed('the server did not answer in time')),
      limits.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    );
    request.once('response', (response) => {
      clearTimeout(timer);
      resolve(response);
    });
    request.once('error', (error) => {
      clearTimeout(timer);
      reject(connectionFailure(error, limits.signal));
    });
    request.end();
  });
}

/** The reason for a failed connection in words that name no address or port (the cause keeps the details). */
function connectionFailure(error: unknown, signal?: AbortSignal): DownloadFailed {
  if (error instanceof DownloadFailed) return error;
  if (signal?.aborted) return new DownloadFailed('the download was stopped', error);
  const code = String((error as NodeJS.ErrnoException).code ?? '');
  if (/CERT|TLS|SSL|SIGNATURE/.test(code))
    return new DownloadFailed('the server\u2019s TLS certificate was not accepted', error);
  return new DownloadFailed('could not connect to the server', error);
}

/** The body, counted as it arrives: past maxBytes or after a silence the connection is closed and the read fails. */
async function* limitedBody(
  response: IncomingMessage,
  limits: DownloadLimits,
): AsyncGenerator<Buffer, void, undefined> {
  const idleMs = limits.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  response.setTimeout(idleMs, () =>
    response.destroy(new DownloadFailed(`the server sent nothing for ${duration(idleMs)}`)),
  );
  const stop = () => response.destroy(new DownloadFailed('the download was stopped'));
  limits.signal?.addEventListener('abort', stop, { once: true });
  let received = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > limits.maxBytes) throw tooLarge(limits.maxBytes);
      yield chunk;
    }
    if (!response.complete) throw new DownloadFailed('the connection closed before the whole file arrived');
  } catch (error) {
    if (error instanceof DownloadFailed) throw error;
    throw new DownloadFailed('the connection closed before the whole file arrived', error);
  } finally {
    limits.signal?.removeEventListener('abort', stop);
    response.destroy();
  }
}

/**
 * Request a URL and wait for a successful answer: its body is then read from `body`. Redirects are followed
 * only to the same scheme, host and port; any other answer than 2xx is a DownloadFailed naming its status.
 */
export async function openDownload(url: string | URL, limits: DownloadLimits): Promise<OpenDownload> {
  let target = typeof url === 'string' ? downloadUrl(url, ['url']) : downloadUrl(url.href, ['url']);
  const origin = target.origin;
  for (let redirects = 0; ; redirects++) {
    const response = await answer(target, limits);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      if (redirects >= (limits.maxRedirects ?? MAX_REDIRECTS))
        throw new DownloadFailed('the server redirected too many times');
      const next = URL.canParse(location, target) ? new URL(location, target) : null;
      // Another host or port could be anything this server can reach: such a redirect is not followed, nor named.
      if (!next || next.origin !== origin)
        throw new DownloadFailed('the server redirected to another host or port, which is not followed');
      target = next;
      continue;
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new DownloadFailed(`the server answered HTTP ${status}`);
    }
    const header = response.headers['content-length'];
    const declaredSize = header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
    if (declaredSize !== null && declaredSize > limits.maxBytes) {
      response.destroy();
      throw tooLarge(limits.maxBytes);
    }
    return { body: limitedBody(response, limits), declaredSize };
  }
}

/** Stream a URL's body into a new file at path; on any failure the partial file is removed. Answers the size. */
export async function downloadToFile(
  url: string | URL,
  path: string,
  limits: DownloadLimits,
): Promise<{ size: number }> {
  const download = await openDownload(url, limits);
  let size = 0;
  try {
    await pipeline(
      download.body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(path, { flags: 'wx' }),
    );
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { size };
}
