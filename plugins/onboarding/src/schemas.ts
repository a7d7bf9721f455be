import { JsonObject, Type, User, UserNameKey } from '@pipewright/sdk';

export const InfoQuery = Type.Object(
  {
    full: Type.Optional(Type.Boolean({ default: false, description: 'Add the addons and the server time' })),
  },
  { additionalProperties: false },
);

export const Info = Type.Object({
  motd: Type.Optional(Type.String({ description: 'The login page message; left out when there is none' })),
  version: Type.String({ description: 'AYON API version the server speaks' }),
  noAdminUser: Type.Boolean({ description: 'True until the first administrator is created' }),
  passwordRecoveryAvailable: Type.Boolean({
    description: 'Whether a password reset link can be mailed (SMTP_URL and PUBLIC_URL are set)',
  }),
  onboarding: Type.Optional(
    Type.Boolean({ description: 'True while an administrator should see the setup wizard' }),
  ),
  uptime: Type.Optional(Type.Number({ description: 'Seconds since the server process started' })),
  user: Type.Optional(User),
  attributes: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String(),
        position: Type.Number(),
        scope: Type.Array(Type.String()),
        builtin: Type.Boolean(),
        data: JsonObject,
      }),
      { description: 'The attribute definitions, as GET /api/attributes lists them' },
    ),
  ),
  sites: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        platform: Type.Union([Type.String(), Type.Null()]),
        hostname: Type.Union([Type.String(), Type.Null()]),
        version: Type.Union([Type.String(), Type.Null()]),
        users: Type.Array(Type.String()),
      }),
      { description: "The client sites the caller worked from, the request's own (x-ayon-site-id) first" },
    ),
  ),
  ssoOptions: Type.Optional(Type.Array(JsonObject, { description: 'Single sign-on providers (none here)' })),
  disableChangelog: Type.Optional(
    Type.Boolean({ description: 'Whether to hide the changelog from the caller' }),
  ),
  serverTime: Type.Optional(Type.String({ format: 'date-time' })),
  addons: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: 'Loaded addons: name to version' }),
  ),
});

export const InitializeRequest = Type.Object(
  {
    adminName: UserNameKey,
    adminPassword: Type.String({
      description: 'At least PASSWORD_MIN_LENGTH characters (8 unless configured)',
    }),
    // Free text, as in AYON: stored in the user's attributes, which no index holds.
    adminFullName: Type.Optional(Type.String()),
    adminEmail: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const LoginResponse = Type.Object({
  detail: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  token: Type.String(),
  user: JsonObject,
  redirectUrl: Type.Union([Type.String(), Type.Null()]),
});
