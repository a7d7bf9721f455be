import type { LiveEvent } from '../events.js';
import { ClientError } from './errors.js';

export type { LiveEvent };

/** Why a connection ended and what the subscription does next. */
export interface DisconnectInfo {
  /** The WebSocket close code (1006: the connection dropped without a close frame; 4000: no heartbeat). */
  code: number;
  reason: string;
  /** Milliseconds until the next attempt, or null when the subscription has stopped. */
  retryInMs: number | null;
}

/** What to receive and how to react; the handlers are called for this subscription only. */
export interface SubscribeOptions {
  /** Topic prefixes ("entity.folder", "render.") or "*" for everything the caller may see. */
  topics: string[];
  /** Only events of this project (events without a project, and server messages, still arrive). */
  project?: string | null;
  /** Called for every event; a throw or rejection is passed to onError and does not end the subscription. */
  onEvent: (event: LiveEvent) => void | Promise<void>;
  /** Called each time the server has accepted the credentials, after the first connection and after reconnects. */
  onConnect?: (info: { connections: number }) => void;
  /** Called when a connection ends, with the next attempt's delay. */
  onDisconnect?: (info: DisconnectInfo) => void;
  /** Called with handler failures and with the error that stopped the subscription for good. */
  onError?: (error: Error) => void;
  /** Backoff between attempts: doubles from initialDelayMs (default 500) up to maxDelayMs (default 30000). */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /**
   * A connection that has been silent this long is taken as dead and replaced (default 20000). The server sends a
   * heartbeat every 5 s, so silence means a half-open connection that would otherwise never report a close.
   */
  staleAfterMs?: number;
}

/** The client's side of a subscription: where to connect and, read at every attempt, the credentials. */
export interface SubscriptionSetup extends SubscribeOptions {
  /** The /ws URL (ws:// or wss://). */
  url: string;
  /** The credentials to authorise with, asked for again before every attempt. */
  credentials: () => { token: string | null; apiKey: string | null };
}

/** The subset of the WHATWG WebSocket both browsers and the ws package provide. */
interface Socket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** The close code the server uses to refuse credentials: retrying with the same ones cannot succeed. */
const POLICY_VIOLATION = 1008;
const STALE = 4000;
const CLOSED = 3;

/**
 * A socket for the url. Browsers (and Node 22) have a global WebSocket, but it cannot send headers; an API key
 * travels in the x-api-key header of the upgrade request, so that case needs the ws package (Node only). Node 20
 * has no global WebSocket at all. ws is imported only when needed, so browser bundles do not load it.
 */
async function openSocket(url: string, apiKeyHeader: string | null): Promise<Socket> {
  const Native = (globalThis as { WebSocket?: new (url: string) => Socket }).WebSocket;
  if (Native && apiKeyHeader === null) return new Native(url);
  try {
    const { default: WebSocket } = await import('ws');
    const headers = apiKeyHeader === null ? undefined : { 'x-api-key': apiKeyHeader };
    return new WebSocket(url, { headers }) as unknown as Socket;
  } catch (error) {
    throw new ClientError(
      apiKeyHeader === null
        ? 'No WebSocket implementation: this runtime has no global WebSocket and the ws package could not be loaded'
        : 'An API key can authorise live events only in Node (browsers cannot set headers on a WebSocket): log in and use a session token',
      { cause: error },
    );
  }
}

/** A live subscription to /ws that re-authorises and resubscribes after every drop, until close(). */
export class EventSubscription {
  /** Resolves when the server first accepts the subscription; rejects if it stops before that. */
  readonly ready: Promise<void>;

  private socket: Socket | null = null;
  private closed = false;
  private attempt = 0;
  private authorisedCount = 0;
  private isConnected = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private staleTimer: ReturnType<typeof setTimeout> | null = null;
  private settleReady!: (error?: Error) => void;
  private readyDone = false;
  private socketClosed: (() => void) | null = null;

