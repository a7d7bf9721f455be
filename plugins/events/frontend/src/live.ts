import { useEffect, useRef, useState } from 'react';

/** An event as /ws broadcasts it: everything but the payload. */
export interface LiveMessage {
  topic: string;
  id: string | null;
  project: string | null;
  user: string | null;
  sender: string | null;
  senderType: string | null;
  dependsOn: string | null;
  description: string;
  summary: Record<string, unknown>;
  status: string;
  progress: number | null;
  createdAt: string;
  updatedAt: string;
}

export type Connection =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; inSeconds: number; reason: string }
  | { state: 'refused'; reason: string };

/** Messages the server sends to keep the socket alive or to greet it; not events anyone dispatched. */
const HOUSEKEEPING = new Set(['heartbeat', 'server.started']);
/** The server sends a heartbeat after 5 s of silence; three missed ones mean the connection is dead. */
const SILENCE_LIMIT_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;
/** Close code the server uses for a refused token: retrying with the same token cannot help. */
const POLICY_VIOLATION = 1008;

function socketUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

interface Options {
  token: string | null;
  /** Topic prefixes ("entity.folder", "*"); changing them re-subscribes the open socket. */
  subscribe: string[];
  project: string | null;
  onMessage(message: LiveMessage): void;
  /** Called after a dropped connection is back: events sent meanwhile were missed. */
  onReconnect(): void;
}

/**
 * Follow events over /ws: authorise with the session token, re-subscribe when the filters change, and reconnect
 * with growing pauses when the connection drops or falls silent. Returns the connection state to show.
 */
export function useLiveEvents({ token, subscribe, project, onMessage, onReconnect }: Options): Connection {
  const [connection, setConnection] = useState<Connection>({ state: 'connecting' });
  const socketRef = useRef<WebSocket | null>(null);
  // Handlers and filters change with every render; the socket reads the latest through refs.
  const latest = useRef({ subscribe, project, onMessage, onReconnect });
  latest.current = { subscribe, project, onMessage, onReconnect };

  const authMessage = () =>
    JSON.stringify({
      topic: 'auth',
      token,
      subscribe: latest.current.subscribe,
      project: latest.current.project,
    });

  useEffect(() => {
    if (!token) {
      setConnection({ state: 'refused', reason: 'Not logged in' });
      return;
    }
    let stopped = false;
    let attempt = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let countdown: ReturnType<typeof setInterval> | undefined;
    let silenceTimer: ReturnType<typeof setTimeout> | undefined;

    const connect = () => {
      setConnection({ state: 'connecting' });
      const socket = new WebSocket(socketUrl());
      socketRef.current = socket;
      const watchSilence = () => {
        clearTimeout(silenceTimer);
        silenceTimer = setTimeout(() => socket.close(4000, 'silent'), SILENCE_LIMIT_MS);
      };
      socket.onopen = () => {
        socket.send(authMessage());
        watchSilence();
      };
      socket.onmessage = (raw) => {
        watchSilence();
        let message: LiveMessage;
        try {
          message = JSON.parse(String(raw.data));
        } catch {
          return;
        }
        if (message.topic === 'server.started') {
          // The server accepted the token: from here on events flow.
          if (attempt > 0) latest.current.onReconnect();
          attempt = 0;
          setConnection({ state: 'live' });
        }
        if (!HOUSEKEEPING.has(message.topic)) latest.current.onMessage(message);
      };
      socket.onclose = (event) => {
        clearTimeout(silenceTimer);
        if (socketRef.current === socket) socketRef.current = null;
        if (stopped) return;
        if (event.code === POLICY_VIOLATION) {
          setConnection({ state: 'refused', reason: event.reason || 'The server refused the session' });
          return;
        }
        attempt += 1;
        const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempt - 1));
        let left = Math.ceil(delay / 1000);
        const reason = event.reason === 'silent' ? 'no answer from the server' : 'connection lost';
        setConnection({ state: 'reconnecting', inSeconds: left, reason });
        countdown = setInterval(() => {
          left = Math.max(0, left - 1);
          setConnection({ state: 'reconnecting', inSeconds: left, reason });
        }, 1000);
        retryTimer = setTimeout(() => {
          clearInterval(countdown);
          connect();
        }, delay);
      };
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      clearInterval(countdown);
      clearTimeout(silenceTimer);
      socketRef.current?.close(1000, 'screen closed');
      socketRef.current = null;
    };
    // authMessage reads the filters through the ref; only a new token needs a new socket.
  }, [token]);

  // New filters: the server replaces the subscriptions of an open socket when it gets another auth message.
  const filterKey = `${subscribe.join('\u0000')}|${project ?? ''}`;
  useEffect(() => {
    const socket = socketRef.current;
    if (socket?.readyState === WebSocket.OPEN) socket.send(authMessage());
  }, [filterKey]);

  return connection;
}
