import { Id, JsonObject, Type, User, UserName, UserNameKey } from '@pipewright/sdk';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

// The shortest length is the operator's (PASSWORD_MIN_LENGTH), checked by the users service.
export const Password = Type.String({
  description: 'At least PASSWORD_MIN_LENGTH characters (8 unless configured)',
});

/** Keys are kept only as hashes, so any text will do, as in AYON; the keys Pipewright makes are 32 hex. */
const ApiKeyInput = Type.String({ description: 'Any text; generated keys are 32 lowercase hex characters' });
const ApiKeyValue = Type.String({ pattern: '^[0-9a-f]{32}$', description: '32 lowercase hex characters' });

/** Built-in user attributes; studios may add more (user-scoped attributes), hence additionalProperties. */
const attribFields = {
  fullName: Type.String(),
  email: Type.String(),
  avatarUrl: Type.String(),
  developerMode: Type.Boolean(),
};

const roleFields = {
  isAdmin: Type.Boolean(),
  isManager: Type.Boolean(),
  isService: Type.Boolean(),
  isGuest: Type.Boolean(),
  isDeveloper: Type.Boolean(),
  defaultAccessGroups: Type.Array(Type.String()),
};

const optional = <T extends Record<string, any>>(fields: T, nullable: boolean) =>
  Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [k, Type.Optional(nullable ? Nullable(v) : v)]),
  ) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

/** AYON's user attributes are all optional: a new user's may be sent as null, and are then simply not set. */
export const UserAttrib = Type.Object(optional(attribFields, true), { additionalProperties: true });
export const UserData = Type.Object(optional(roleFields, false), { additionalProperties: true });
export const UserDataPatch = Type.Object(optional(roleFields, true), { additionalProperties: true });

export const NewUser = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ default: true })),
    attrib: Type.Optional(UserAttrib),
    data: Type.Optional(UserData),
    password: Type.Optional(Password),
    apiKey: Type.Optional(ApiKeyInput),
  },
  { additionalProperties: false },
);

export const UserPatch = Type.Object(
  {
    active: Type.Optional(Type.Boolean()),
    attrib: Type.Optional(UserAttrib),
    data: Type.Optional(UserDataPatch),
  },
  { additionalProperties: false },
);

export const UserList = Type.Object({ count: Type.Integer(), users: Type.Array(User) });
export const UserListQuery = Type.Object(
  { active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const ApiKeyParams = Type.Object({ user_name: UserName, entity_id: Id });

/** AYON's ChangePasswordRequestModel: a password, or (administrators, for a service user) its API key. */
export const PasswordChange = Type.Object(
  {
    password: Type.Optional(Password),
    apiKey: Type.Optional(ApiKeyValue),
    currentPassword: Type.Optional(
      Type.String({
        description:
          'Your current password: required to change your own (not when an administrator sets yours)',
      }),
    ),
  },
  { additionalProperties: false },
);
export const PasswordCheck = Type.Object({ password: Password }, { additionalProperties: false });
export const RenameRequest = Type.Object({ newName: UserNameKey }, { additionalProperties: false });

export const ApiKey = Type.Object({
  id: Id,
  label: Type.String(),
  preview: Type.String(),
  created: Type.String({ format: 'date-time' }),
  expires: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export const NewApiKey = Type.Object(
  {
    label: Type.String(),
    key: Type.Optional(ApiKeyInput),
    expires: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export const ApiKeyCreated = Type.Object({ id: Id, key: ApiKeyValue });
export const ApiKeyPatch = Type.Object(
  {
    label: Type.Optional(Type.String()),
    expires: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  },
  { additionalProperties: false },
);

export const PasswordResetRequest = Type.Object(
  {
    email: Type.String({ description: 'The address of the account' }),
    url: Type.String({
      description: 'The web page that takes the token: the mailed link is this URL with ?token=<token> added',
    }),
  },
  { additionalProperties: false },
);

export const PasswordReset = Type.Object(
  {
    token: Type.String({ description: 'The token of the mailed link' }),
    // Without a password the token is only checked (a web page asks for the new password once it knows the link works).
    password: Type.Optional(Password),
  },
  { additionalProperties: false },
);

/** A login answer once the password is set; only detail when the token was just checked. */
/** AYON's LoginResponseModel: the fields a token check leaves unset are null. */
export const PasswordResetAnswer = Type.Object({
  detail: Type.String(),
  error: Type.Union([Type.String(), Type.Null()]),
  token: Type.Union([
    Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Session token of the new login' }),
    Type.Null(),
  ]),
  user: Type.Union([JsonObject, Type.Null()]),
  redirectUrl: Type.Union([Type.String(), Type.Null()]),
});
