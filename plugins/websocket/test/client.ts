import WebSocket from 'ws';

/** A test client: collects every message and lets a test wait for one or for the socket to close. */
export interface TestClient {
  socket: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
  send(message: unknown): void;
  /** The first message (already received or arriving within timeoutMs) that matches. */
  next(match: (message: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Everything received except heartbeats and the greeting, for exact comparisons. */
  events(): any[];
  close(): void;
}

export async function connect(url: string): Promise<TestClient> {
  const socket = new WebSocket(url);
  const messages: any[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(data.toString()));
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((done) =>
    socket.on('close', (code, reason) => done({ code, reason: reason.toString() })),
  );
  await new Promise<void>((open, fail) => {
    socket.once('open', () => open());
    socket.once('error', fail);
  });
  return {
    socket,
    messages,
    closed,
    send: (message) => socket.send(JSON.stringify(message)),
    next(match, timeoutMs = 2000) {
      return new Promise((done, fail) => {
        const look = () => {
          const found = messages.find(match);
          if (!found) return false;
          cleanup();
          done(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          fail(
            new Error(
              `no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages.map((m) => m.topic))}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(look);
        };
        if (!look()) waiters.add(look);
      });
    },
    events: () => messages.filter((m) => m.topic !== 'heartbeat' && m.topic !== 'server.started'),
    close: () => socket.close(),
  };
}
