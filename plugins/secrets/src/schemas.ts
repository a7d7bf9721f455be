import { Type } from '@pipewright/sdk';

/** Largest value accepted, in UTF-8 bytes (64 KiB): secrets are tokens and keys, not files. */
export const MAX_VALUE_BYTES = 64 * 1024;

export const SecretName = Type.String({
  pattern: '^[a-zA-Z0-9_][a-zA-Z0-9_.\\-]{0,127}$',
  minLength: 1,
  maxLength: 128,
  examples: ['ftrack_api_key'],
});

export const SecretParams = Type.Object({ secret_name: SecretName });

// AYON clients send {name, value}; the name in the path is the one that counts, so a body name is accepted and ignored.
export const SecretPut = Type.Object(
  {
    value: Type.String({ maxLength: MAX_VALUE_BYTES, description: 'At most 64 KiB' }),
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
