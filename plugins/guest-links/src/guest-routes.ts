import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreatedResponse, type AddonApp } from '@pipewright/sdk';
import type { GuestConnections } from './connections.js';
import { PasswordThrottled, type Guest, type GuestService } from './guest-service.js';
import { endOf } from './links.js';
import { mediaHeaders, RangeNotSatisfiable, requestedRange } from './media.js';
import {
  Approved,
  CommentBody,
  FileParams,
  FileQuery,
  GuestAnnotations,
  GuestComments,
  GuestItems,
  OpenAnswer,
  OpenBody,
  PeekAnswer,
  PeekBody,
  ReviewableParams,
  SessionHeaders,
  SessionQuery,
  VersionParams,
} from './schemas.js';

const GUEST = 'Guest links';
/** Open to callers without an account: guests prove themselves with the link's token, then its session. */
const OPEN = { security: [], tags: [GUEST] };
/** How often a live connection says it is alive, so proxies keep it open. */
const HEARTBEAT_MS = 15_000;

/** The guest behind a request: its session from x-guest-session, or ?session= where no header can go. */
function guestOf(guests: GuestService, request: FastifyRequest): Promise<Guest> {
  const header = request.headers['x-guest-session'];
  const query = (request.query as { session?: string } | undefined)?.session;
  return guests.guest(typeof header === 'string' && header ? header : query, request.ip);
}

/** Keep an answer's connection with its link, so revoking (or the link expiring) ends it at once. */
function holdOpen(
  connections: GuestConnections,
  guest: Guest,
  reply: FastifyReply,
  close: (reason: string) => void,
) {
  const release = connections.add(guest.linkId, { close }, guest.link.expires_at);
  reply.raw.once('close', release);
}

