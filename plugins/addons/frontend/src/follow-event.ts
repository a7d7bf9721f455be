import type { Api } from './api';
import { readEvent } from './routes';

/** How an install stands: its status and description, and the progress the server broadcasts (never stored). */
export interface Progress {
  status: string;
  description: string;
  progress: number | null;
}

const DONE = new Set(['finished', 'failed', 'aborted']);
const POLL_MS = 1500;

/**
 * Follow one event until it is finished or failed. Progress arrives over /ws as the server works; reading the
 * event every few seconds as well means a dropped socket cannot leave the screen waiting forever.
 * Returns a function that stops following.
 */
export function followEvent(
  api: Api,
  id: string,
  topic: string,
  onUpdate: (progress: Progress) => void,
): () => void {
  let stopped = false;
  let progress: number | null = null;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close(1000, 'done');
  };
  const report = (update: Omit<Progress, 'progress'> & { progress?: number | null }) => {
    if (stopped) return;
    if (update.progress != null) progress = update.progress;
    onUpdate({ status: update.status, description: update.description, progress });
    if (DONE.has(update.status)) stop();
  };

  if (api.token) {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    socket.onopen = () =>
      socket?.send(JSON.stringify({ topic: 'auth', token: api.token, subscribe: [topic] }));
    socket.onmessage = (raw) => {
      try {
        const message = JSON.parse(String(raw.data));
        if (message.id === id) report(message);
      } catch {
        // Not an event: ignore it.
      }
    };
  }

  const poll = async () => {
    try {
      report(await readEvent(api, id));
    } catch {
      // A passing failure: the next poll or the socket tells.
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  };
  void poll();
  return stop;
}
