import { timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { BadRequest, check, type AddonApp, type RequestUser } from '@pipewright/sdk';
import type { Hub } from './hub.js';
import { AuthMessage, serverMessage } from './protocol.js';

/** AYON clients get 3 s to authorise before the socket is dropped. */
const AUTH_TIMEOUT_MS = 3000;
/** Policy violation: the close code browsers and ayon-python-api report for rejected credentials. */
export const POLICY_VIOLATION = 1008;
const INTERNAL_ERROR = 1011;
/** Carries this process's secret on the in-process identity lookup (see identify in index.ts). */
export const IDENTIFY_HEADER = 'x-pipewright-ws-identify';

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

/** What the socket route works with: the hub of open sockets and the lookup of a credential's user. */
export interface SocketParts {
  hub: Hub;
  identify(credential: Record<string, string>): Promise<RequestUser | null>;
  /** This process's secret, which only the in-process identity lookup carries. */
  secret: Buffer;
  log: FastifyBaseLogger;
  apiVersion: string;
}

/** GET /ws: the WebSocket of live events, and (with this process's secret) the identity lookup behind it. */
export function socketRoutes({ hub, identify, secret, log, apiVersion }: SocketParts) {
  return async (app: AddonApp) => {
    app.route({
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
            hub.send(client, serverMessage('server.started', `Pipewright, AYON API ${apiVersion}`));
        }

        // Messages are handled one at a time, so a slow token lookup cannot reorder subscription changes.
        let queue = Promise.resolve();
        socket.on('message', (data) => {
          queue = queue
            .then(() => handle(data))
            .catch((error) => {
              log.error({ err: error }, 'websocket message failed');
              socket.close(INTERNAL_ERROR, 'Internal error');
            });
        });
        socket.on('close', () => {
          clearTimeout(timeout);
          hub.remove(client);
        });
        socket.on('error', (error) => log.debug({ err: error }, 'websocket error'));
      },
    });
  };
}
