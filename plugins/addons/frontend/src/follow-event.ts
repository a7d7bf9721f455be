import type { PipewrightClient } from '@pipewright/sdk/client';
import { readEvent } from './routes';

/** How an install stands: its status and description, and the progress the server broadcasts (never stored). */
export interface Progress {
  status: string;
  description: string;
  progress: number | null;
}

const DONE = new Set(['finished', 'failed', 'aborted']);

/**
 * Follow one event until it is finished or failed. Progress arrives live through the client's subscription, which
 * reconnects by itself; each time it (re)connects the event is read once, so what happened before the
 * subscription was ready, or while it was down, is not missed. Returns a function that stops following.
 */
export function followEvent(
  client: PipewrightClient,
  id: string,
  topic: string,
  onUpdate: (progress: Progress) => void,
): () => void {
  let stopped = false;
  let progress: number | null = null;

  const report = (update: { status: string; description: string; progress?: number | null }) => {
    if (stopped) return;
    if (update.progress != null) progress = update.progress;
    onUpdate({ status: update.status, description: update.description, progress });
    if (DONE.has(update.status)) stop();
  };
  const catchUp = () =>
    readEvent(client, id).then(report, () => {
      // A passing failure: the live messages, or the next connection's read, tell.
    });

  const subscription = client.subscribe({
    topics: [topic],
    onEvent: (event) => {
      if (event.id === id) report(event);
    },
    onConnect: () => void catchUp(),
    // Without live events (a refused socket), one read still reports where the event stands.
    onError: () => void catchUp(),
  });
  const stop = () => {
    stopped = true;
    void subscription.close();
  };
  return stop;
}
