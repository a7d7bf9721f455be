import { randomBytes, timingSafeEqual } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { BadRequest, check, defineAddon, type RequestUser } from '@pipewright/sdk';
import { Hub } from './hub.js';
import { AuthMessage, serverMessage } from './protocol.js';

export { accepts, Hub, toPrefix, type Client, type Socket } from './hub.js';
export { AuthMessage, toOutgoing, serverMessage, type OutgoingMessage } from './protocol.js';

/** AYON clients get 3 s to authorise before the socket is dropped. */
const AUTH_TIMEOUT_MS = 3000;
const DEFAULT_HEARTBEAT_MS = 5000;
/** Policy violation: the close code browsers and ayon-python-api report for rejected credentials. */
const POLICY_VIOLATION = 1008;
const INTERNAL_ERROR = 1011;
/** Sessions, keys or users changed (the auth addon's notice): open sockets are checked again. */
const IDENTITIES_CHANGED = 'auth.identities_changed';
/** Notices that arrive together (a logout ends a session, then a user changes) are handled once. */
const RECHECK_DELAY_MS = 100;
/** Carries this process's secret on the in-process identity lookup (see identify below). */
const IDENTIFY_HEADER = 'x-pipewright-ws-identify';

function heartbeatInterval(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_HEARTBEAT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 10 || value > 3_600_000) {
    throw new Error(`PIPEWRIGHT_WS_HEARTBEAT_MS must be an integer between 10 and 3600000, got "${raw}"`);
  }
  return value;
}

function sameSecret(given: unknown, secret: Buffer): boolean {
  if (typeof given !== 'string') return false;
  const buffer = Buffer.from(given);
  return buffer.length === secret.length && timingSafeEqual(buffer, secret);
}

/** The headers that identify the caller of an upgrade request, however it sent its credential. */
function credentialOf(request: FastifyRequest): Record<string, string> | null {
  const { authorization, 'x-api-key': apiKey } = request.headers;
  if (typeof authorization === 'string') return { authorization };
  if (typeof apiKey === 'string') return { 'x-api-key': apiKey };
  const token = (request.query as { token?: unknown } | undefined)?.token ?? request.cookies?.accessToken;
  return typeof token === 'string' && token ? { authorization: `Bearer ${token}` } : null;
}

