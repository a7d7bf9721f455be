import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '../client/index.js';
import { messageOf } from './errors.js';
import { useLiveEvents } from './live.js';

// The one way a screen reads server state: a read that runs again when what it reads changes (its deps), when the
// screen asks (after a change it made) and, with `live`, when live events say the server's data changed. Answers
// of reads that were superseded are dropped, so a slow old answer never overwrites a newer one.

/** Something a screen reads from the server, as it stands: the data, the failure, whether a read is under way. */
export interface Loaded<T> {
  /** The last data read, kept on screen while a new read is under way; null before the first arrives. */
  data: T | null;
  /** Why the last read failed, as a sentence; null when it succeeded. */
  error: string | null;
  /** Whether a read is under way. */
  loading: boolean;
  /** Read again (after a change the screen made); settles, never failing, once the read is done or superseded. */
  reload(): Promise<void>;
  /**
   * Change the data on screen without reading, for a change the screen made and knows the outcome of (a message
   * marked read, an older page appended); a read under way still replaces it when it arrives.
   */
  set(update: (current: T | null) => T | null): void;
}

/** Live events that call for reading again, heard for as long as the component is shown. */
export interface LiveReload {
  client: PipewrightClient;
  /** Topic prefixes ("entity.folder", "*"), as `useLiveEvents` takes them. */
  topics: string[];
  /** The project whose events are heard; null for every project's. */
  project: string | null;
  /** Whether an event changes what was read (one about this version, say); every event of the topics does by default. */
  when?(event: LiveEvent): boolean;
  /**
   * Read once this long after the first event of a burst rather than once per event (a batch of 200 folders is one
   * read); at once by default.
   */
  settleMs?: number;
}

/** How `useLoaded` reads, beyond what and when its deps say. */
export interface LoadedOptions {
  /** Read again when these live events arrive, and after a dropped connection is back (events were missed). */
  live?: LiveReload;
  /**
   * False to read nothing for now (no project chosen, nothing to read about): `loading` is false and the data stays
   * as it was. True by default.
   */
  enabled?: boolean;
  /**
   * True to drop the data and the error when the deps change, so that what was read for another entity never stands
   * in while its own is read; by default the old data stays on screen until the new arrives.
   */
  reset?: boolean;
}

/**
 * Read something for the screen, again whenever `deps` change. Reading again keeps the old data on screen until
 * the new arrives, and an answer to a read that has been superseded is dropped. With `options.live`, live events of
 * the given topics read again too, so a screen needs no subscription of its own just to reload.
 */
export function useLoaded<T>(
  read: () => Promise<T>,
  deps: unknown[],
  options: LoadedOptions = {},
): Loaded<T> {
  const { live, enabled = true, reset = false } = options;
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(enabled);
  const generation = useRef(0);
  // `read` is a new closure every render; deps say when it reads something else.
  const readRef = useRef(read);
  readRef.current = read;

  const reload = useCallback(() => {
    const mine = ++generation.current;
    setLoading(true);
    // A read that throws before it returns a promise fails like one that rejects.
    return new Promise<T>((resolve) => resolve(readRef.current()))
      .then(
        (value) => {
          if (mine !== generation.current) return;
          setData(value);
          setError(null);
        },
        (failure: unknown) => {
          if (mine === generation.current) setError(messageOf(failure));
        },
      )
      .finally(() => mine === generation.current && setLoading(false));
  }, []);

  const start = useCallback(() => {
    if (reset) {
      setData(null);
      setError(null);
    }
    if (enabled) return void reload();
    // Nothing to read: an answer still on its way is of no use either.
    generation.current++;
    setLoading(false);
  }, [enabled, reset, reload]);
  useEffect(start, [start, ...deps]);

  useLiveReload(live, enabled, reload);

  const set = useCallback((update: (current: T | null) => T | null) => setData(update), []);
  return { data, error, loading, reload, set };
}

/** Call `reload` for the live events `live` names (at once, or once per burst), and after a reconnection. */
function useLiveReload(live: LiveReload | undefined, enabled: boolean, reload: () => Promise<void>): void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useLiveEvents({
    // Without `live` the subscription is off (enabled: false) and the client is never used.
    client: live?.client as PipewrightClient,
    topics: live?.topics ?? [],
    project: live?.project ?? null,
    enabled: enabled && live !== undefined,
    onEvent: (event) => {
      if (!live || (live.when && !live.when(event))) return;
      if (!live.settleMs) return void reload();
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = undefined;
        void reload();
      }, live.settleMs);
    },
    onReconnect: () => void reload(),
  });
}
