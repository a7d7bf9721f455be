import { randomBytes, timingSafeEqual } from 'node:crypto';
import websocket from '@fastify/websocket';
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
    async function identify(token: string): Promise<RequestUser | null> {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/ws',
        headers: { [IDENTIFY_HEADER]: secret.toString(), authorization: `Bearer ${token}` },
      });
      if (response.statusCode !== 200) throw new Error(`identity lookup answered ${response.statusCode}`);
      return (response.json() as { user: RequestUser | null }).user;
    }

    await ctx.app.register(websocket, { options: { maxPayload: 64 * 1024 } });

    ctx.app.route({
      method: 'GET',
      url: '/ws',
      schema: { hide: true },
      // Plain HTTP GET: only the identity lookup above; browsers and curl get a 400.
      handler: async (request) => {
        if (!sameSecret(request.headers[IDENTIFY_HEADER], secret)) throw new BadRequest('/ws only accepts WebSocket connections');
        return { user: request.user };
      },
      wsHandler: (socket: WebSocket, request) => {
        const client = hub.add(socket);
        // A token in ?token= or the accessToken cookie was already resolved by the auth hook on the upgrade request.
        const upgradeUser = request.user;
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
          const isAuth = typeof parsed === 'object' && parsed !== null && (parsed as { topic?: unknown }).topic === 'auth';
          if (!isAuth) {
            // Before authorising, anything else is a client speaking another protocol; afterwards it is ignored.
            if (!client.user) refuse('The first message must be {"topic": "auth", "token": ...}');
            return;
          }
          if (check(AuthMessage, parsed, ['message']).length > 0) return refuse('Malformed auth message');
          const message = parsed as AuthMessage;
          const user = message.token ? await identify(message.token) : (client.user ?? upgradeUser);
          if (socket.readyState !== socket.OPEN) return;
          if (!user) return refuse(message.token ? 'Invalid or expired token' : 'Not logged in');
          clearTimeout(timeout);
          const wasAuthorised = hub.authorise(client, user, message.subscribe ?? [], message.project ?? null);
          if (!wasAuthorised) hub.send(client, serverMessage('server.started', `Pipewright, AYON API ${ctx.server.apiVersion}`));
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
