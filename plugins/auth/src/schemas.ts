import { Id, JsonObject, Type, UserName } from '@pipewright/sdk';

export const LoginRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, description: 'User name (case-insensitive)' }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const LoginResponse = Type.Object({
  detail: Type.String(),
  token: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Session token: send it as "Authorization: Bearer <token>"' }),
  user: JsonObject,
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
  { userName: UserName, message: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);

export const UserSessionParams = Type.Object({ user_name: UserName });
export const SessionParams = Type.Object({ user_name: UserName, session_id: Id });
