import { Id, JsonObject, ProjectParams, ProjectName, Type, type Static } from '@pipewright/sdk';

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: 'date-time' });

/** A link or session token: 32 random bytes in base64url. */
export const Token = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: '43 base64url characters' });

export const LinkCreate = Type.Object({
  listId: Type.Optional(Id),
  versionId: Type.Optional(Id),
  label: Type.Optional(Type.String({ maxLength: 200, description: 'What guests see as the title' })),
  expiresAt: Type.Optional(Type.Union([Time, Type.Null()], { description: 'None: the link never expires' })),
  password: Type.Optional(
    Type.Union([Type.String({ minLength: 4, maxLength: 200 }), Type.Null()], {
      description: 'Guests give it once, when they open the link',
    }),
  ),
  canComment: Type.Boolean({ default: false }),
  canDownload: Type.Boolean({ default: false }),
  canApprove: Type.Boolean({ default: false }),
});
export type LinkCreate = Static<typeof LinkCreate>;

export const LinkCreated = Type.Object({
  id: Id,
  token: Token,
  url: Type.String({
    description: 'The path of the guest page, /guest#<token>: shown this once, never again',
  }),
});

export const GuestLink = Type.Object({
  id: Id,
  projectName: Type.String(),
  target: Type.Union([Type.Literal('list'), Type.Literal('version')]),
  targetId: Id,
  label: Type.String(),
  expiresAt: nullable(Time),
  hasPassword: Type.Boolean(),
  canComment: Type.Boolean(),
  canDownload: Type.Boolean(),
  canApprove: Type.Boolean(),
  createdBy: Type.String(),
  createdAt: Time,
  revokedAt: nullable(Time),
  revokedBy: nullable(Type.String()),
  active: Type.Boolean({ description: 'Neither revoked nor expired' }),
});

export const LinkQuery = Type.Object({
  listId: Type.Optional(Id),
  versionId: Type.Optional(Id),
});

export const LinkList = Type.Object({ links: Type.Array(GuestLink) });

export const LinkParams = Type.Object({ project_name: ProjectName, guest_link_id: Id });
export { ProjectParams };

export const LinkLog = Type.Object({
  entries: Type.Array(
    Type.Object({
      at: Time,
      action: Type.String({ description: 'open, download, comment, approve, revoke or password-refused' }),
      guestName: nullable(Type.String()),
      address: nullable(Type.String()),
      detail: nullable(Type.String()),
    }),
  ),
});

// The guest's side.

export const PeekBody = Type.Object({ token: Token });
export const PeekAnswer = Type.Object({
  needsPassword: Type.Boolean(),
  label: nullable(Type.String({ description: 'Null while a password is needed' })),
  expiresAt: nullable(Time),
});

export const OpenBody = Type.Object({
  token: Token,
  name: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The name the guest goes by: comments carry it',
  }),
  password: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
});
export const OpenAnswer = Type.Object({
  session: Token,
  guestName: Type.String(),
});

/** Every guest route after opening takes its session in the x-guest-session header (or ?session= for media). */
export const SessionHeaders = Type.Object({
  'x-guest-session': Type.Optional(
    Type.String({ description: 'The session answered by POST /api/guest/open' }),
  ),
});
export const SessionQuery = Type.Object({
  session: Type.Optional(
    Type.String({ description: 'The session, where a header cannot be sent (<video src>)' }),
  ),
});
export const FileQuery = Type.Object({
  session: Type.Optional(Type.String()),
  download: Type.Boolean({ default: false, description: 'As an attachment (links that allow downloads)' }),
});

export const FileParams = Type.Object({ file_id: Id });
export const VersionParams = Type.Object({ version_id: Id });
export const ReviewableParams = Type.Object({ version_id: Id, activity_id: Id });

const Reviewable = Type.Object({
  activityId: Id,
  fileId: Id,
  label: nullable(Type.String()),
  filename: Type.String(),
  mimetype: Type.String(),
  mediaInfo: Type.Union([JsonObject, Type.Null()]),
  fps: Type.Number(),
  firstFrame: Type.Integer({ description: "The number of the media's first frame (annotations use these)" }),
  frameCount: Type.Integer(),
});

export const GuestItems = Type.Object({
  label: Type.String(),
  projectName: Type.String(),
  guestName: Type.String(),
  expiresAt: nullable(Time),
  canComment: Type.Boolean(),
  canDownload: Type.Boolean(),
  canApprove: Type.Boolean(),
  versions: Type.Array(
    Type.Object({
      id: Id,
      title: Type.String({ description: '"sh010 / compMain v003"' }),
      name: Type.String(),
      version: Type.Integer(),
      status: Type.String(),
      productName: Type.String(),
      folderPath: Type.String(),
      frameStart: Type.Integer(),
      frameEnd: Type.Union([Type.Integer(), Type.Null()]),
      handleStart: Type.Integer(),
      handleEnd: Type.Integer(),
      reviewables: Type.Array(Reviewable),
    }),
  ),
});

export const GuestAnnotations = Type.Object({
  annotations: Type.Array(
    Type.Object({
      id: Type.String(),
      frame: Type.Integer(),
      color: Type.String(),
      shape: JsonObject,
    }),
  ),
});

export const GuestComments = Type.Object({
  comments: Type.Array(
    Type.Object({
      id: Id,
      author: Type.String(),
      guest: Type.Boolean({ description: 'Written through a guest link' }),
      body: Type.String(),
      frame: Type.Union([Type.Integer(), Type.Null()]),
      frameEnd: Type.Union([Type.Integer(), Type.Null()]),
      reviewableId: Type.Union([Id, Type.Null()]),
      createdAt: Time,
    }),
  ),
});

export const CommentBody = Type.Object({
  body: Type.String({ minLength: 1, maxLength: 10000 }),
  frame: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  frameEnd: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  reviewableId: Type.Optional(Type.Union([Id, Type.Null()])),
});

export const Approved = Type.Object({ status: Type.String() });