// Live events for AYON clients: every bus message (from this process or, through Redis, from the others) is
// filtered per socket and forwarded, so a client connected to any process sees the whole studio's activity.
export default defineAddon({
  name: 'websocket',
  version: '1.0.0',
  title: 'Live events',
  description: 'The /ws WebSocket: events forwarded to subscribed clients, with heartbeats',
  dependsOn: ['auth'],
  async setup(ctx) {
    // Read once: tests shorten it, operators have no reason to.
    const heartbeatMs = heartbeatInterval(process.env.PIPEWRIGHT_WS_HEARTBEAT_MS);
    const secret = Buffer.from(randomBytes(32).toString('hex'));
    const hub = new Hub((error) => ctx.log.debug({ err: error }, 'could not send to a websocket'));

    const unsubscribe = ctx.events.subscribe('*', (message) => hub.broadcast(message));
    // Checking several times per interval keeps a silence from stretching to nearly two intervals.
    const ticker = setInterval(() => hub.heartbeat(heartbeatMs), Math.max(10, Math.floor(heartbeatMs / 5)));
    ticker.unref();
    ctx.onClose(() => {
      clearInterval(ticker);
      unsubscribe();
    });

    /**
     * The user a session token belongs to. The auth service offers no token lookup outside a request, and its
     * request hook is the one place that knows sessions, API keys and user sources; so the token is handed to that
     * hook on an in-process request to GET /ws, which answers the resolved user only when the request carries this
     * process's random secret (never sent over the network). Everything auth does for HTTP — expiry, inactive
     * users, whichever user source is installed — applies to sockets alike.
     */
    async function identify(credential: Record<string, string>): Promise<RequestUser | null> {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/ws',
        headers: { ...credential, [IDENTIFY_HEADER]: secret.toString() },
      });
      if (response.statusCode !== 200) throw new Error(`identity lookup answered ${response.statusCode}`);
      return (response.json() as { user: RequestUser | null }).user;
    }

    /**
     * A socket lives as long as the credential it was opened with: when a session ends (logout, an administrator
     * ending it, the user disabled or deleted) its sockets close, and a change of the user's access applies to what
     * they are sent from then on.
     */
    let recheck: NodeJS.Timeout | null = null;
    const unsubscribeChanges = ctx.events.subscribe(IDENTITIES_CHANGED, () => {
      recheck ??= setTimeout(() => {
        recheck = null;
        void recheckSockets().catch((error) =>
          ctx.log.error({ err: error }, 'could not check websocket sessions'),
        );
      }, RECHECK_DELAY_MS);
    });
    ctx.onClose(() => {
      unsubscribeChanges();
      if (recheck) clearTimeout(recheck);
    });

    async function recheckSockets(): Promise<void> {
      for (const client of hub.authorised()) {
        const user = client.credential ? await identify(client.credential) : null;
        if (!user) client.socket.close(POLICY_VIOLATION, 'Session ended');
        else client.user = user;
      }
    }

    await ctx.app.register(websocket, { options: { maxPayload: 64 * 1024 } });

    ctx.app.route({
      method: 'GET',
      url: '/ws',
      schema: { hide: true },
      // Plain HTTP GET: only the identity lookup above; browsers and curl get a 400.
      handler: async (request) => {
        if (!sameSecret(request.headers[IDENTIFY_HEADER], secret))
          throw new BadRequest('/ws only accepts WebSocket connections');
        return { user: request.user };
      },
      wsHandler: (socket: WebSocket, request) => {
        const client = hub.add(socket);
        // A token in ?token= or the accessToken cookie was already resolved by the auth hook on the upgrade request.
        const upgradeUser = request.user;
        const upgradeCredential = credentialOf(request);
        const refuse = (reason: string) => socket.close(POLICY_VIOLATION, reason);
        const timeout = setTimeout(() => {
          if (!client.user) refuse('Not authorised within 3 seconds');
        }, AUTH_TIMEOUT_MS);

        async function handle(data: RawData): Promise<void> {
          let parsed: unknown;
          try {
            parsed = JSON.parse(data.toString());
          } catch {
            parsed = undefined;
          }
          const isAuth =
            typeof parsed === 'object' && parsed !== null && (parsed as { topic?: unknown }).topic === 'auth';
          if (!isAuth) {
            // Before authorising, anything else is a client speaking another protocol; afterwards it is ignored.
            if (!client.user) refuse('The first message must be {"topic": "auth", "token": ...}');
            return;
          }
          if (check(AuthMessage, parsed, ['message']).length > 0) return refuse('Malformed auth message');
          const message = parsed as AuthMessage;
          const credential = message.token ? { authorization: `Bearer ${message.token}` } : null;
          const user = credential ? await identify(credential) : (client.user ?? upgradeUser);
          if (socket.readyState !== socket.OPEN) return;
          if (!user) return refuse(message.token ? 'Invalid or expired token' : 'Not logged in');
          clearTimeout(timeout);
          client.credential = credential ?? client.credential ?? upgradeCredential;
          const wasAuthorised = hub.authorise(client, user, message.subscribe ?? [], message.project ?? null);
          if (!wasAuthorised)
            hub.send(
              client,
              serverMessage('server.started', `Pipewright, AYON API ${ctx.server.apiVersion}`),
            );
        }

        // Messages are handled one at a time, so a slow token lookup cannot reorder subscription changes.
        let queue = Promise.resolve();
        socket.on('message', (data) => {
          queue = queue
            .then(() => handle(data))
            .catch((error) => {
              ctx.log.error({ err: error }, 'websocket message failed');
              socket.close(INTERNAL_ERROR, 'Internal error');
            });
        });
        socket.on('close', () => {
          clearTimeout(timeout);
          hub.remove(client);
        });
        socket.on('error', (error) => ctx.log.debug({ err: error }, 'websocket error'));
      },
    });
  },
});
