import { INDEXED_KEY_MAX_LENGTH, Type } from '@pipewright/sdk';

/** A secret's name: AYON's name rule (trailing dots and hyphens let in), of any length; one nobody stored is not found. */
export const SecretName = Type.String({
  pattern: '^[a-zA-Z0-9_][a-zA-Z0-9_.\\-]*$',
  examples: ['ftrack_api_key'],
});

export const SecretParams = Type.Object({ secret_name: SecretName });

/** The name a secret is stored under, its primary key: held to what an index key takes. */
export const StoredSecretParams = Type.Object({
  secret_name: Type.String({ ...SecretName, maxLength: INDEXED_KEY_MAX_LENGTH }),
});

// AYON clients send {name, value}; the name in the path is the one that counts, so a body name is accepted and ignored.
export const SecretPut = Type.Object(
  {
    value: Type.String(),
    name: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/**
 * A secret as a caller may see it: managers get the name only, admins the value too. A value the server cannot
 * decrypt is shown as null with a detail saying why, so one bad row never turns the whole list into an error.
 */
export const Secret = Type.Object({
  name: Type.String(),
  value: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  detail: Type.Optional(Type.String()),
});

export const SecretList = Type.Array(Secret);
