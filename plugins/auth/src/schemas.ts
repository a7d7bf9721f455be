import { JsonObject, Type, UserName, type TSchema } from '@pipewright/sdk';

export const LoginRequest = Type.Object(
  {
    name: Type.String({ description: 'User name (case-insensitive)' }),
    password: Type.String(),
  },
  { additionalProperties: false },
);

/** AYON's LoginResponseModel: error and redirectUrl are sent as null when unset. */
export const LoginResponse = Type.Object({
  detail: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  token: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description: 'Session token: send it as "Authorization: Bearer <token>"',
  }),
  user: JsonObject,
  redirectUrl: Type.Union([Type.String(), Type.Null()], {
    description: 'Where the web app should go after logging in (a login link may name it)',
  }),
});

export const DetailResponse = Type.Object({ detail: Type.String() });

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** AYON's ClientInfo: where a session was opened from. */
const ClientInfoModel = Nullable(
  Type.Object({
    ip: Type.String(),
    languages: Type.Array(Type.String()),
    location: Nullable(
      Type.Object({
        country: Nullable(Type.String()),
        subdivision: Nullable(Type.String()),
        city: Nullable(Type.String()),
      }),
    ),
    agent: Nullable(
      Type.Object({
        platform: Nullable(Type.String()),
        client: Nullable(Type.String()),
        device: Nullable(Type.String()),
      }),
    ),
    site_id: Nullable(Type.String()),
  }),
);

const SessionToken = Type.String({
  description: "The session's id (its secret token is never shown): end it with DELETE .../sessions/{token}",
});

/** AYON's SessionModel (times in seconds since the epoch), and whether it is the caller's own. */
export const Session = Type.Object({
  user: JsonObject,
  token: SessionToken,
  created: Type.Number(),
  lastUsed: Type.Number(),
  isService: Type.Boolean(),
  isApiKey: Type.Boolean(),
  clientInfo: ClientInfoModel,
  isCurrent: Type.Boolean(),
});

export const SessionList = Type.Array(Session);

/** AYON's UserSessionsResponseModel. */
export const UserSessionList = Type.Object({
  sessions: Type.Array(
    Type.Object({
      token: SessionToken,
      isService: Type.Boolean(),
      lastUsed: Type.Number(),
      clientInfo: ClientInfoModel,
    }),
  ),
});

export const CreateSessionRequest = Type.Object(
  {
    userName: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'Another user (services); yourself when absent',
      }),
    ),
    message: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);

/** AYON's SessionModel: a new session as POST /api/auth/sessions answers it (times in seconds since the epoch). */
export const CreatedSession = Type.Object({
  user: JsonObject,
  token: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  created: Type.Number(),
  lastUsed: Type.Number(),
  isService: Type.Boolean(),
  isApiKey: Type.Boolean(),
  clientInfo: ClientInfoModel,
});

export const SessionParams = Type.Object({ user_name: UserName, session_id: Type.String() });

export const TokenAuthQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 512, description: 'The token of the link the user followed' }),
});

/** A login answer, with where the link wants the web app to go next. */
export const TokenLoginResponse = LoginResponse;

/** Seats of a licence: a fixed number, or metered by use. */
export const UserPool = Type.Object({
  id: Type.String(),
  title: Type.String(),
  type: Type.Union([Type.Literal('fixed'), Type.Literal('metered')]),
  valid: Type.Boolean(),
  note: Type.String(),
  exp: Type.Integer({ description: 'Expiry, seconds since the epoch' }),
  max: Type.Integer(),
  used: Type.Integer(),
});
