// The guest page's calls: /api/guest/... with the session that opening a link answered. Plain fetch: a guest has no
// account, so the session client (and its "log in again" handling) has nothing to do here.
import type { Annotation } from '@pipewright/sdk/ui';

/** The guest page's own address; the link's token rides in the fragment, which browsers never send to a server. */
export const GUEST_PATH = '/guest';

/** An answer that is not a success, with the server's sentence. ended: the link was revoked or has expired (403). */
export class GuestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
  get ended() {
    return this.status === 403 && /revoked|expired/.test(this.message);
  }
}

export interface GuestReviewable {
  activityId: string;
  fileId: string;
  label: string | null;
  filename: string;
  mimetype: string;
  mediaInfo: { width?: number | null; height?: number | null } | null;
  fps: number;
  firstFrame: number;
  frameCount: number;
}

export interface GuestVersion {
  id: string;
  title: string;
  status: string;
  reviewables: GuestReviewable[];
}

export interface GuestItems {
  label: string;
  guestName: string;
  expiresAt: string | null;
  canComment: boolean;
  canDownload: boolean;
  canApprove: boolean;
  versions: GuestVersion[];
}

export interface GuestComment {
  id: string;
  author: string;
  guest: boolean;
  body: string;
  frame: number | null;
  createdAt: string;
}

/** An annotation as the studio's player draws it (the sdk's shape), read only here. */
export type GuestAnnotation = Annotation;

async function call<T>(method: string, path: string, session: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (session) headers['x-guest-session'] = session;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = response.headers.get('content-type')?.includes('json') ? await response.json() : null;
  if (!response.ok)
    throw new GuestError(response.status, answer?.detail ?? `The server answered ${response.status}`);
  return answer as T;
}

/** What the page needs of a link before it is opened. */
export const peekLink = (token: string) =>
  call<{ needsPassword: boolean; label: string | null; expiresAt: string | null }>(
    'POST',
    '/api/guest/link',
    null,
    {
      token,
    },
  );

export const openLink = (token: string, name: string, password?: string) =>
  call<{ session: string; guestName: string }>('POST', '/api/guest/open', null, { token, name, password });

/** The calls a guest makes once the link is open. */
export function guestApi(session: string) {
  return {
    items: () => call<GuestItems>('GET', '/api/guest/items', session),
    comments: (version: string) =>
      call<{ comments: GuestComment[] }>('GET', `/api/guest/versions/${version}/comments`, session),
    comment: (version: string, body: string, frame: number | null) =>
      call<{ id: string }>('POST', `/api/guest/versions/${version}/comments`, session, { body, frame }),
    approve: (version: string) =>
      call<{ status: string }>('POST', `/api/guest/versions/${version}/approve`, session),
    annotations: (version: string, reviewable: string) =>
      call<{ annotations: GuestAnnotation[] }>(
        'GET',
        `/api/guest/versions/${version}/reviewables/${reviewable}/annotations`,
        session,
      ),
    /** Where the media's bytes are: the session in the query, since a <video> cannot send headers. */
    mediaUrl: (fileId: string, download = false) =>
      `/api/guest/files/${fileId}?session=${encodeURIComponent(session)}${download ? '&download=true' : ''}`,
    /**
     * Listen for the link's end: calls ended with the server's sentence when it is revoked or expires (or the
     * connection is refused because it already has). Answers how to stop listening.
     */
    watch(ended: (detail: string) => void): () => void {
      const stop = new AbortController();
      void (async () => {
        try {
          const response = await fetch('/api/guest/live', {
            headers: { 'x-guest-session': session },
            signal: stop.signal,
          });
          if (!response.ok) {
            const answer = await response.json().catch(() => null);
            if (response.status === 403) ended(answer?.detail ?? 'This guest link has ended');
            return;
          }
          const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
          let text = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            text += value;
            const at = text.indexOf('event: ended');
            if (at >= 0) {
              const data = /data: (.*)/.exec(text.slice(at))?.[1];
              ended(data ? (JSON.parse(data).detail as string) : 'This guest link has ended');
              return;
            }
          }
          // Cut off without a word (a revocation heard by another process ends the stream there): ask again.
          if (!stop.signal.aborted)
            await call('GET', '/api/guest/items', session).catch((error: GuestError) => {
              if (error.ended) ended(error.message);
            });
        } catch {
          // Aborted, or the network went away: the next request says what happened.
        }
      })();
      return () => stop.abort();
    },
  };
}
export type GuestApi = ReturnType<typeof guestApi>;
