import { Type, type Static } from '@sinclair/typebox';

/** 32 lowercase hex characters: every entity id on the wire. */
export const Id = Type.String({
  pattern: '^[0-9a-f]{32}$',
  description: '32 lowercase hex characters',
  examples: ['af10c8f0e9b011ed9a160242ac120002'],
});

/** Project names: letters, digits and underscore. */
export const ProjectName = Type.String({
  pattern: '^[a-zA-Z0-9_]+$',
  minLength: 1,
  maxLength: 64,
  examples: ['demo_Commercial'],
});

/** Folder, task, product and representation names: inner dots and hyphens allowed. */
export const EntityName = Type.String({
  pattern: '^[a-zA-Z0-9_]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9_])?$',
  minLength: 1,
  maxLength: 255,
});

/** User and team member names: start and end with a letter or digit. */
export const UserName = Type.String({
  pattern: '^[a-zA-Z0-9]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9])?$',
  minLength: 1,
  maxLength: 128,
  examples: ['admin'],
});

/** Sender, access group and similar names: letters, digits, underscore, inner dots and hyphens. */
export const SimpleName = Type.String({
  pattern: '^[a-zA-Z0-9_]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9_])?$',
  minLength: 1,
  maxLength: 128,
});

/** Optional x-sender and x-sender-type headers that many writes accept. */
export const SenderHeaders = Type.Object({
  'x-sender': Type.Optional(SimpleName),
  'x-sender-type': Type.Optional(SimpleName),
});

/** Body of every error answer other than 422. */
export const ErrorResponse = Type.Object(
  { code: Type.Integer(), detail: Type.String() },
  { $id: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

/** Body of a 422 answer. */
export const ValidationErrorResponse = Type.Object(
  {
    detail: Type.String(),
    errors: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        type: Type.String(),
      }),
    ),
  },
  { $id: 'ValidationErrorResponse' },
);

/** Answer of a create: 201 with the new id. */
export const CreatedResponse = Type.Object({ id: Id });

/** Answer of a 204: no body. */
export const NoContent = Type.Null({ description: 'No content' });

/** A free JSON object (attrib, data, settings overrides, ...). */
export const JsonObject = Type.Record(Type.String(), Type.Unknown());
