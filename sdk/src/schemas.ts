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

/** Path parameters of a route under /api/projects/{project_name}. */
export const ProjectParams = Type.Object({ project_name: ProjectName });

/** A project named in a query string, where AYON reads an empty name as none (the studio level). */
export const ProjectNameQuery = Type.String({
  pattern: '^[a-zA-Z0-9_]*$',
  maxLength: ProjectName.maxLength,
  description: 'A project name; empty for none',
});

/**
 * Longest text a request may store as (part of) an index key. PostgreSQL refuses a btree entry over 2,704 bytes, an
 * error AYON answers with 500; at four bytes a character at most this leaves room for the other columns of a key.
 */
export const INDEXED_KEY_MAX_LENGTH = 500;

/**
 * The six project entity types, in AYON's order: schemas list them in this order in their enums, and error
 * messages that name them all keep it.
 */
export const PROJECT_ENTITY_TYPES = [
  'folder',
  'task',
  'product',
  'version',
  'representation',
  'workfile',
] as const;
/** One of the six project entity types. */
export type ProjectEntityType = (typeof PROJECT_ENTITY_TYPES)[number];

/** Folder, task, product and representation names: inner dots and hyphens allowed; unique among siblings. */
export const EntityName = Type.String({
  pattern: '^[a-zA-Z0-9_]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9_])?$',
  minLength: 1,
  maxLength: INDEXED_KEY_MAX_LENGTH,
});

/**
 * User and team member names: start and end with a letter or digit. No length cap, as in AYON: a name nobody has
 * is not found, and the router keeps path parameters short anyway (see INDEXED_KEY_MAX_LENGTH for stored names).
 */
export const UserName = Type.String({
  pattern: '^[a-zA-Z0-9]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9])?$',
  minLength: 1,
  examples: ['admin'],
});

/** Path parameters of a route under /api/users/{user_name}. */
export const UserParams = Type.Object({ user_name: UserName });

/** A user name the request stores where an index holds it (a new or renamed user, an owner, a watcher). */
export const UserNameKey = Type.String({ ...UserName, maxLength: INDEXED_KEY_MAX_LENGTH });

/**
 * An addon's name and version as routes take them. AYON takes any text and answers a name or version it does not
 * know with 404, so nothing is refused up front; an installed addon is checked where a package is read.
 */
export const AddonName = Type.String({ examples: ['core'] });
export const AddonVersion = Type.String({ examples: ['1.0.0'] });

/** Path parameters naming one version of an addon: .../{addon_name}/{addon_version}. */
export const AddonVersionParams = Type.Object({ addon_name: AddonName, addon_version: AddonVersion });

/** Sender, access group and similar names: letters, digits, underscore, inner dots and hyphens. */
export const SimpleName = Type.String({
  pattern: '^[a-zA-Z0-9_]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9_])?$',
  minLength: 1,
  maxLength: 128,
});

/**
 * A settings variant: production, staging or the name of a dev bundle. AYON takes any string here and answers an
 * unknown variant by not finding it; the one bound is the index that keys settings overrides by variant.
 */
export const Variant = Type.String({
  maxLength: INDEXED_KEY_MAX_LENGTH,
  default: 'production',
  description: 'production, staging or the name of a dev bundle',
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
