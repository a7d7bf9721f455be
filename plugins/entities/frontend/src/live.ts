import { useEffect, useRef } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';
import { liveStateOf, useLiveEvents, type LiveState } from '@pipewright/sdk/ui';
import type { GridRow } from './rows';
import type { ProjectStore } from './store/ProjectStore';

// The overview follows the server's entity events, so another user's change shows without Refresh. Events come in
// bursts (a 200-shot batch is 200 events): they are gathered for a moment and applied as one change of the store,
// one read of the server and one render.

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
  // The gatherer of the store shown; a new store (another project) starts a new one, the old one stops.
  const gatherer = useRef<((event: LiveEvent) => void) | null>(null);
  useEffect(() => {
    const gather = gatherInto(store);
    gatherer.current = gather.add;
    return () => {
      gather.stop();
      if (gatherer.current === gather.add) gatherer.current = null;
    };
  }, [store]);
  const connection = useLiveEvents({
    client,
    topics: TOPICS,
    project,
    onEvent: (event) => {
      if (event.topic.startsWith('entity.')) gatherer.current?.(event);
    },
    // Events sent while the connection was down were missed: read what is shown again.
    onReconnect: () => void store.reloadEverything().catch(() => undefined),
  });

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

  return liveStateOf(connection);
}

/** Events gathered for a moment and applied to the store as one burst, one burst at a time. */
function gatherInto(store: ProjectStore) {
  let waiting: LiveEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let applying: Promise<void> | null = null;
  let stopped = false;
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
  return {
    add(event: LiveEvent) {
      waiting.push(event);
      if (!timer && !applying) timer = setTimeout(flush, GATHER_MS);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
