import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AddonApp, NotFound, Type, UserParams } from '@pipewright/sdk';
import { AVATAR_LIMIT, readAvatar } from './avatar-image.js';
import type { AvatarStore } from './avatars.js';
import { initialsAvatar } from './initials-avatar.js';
import { requireSelfOrAdmin } from './policy.js';
import type { UserService } from './service.js';

// A minute of staleness is harmless for a face in a list; after it, the browser revalidates with the ETag and
// usually gets a bodiless 304. private: the answer needs a login, so shared caches must not keep it.
const CACHE_CONTROL = 'private, max-age=60';
// An uploaded SVG opened on its own (not in an <img>) would run its scripts with this server's origin: forbid
// everything active in any avatar answer.
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const Done = Type.Null({ description: 'Done (AYON answers 200 with no content)' });

function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

function sendImage(request: FastifyRequest, reply: FastifyReply, mime: string, bytes: Buffer, etag: string) {
  reply
    .header('cache-control', CACHE_CONTROL)
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', CONTENT_SECURITY_POLICY);
  if (notModified(request, etag)) return reply.code(304).send();
  return reply.code(200).header('content-type', mime).send(bytes);
}

/** GET, PUT and DELETE /api/users/{user_name}/avatar. */
export function avatarRoutes(users: UserService, avatars: AvatarStore) {
  /** The caller and the user whose picture they may change: their own, or anyone's for an administrator. */
  async function changeable(request: FastifyRequest, userName: string) {
    // Refused before the lookup: who may not change it learns nothing about the name.
    requireSelfOrAdmin(request.caller, userName);
    return { caller: request.caller, user: await users.require(userName) };
  }

  return async (app: AddonApp) => {
    // Uploads are raw image bytes of whatever declared type (the bytes decide), so this context reads bodies
    // itself; the other user routes keep their JSON parser.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    app.get(
      '/api/users/:user_name/avatar',
      {
        schema: {
          summary: "A user's picture: the uploaded one, else their initials (SVG)",
          description:
            'Any logged-in user may read any avatar. For <img> tags the session token may come as ?token= or as ' +
            'the accessToken cookie. Answers carry an ETag and may be revalidated with If-None-Match (304).',
          params: UserParams,
          response: { 200: Type.Any({ description: 'A PNG, JPEG, WebP or SVG image' }) },
        },
      },
      async (request, reply) => {
        const subject = await avatars.read(request.params.user_name);
        if (!subject) throw new NotFound(`User ${request.params.user_name} not found`);
        if (subject.avatar) {
          const { mime, bytes, hash } = subject.avatar;
          return sendImage(request, reply, mime, bytes, `"${hash}"`);
        }
        // AYON fetches attrib.avatarUrl from the server when it is set; that would let any user make the server
        // request an address of their choosing, so the initials stand in for it (clients may show avatarUrl).
        const svg = initialsAvatar(subject.name, subject.fullName);
        const etag = `"i-${createHash('sha256').update(svg).digest('hex').slice(0, 30)}"`;
        return sendImage(request, reply, 'image/svg+xml', svg, etag);
      },
    );

    app.put(
      '/api/users/:user_name/avatar',
      {
        schema: {
          summary:
            'Upload a picture for a user (the raw image bytes as the body): the user or an administrator',
          description:
            `PNG, JPEG, WebP or SVG, recognised from the bytes whatever the Content-Type says; up to ${AVATAR_LIMIT} ` +
            'bytes (413 beyond). An empty body or another format answers 422. Emits user.updated.',
          params: UserParams,
          response: { 200: Done },
        },
      },
      async (request) => {
        const { caller, user } = await changeable(request, request.params.user_name);
        const { bytes, mime } = await readAvatar(request);
        await avatars.put(user.name, mime, bytes, { user: caller.name });
        return null;
      },
    );

    app.delete(
      '/api/users/:user_name/avatar',
      {
        schema: {
          summary: "Remove a user's picture (their initials show again): the user or an administrator",
          params: UserParams,
          response: { 200: Done },
        },
      },
      async (request) => {
        const { caller, user } = await changeable(request, request.params.user_name);
        await avatars.remove(user.name, { user: caller.name });
        return null;
      },
    );
  };
}
