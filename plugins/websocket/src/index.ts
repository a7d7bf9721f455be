import { randomBytes } from 'node:crypto';
import websocket from '@fastify/websocket';
import { addonPackage, defineAddon, type RequestUser } from '@pipewright/sdk';
import { Hub } from './hub.js';
import { IDENTIFY_HEADER, POLICY_VIOLATION, socketRoutes } from './routes.js';
import { authRef } from '@pipewright/plugin-auth/api';

export { accepts, Hub, toPrefix, type Client, type Socket } from './hub.js';
export { AuthMessage, toOutgoing, serverMessage, type OutgoingMessage } from './protocol.js';

const DEFAULT_HEARTBEAT_MS = 5000;
/** Sessions, keys or users changed (the auth addon's notice): open sockets are checked again. */
const IDENTITIES_CHANGED = 'auth.identities_changed';
/** Notices that arrive together (a logout ends a session, then a user changes) are handled once. */
const RECHECK_DELAY_MS = 100;

function heartbeatInterval(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_HEARTBEAT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 10 || value > 3_600_000) {
    throw new Error(`PIPEWRIGHT_WS_HEARTBEAT_MS must be an integer between 10 and 3600000, got "${raw}"`);
  }
  return value;
}

// Live events for AYON clients: every bus message (from this process or, through Redis, from the others) is
// filtered per socket and forwarded, so a client connected to any process sees the whole studio's activity.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  async setup(ctx) {
    // Read once: tests shorten it, operators have no reason to.
    const heartbeatMs = heartbeatInterval(process.env.PIPEWRIGHT_WS_HEARTBEAT_MS);
    const secret = Buffer.from(randomBytes(32).toString('hex'));
    const hub: Hub = new Hub((error) => ctx.log.debug({ err: error }, 'could not send to a websocket'));

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
    await ctx.app.register(
      socketRoutes({ hub, identify, secret, log: ctx.log, apiVersion: ctx.server.apiVersion }),
    );
  },
});