  constructor(private readonly setup: SubscriptionSetup) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.settleReady = (error) => {
        if (this.readyDone) return;
        this.readyDone = true;
        if (error) reject(error);
        else resolve();
      };
    });
    // Callers who only use the handlers need not await ready; its rejection must not go unhandled then.
    this.ready.catch(() => {});
    void this.connect();
  }

  /** Whether a connection is authorised right now. */
  get connected(): boolean {
    return this.isConnected;
  }

  /** How many times the server has accepted this subscription (1 + the successful reconnects). */
  get connections(): number {
    return this.authorisedCount;
  }

  /** Stop: close the socket, cancel any pending reconnect; resolves once the socket has closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clearTimers();
    this.settleReady(new ClientError('The subscription was closed before the server accepted it'));
    const socket = this.socket;
    if (!socket || socket.readyState === 3) return;
    let giveUp: ReturnType<typeof setTimeout> | undefined;
    const done = new Promise<void>((resolve) => {
      this.socketClosed = resolve;
      // A dead connection may never finish the close handshake; do not wait for it forever.
      giveUp = setTimeout(resolve, 2000);
    });
    socket.close(1000, 'client closed');
    await done;
    clearTimeout(giveUp);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { token, apiKey } = this.setup.credentials();
    let socket: Socket;
    try {
      socket = await openSocket(this.setup.url, token ? null : apiKey);
    } catch (error) {
      // No WebSocket at all, or a URL the runtime rejects: trying again cannot help.
      return this.stop(error as Error);
    }
    if (this.closed) return socket.close(1000, 'client closed');
    this.socket = socket;
    this.watch(socket);
    socket.onopen = () => {
      // A token goes in the message; with an API key the upgrade request's header already said who we are, and
      // with neither a browser's accessToken cookie may.
      const auth = {
        topic: 'auth',
        ...(token ? { token } : {}),
        subscribe: this.setup.topics,
        ...(this.setup.project ? { project: this.setup.project } : {}),
      };
      socket.send(JSON.stringify(auth));
    };
    socket.onmessage = (event) => this.receive(socket, event.data);
    socket.onclose = (event) => this.dropped(socket, event.code, event.reason);
    // An error is followed by a close, in the same task, which decides what happens next. Chromium leaves the close
    // out when a connection is refused at once (a server restarting): without this, the next attempt would wait
    // for the silence watchdog (20 s) instead of the backoff.
    socket.onerror = () => {
      setTimeout(() => {
        if (socket === this.socket && socket.readyState === CLOSED) this.dropped(socket, 1006, '');
      }, 0);
    };
  }

  private receive(socket: Socket, data: unknown): void {
    if (socket !== this.socket) return;
    this.watch(socket);
    let message: LiveEvent;
    try {
      message = JSON.parse(typeof data === 'string' ? data : String(data)) as LiveEvent;
    } catch {
      return;
    }
    if (message.topic === 'heartbeat') return;
    if (message.topic === 'server.started') {
      // The server greets every socket once it accepted the credentials: from here on, this connection counts.
      this.attempt = 0;
      this.isConnected = true;
      this.authorisedCount += 1;
      this.settleReady();
      this.report(() => this.setup.onConnect?.({ connections: this.authorisedCount }));
      return;
    }
    this.report(() => this.setup.onEvent(message));
  }

  private dropped(socket: Socket, code: number, reason: string): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.isConnected = false;
    this.clearTimers();
    if (this.closed) {
      this.socketClosed?.();
      return;
    }
    if (code === POLICY_VIOLATION) {
      this.report(() => this.setup.onDisconnect?.({ code, reason, retryInMs: null }));
      return this.stop(
        new ClientError(`The server refused the subscription: ${reason || 'policy violation'}`),
      );
    }
    const { initialDelayMs = 500, maxDelayMs = 30_000 } = this.setup.reconnect ?? {};
    // Jitter keeps many clients of a restarted server from reconnecting in lockstep.
    const base = Math.min(maxDelayMs, initialDelayMs * 2 ** this.attempt);
    const delay = Math.round(base / 2 + (Math.random() * base) / 2);
    this.attempt += 1;
    this.report(() => this.setup.onDisconnect?.({ code, reason, retryInMs: delay }));
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  /** (Re)arm the silence watchdog for this socket. */
  private watch(socket: Socket): void {
    if (this.staleTimer) clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => {
      // Handled as a drop at once: a half-open connection's own close event may come minutes later, or never.
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(STALE, 'no heartbeat');
      this.dropped(socket, STALE, 'no heartbeat');
    }, this.setup.staleAfterMs ?? 20_000);
  }

  private stop(error: Error): void {
    this.closed = true;
    this.clearTimers();
    this.settleReady(error);
    this.report(() => this.setup.onError?.(error));
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.staleTimer) clearTimeout(this.staleTimer);
    this.retryTimer = this.staleTimer = null;
  }

  /** Run a handler; its failure goes to onError rather than breaking the socket's event loop. */
  private report(handler: () => unknown): void {
    const fail = (error: unknown) => {
      if (this.setup.onError) this.setup.onError(error instanceof Error ? error : new Error(String(error)));
    };
    try {
      const result = handler();
      if (result instanceof Promise) result.catch(fail);
    } catch (error) {
      fail(error);
    }
  }
}
