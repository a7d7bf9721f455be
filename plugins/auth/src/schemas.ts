import { Id, JsonObject, Type, UserName } from '@pipewright/sdk';

export const LoginRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, description: 'User name (case-insensitive)' }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
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

export const Session = Type.Object({
  id: Id,
  token: Id,
  user: Type.String(),
  created: Type.String({ format: 'date-time' }),
  lastUsed: Type.String({ format: 'date-time' }),
  isApiKey: Type.Boolean(),
  isCurrent: Type.Boolean(),
  clientInfo: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
});

export const SessionList = Type.Object({ sessions: Type.Array(Session) });

export const CreateSessionRequest = Type.Object(
  {
    userName: Type.Optional(
      Type.Union([UserName, Type.Null()], { description: 'Another user (services); yourself when absent' }),
    ),
    message: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
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
  clientInfo: Type.Union([Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])), Type.Null()]),
});

export const UserSessionParams = Type.Object({ user_name: UserName });
export const SessionParams = Type.Object({ user_name: UserName, session_id: Id });

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