/** What guests call: no account, a link's token to open it, then the session it answers. */
export function guestRoutes(guests: GuestService, connections: GuestConnections) {
  return async (app: AddonApp) => {
    // Streams and live connections must not hold a shutting-down server open.
    app.addHook('preClose', (done) => {
      connections.closeAll();
      done();
    });

    app.post(
      '/api/guest/link',
      {
        schema: {
          ...OPEN,
          summary: 'What a guest link is, before opening it: whether it needs a password',
          description: '404 for a token no link has, 403 when the link was revoked or has expired.',
          body: PeekBody,
          response: { 200: PeekAnswer },
        },
      },
      async (request) => guests.peek(request.body.token),
    );

    app.post(
      '/api/guest/open',
      {
        schema: {
          ...OPEN,
          summary: 'Open a guest link under a name (and its password): a guest session',
          description:
            'The session goes in the x-guest-session header of every later guest request. 404 for an unknown ' +
            'token, 403 for a revoked or expired link, 401 for a wrong or missing password, 429 (with Retry-After) ' +
            'after 5 wrong passwords within 15 minutes.',
          body: OpenBody,
          response: { 200: OpenAnswer },
        },
      },
      async (request, reply) => {
        const { token, name, password } = request.body;
        try {
          return await guests.open(token, name, password, request.ip);
        } catch (error) {
          if (error instanceof PasswordThrottled)
            reply.header('retry-after', String(error.retryAfterSeconds));
          throw error;
        }
      },
    );

    app.get(
      '/api/guest/items',
      {
        schema: {
          ...OPEN,
          summary:
            "What the guest's link shows: its versions with their reviewables, and what the guest may do",
          headers: SessionHeaders,
          response: { 200: GuestItems },
        },
      },
      async (request) => guests.items(await guestOf(guests, request)),
    );

    app.get(
      '/api/guest/files/:file_id',
      {
        schema: {
          ...OPEN,
          summary: "The bytes of one of the link's reviewables; a Range header gets part of them (206)",
          description:
            'Files of other reviewables answer 404. download=true answers it as an attachment, when the link allows ' +
            'downloads (403 otherwise), and is logged. Revoking the link cuts the answer off mid-stream.',
          params: FileParams,
          querystring: FileQuery,
          headers: SessionHeaders,
        },
      },
      async (request, reply) => {
        const guest = await guestOf(guests, request);
        const download = request.query.download;
        const file = await guests.file(guest, request.params.file_id, download);
        let range;
        try {
          range = requestedRange(request.headers.range, file.size);
        } catch (error) {
          if (error instanceof RangeNotSatisfiable) reply.header('content-range', `bytes */${error.size}`);
          throw error;
        }
        const bytes = await guests.bytes(guest, file.id, range ?? undefined);
        holdOpen(connections, guest, reply, () => {
          bytes.destroy();
          reply.raw.destroy();
        });
        reply.headers(mediaHeaders(file, download));
        if (range)
          reply
            .code(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
            .header('content-length', String(range.end - range.start + 1));
        else reply.header('content-length', String(file.size));
        return reply.send(bytes);
      },
    );

    app.get(
      '/api/guest/live',
      {
        schema: {
          ...OPEN,
          summary: "A live connection (server-sent events) that ends when the guest's link ends",
          description:
            'Sends "open" at once, then a comment line every 15 s; when the link is revoked or expires it sends ' +
            '"ended" with the reason and closes. The session may come as ?session= for EventSource.',
          querystring: SessionQuery,
          headers: SessionHeaders,
        },
      },
      async (request, reply) => {
        const guest = await guestOf(guests, request);
        const stream = new PassThrough();
        const send = (event: string, data: unknown) =>
          stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        const heartbeat = setInterval(() => stream.write(': alive\n\n'), HEARTBEAT_MS);
        heartbeat.unref();
        holdOpen(connections, guest, reply, (reason) => {
          const detail = endOf({
            ...guest.link,
            revoked_at: reason === 'revoked' ? new Date() : guest.link.revoked_at,
          });
          send('ended', { reason, detail: detail ?? 'This guest link has ended' });
          stream.end();
        });
        reply.raw.once('close', () => clearInterval(heartbeat));
        send('open', { guestName: guest.session.guest_name });
        return reply
          .headers({
            'content-type': 'text/event-stream',
            'cache-control': 'no-store',
            'x-accel-buffering': 'no',
          })
          .send(stream);
      },
    );

    app.get(
      '/api/guest/versions/:version_id/reviewables/:activity_id/annotations',
      {
        schema: {
          ...OPEN,
          summary: "What was drawn on a reviewable of the link's versions (read only)",
          params: ReviewableParams,
          headers: SessionHeaders,
          response: { 200: GuestAnnotations },
        },
      },
      async (request) =>
        guests.annotations(
          await guestOf(guests, request),
          request.params.version_id,
          request.params.activity_id,
        ),
    );

    app.get(
      '/api/guest/versions/:version_id/comments',
      {
        schema: {
          ...OPEN,
          summary: "The comments of one of the link's versions, oldest first",
          params: VersionParams,
          headers: SessionHeaders,
          response: { 200: GuestComments },
        },
      },
      async (request) => guests.comments(await guestOf(guests, request), request.params.version_id),
    );

    app.post(
      '/api/guest/versions/:version_id/comments',
      {
        schema: {
          ...OPEN,
          summary: "Comment on one of the link's versions under the guest's name (links that allow comments)",
          description:
            'Kept as a comment of the version\'s feed, by "<name> (guest)" (a name no user can have), with ' +
            'data.guestName and data.guestLinkId; frame and frameEnd point at frames as the studio player numbers them.',
          params: VersionParams,
          headers: SessionHeaders,
          body: CommentBody,
          response: { 201: CreatedResponse },
        },
      },
      async (request, reply) => {
        const guest = await guestOf(guests, request);
        return reply.code(201).send(await guests.comment(guest, request.params.version_id, request.body));
      },
    );

    app.post(
      '/api/guest/versions/:version_id/approve',
      {
        schema: {
          ...OPEN,
          summary: "Approve one of the link's versions (links that allow approving)",
          description: 'Sets the version\'s status to the project\'s approved status, as "<name> (guest)".',
          params: VersionParams,
          headers: SessionHeaders,
          response: { 200: Approved },
        },
      },
      async (request) => guests.approve(await guestOf(guests, request), request.params.version_id),
    );
  };
}
