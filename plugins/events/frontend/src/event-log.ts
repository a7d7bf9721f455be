import { useCallback, useEffect, useRef, useState } from 'react';
import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { messageOf, useLiveEvents, type Connection } from '@pipewright/sdk/ui';
import {
  fromLive,
  matches,
  mergeLive,
  readPage,
  topicPrefix,
  type EventFilter,
  type EventRow,
} from './events';

const PAGE_SIZE = 50;
/** A busy studio sends events all day; past this many rows the oldest leave the list (paging brings them back). */
const MAX_ROWS = 1000;

export interface EventLog {
  rows: EventRow[];
  /** Ids of rows that arrived over /ws since the list was loaded, to highlight them. */
  arrived: Set<string>;
  loading: boolean;
  error: string | null;
  hasOlder: boolean;
  loadOlder(): void;
  connection: Connection;
}

const newestFirst = (a: EventRow, b: EventRow) => b.createdAt.localeCompare(a.createdAt);

/** Keep at most MAX_ROWS; paging on then starts from the oldest row kept that has a cursor. */
function capped(rows: EventRow[], olderCursor: string | null): [EventRow[], string | null] {
  if (rows.length <= MAX_ROWS) return [rows, olderCursor];
  const kept = rows.slice(0, MAX_ROWS);
  const oldestWithCursor = [...kept].reverse().find((row) => row.cursor)?.cursor;
  return [kept, oldestWithCursor ?? olderCursor];
}

/**
 * The events the screen lists: the newest page for the filter, older pages on request, and events arriving over
 * /ws put on top (or updated in place when already listed). After a reconnect the newest page is read again, so
 * nothing sent while the socket was down is missing.
 */
export function useEventLog(client: PipewrightClient, filter: EventFilter, user: ScreenUser): EventLog {
  const [rows, setRows] = useState<EventRow[]>([]);
  const [arrived, setArrived] = useState<Set<string>>(new Set());
  const [olderCursor, setOlderCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  // Answers to a filter that has changed since are dropped.
  const generation = useRef(0);

  const loadNewest = useCallback(
    async (merge: boolean) => {
      const mine = ++generation.current;
      setLoading(true);
      setError(null);
      try {
        const page = await readPage(client, filter, PAGE_SIZE);
        if (mine !== generation.current) return;
        if (!merge) {
          setRows(page.rows);
          setOlderCursor(page.olderCursor);
          setArrived(new Set());
        } else {
          setRows((current) => {
            const fresh = new Map(page.rows.map((row) => [row.id, row]));
            const merged = [...page.rows, ...current.filter((row) => !fresh.has(row.id))].sort(newestFirst);
            return capped(merged, null)[0];
          });
        }
      } catch (failure) {
        if (mine === generation.current) setError(messageOf(failure));
      } finally {
        if (mine === generation.current) setLoading(false);
      }
    },
    [client, filter],
  );

  useEffect(() => {
    void loadNewest(false);
  }, [loadNewest]);

  const loadOlder = useCallback(async () => {
    if (!olderCursor) return;
    const mine = generation.current;
    setLoading(true);
    try {
      const page = await readPage(client, filter, PAGE_SIZE, olderCursor);
      if (mine !== generation.current) return;
      setRows((current) => {
        const known = new Set(current.map((row) => row.id));
        return [...current, ...page.rows.filter((row) => !known.has(row.id))];
      });
      setOlderCursor(page.olderCursor);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [client, filter, olderCursor]);

  const onEvent = useCallback(
    (message: LiveEvent) => {
      if (!message.id) return;
      // The history query shows others only their own events; the live list must not show more.
      const seesAll = user.isAdmin || user.isManager;
      if (!seesAll && message.user !== user.name) return;
      const id = message.id;
      setRows((current) => {
        const at = current.findIndex((row) => row.id === id);
        if (at >= 0) return current.map((row, i) => (i === at ? mergeLive(row, message) : row));
        return matches(filter, message) ? [fromLive({ ...message, id }), ...current] : current;
      });
      if (matches(filter, message))
        setArrived((current) => (current.has(id) ? current : new Set(current).add(id)));
    },
    [filter, user],
  );

  useEffect(() => {
    if (rows.length <= MAX_ROWS) return;
    const [kept, cursor] = capped(rows, olderCursor);
    setRows(kept);
    setOlderCursor(cursor);
  }, [rows, olderCursor]);

  const prefix = topicPrefix(filter);
  const connection = useLiveEvents({
    client,
    topics: [prefix ? `${prefix}*` : '*'],
    project: filter.project || null,
    onEvent,
    onReconnect: () => void loadNewest(true),
  });

  return {
    rows,
    arrived,
    loading,
    error,
    hasOlder: olderCursor !== null,
    loadOlder: () => void loadOlder(),
    connection,
  };
}
