import { useEffect, useRef, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';
import type { GridRow } from './rows';
import type { ProjectStore } from './store';

// The overview follows the server's entity events, so another user's change shows without Refresh. Events come in
// bursts (a 200-shot batch is 200 events): they are gathered for a moment and applied as one change of the store,
// one read of the server and one render.

/** Whether changes made elsewhere arrive by themselves right now. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'off';

const TOPICS = ['entity.folder', 'entity.task'];
/** How long a burst of events is gathered before it is applied. */
const GATHER_MS = 150;

/** Follow the project's folder and task events into the store; read everything again after a reconnect. */
export function useLiveOverview(
  client: PipewrightClient,
  project: string,
  store: ProjectStore,
  rows: GridRow[],
): LiveState {
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    let waiting: LiveEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let applying: Promise<void> | null = null;
    let stopped = false;
    // One burst at a time: events arriving while one is applied wait for the next.
    const flush = () => {
      timer = undefined;
      if (applying || stopped) return;
      const burst = waiting;
      waiting = [];
      applying = store
        .applyNews(burst)
        .catch(() => store.reloadEverything())
        .catch(() => undefined)
        .finally(() => {
          applying = null;
          if (waiting.length && !timer) timer = setTimeout(flush, GATHER_MS);
        });
    };
    setState('connecting');
    const subscription = client.subscribe({
      topics: TOPICS,
      project,
      onEvent: (event) => {
        if (!event.topic.startsWith('entity.')) return;
        waiting.push(event);
        if (!timer && !applying) timer = setTimeout(flush, GATHER_MS);
      },
      onConnect: ({ connections }) => {
        setState('live');
        // Events sent while the connection was down were missed: read what is shown again.
        if (connections > 1) void store.reloadEverything().catch(() => undefined);
      },
      onDisconnect: ({ retryInMs }) => setState(retryInMs === null ? 'off' : 'reconnecting'),
      onError: () => setState((current) => (current === 'live' ? current : 'off')),
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      void subscription.close();
    };
  }, [client, project, store]);

  // A level shown open but never read (opened before a reload dropped it, or moved in live) is read now, so its
  // "Loading…" row never stays.
  const asked = useRef(new Set<string>());
  useEffect(() => {
    for (const row of rows) {
      if (row.type !== 'pending' || row.error || store.children.has(row.parent)) continue;
      if (asked.current.has(row.parent)) continue;
      asked.current.add(row.parent);
      void store.loadChildren(row.parent).finally(() => asked.current.delete(row.parent));
    }
  }, [rows, store]);

  return state;
}
