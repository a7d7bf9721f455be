import { createServiceRef, Type } from '@pipewright/sdk';
import type { Problem } from '@pipewright/sdk';

/** Entity types attributes can apply to. */
export type AttributeScope =
  'project' | 'folder' | 'task' | 'product' | 'version' | 'representation' | 'workfile' | 'user' | 'list';

export type AttributeType =
  | 'string'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'datetime'
  | 'list_of_strings'
  | 'list_of_integers'
  | 'list_of_any'
  | 'list_of_submodels'
  | 'dict';

/** Every value type, as AYON names them. */
export const ATTRIBUTE_TYPES: AttributeType[] = [
  'string',
  'integer',
  'float',
  'boolean',
  'datetime',
  'list_of_strings',
  'list_of_integers',
  'list_of_any',
  'list_of_submodels',
  'dict',
];

// Optional fields also take null (meaning "not set"): clients often send back every field of what they read.
const orNull = <T>(schema: Record<string, unknown> & { type: string }) =>
  Type.Optional(Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] }));
const Limit = orNull<number>({ type: 'number' });
const Count = orNull<number>({ type: 'integer' });
const Text = orNull<string>({ type: 'string' });

/**
 * The fields of AYON's attribute data besides its type and enum, as TypeBox properties: title, example and
 * default, limits, pattern, inheritance. The studio's attributes and a list's own attributes both take them.
 */
export const attributeDataFields = {
  title: Text,
  description: Text,
  example: Type.Optional(Type.Unknown()),
  default: Type.Optional(Type.Unknown()),
  gt: Limit,
  ge: Limit,
  lt: Limit,
  le: Limit,
  minLength: Count,
  maxLength: Count,
  minItems: Count,
  maxItems: Count,
  regex: Text,
  inherit: orNull<boolean>({ type: 'boolean' }),
};

/** How an attribute's values look and behave (the data of GET /api/attributes items). */
export interface AttributeData {
  type: AttributeType;
  title?: string;
  description?: string;
  example?: unknown;
  default?: unknown;
  gt?: number;
  ge?: number;
  lt?: number;
  le?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  regex?: string;
  enum?: { value: unknown; label: string; icon?: string; color?: string; projects?: string[] }[];
  /** Whether folders and tasks inherit the value from their parents; true unless set false. */
  inherit?: boolean;
}

/** One attribute definition. */
export interface AttributeDefinition {
  name: string;
  position: number;
  scope: AttributeScope[];
  builtin: boolean;
  data: AttributeData;
}

/** Provided by the attributes addon: the studio's attribute library. */
export interface AttributeLibrary {
  /** Definitions in position order; only those whose scope includes entityType when given. */
  list(entityType?: AttributeScope): Promise<AttributeDefinition[]>;
  /** Check values for an entity type: unknown names and values that break a definition become problems under loc. */
  validate(
    entityType: AttributeScope,
    attrib: Record<string, unknown>,
    loc: (string | number)[],
  ): Promise<Problem[]>;
  /** Defaults of the attributes of an entity type that declare one (new projects start with these). */
  defaults(entityType: AttributeScope): Promise<Record<string, unknown>>;
  /** Names of the attributes of an entity type that inherit down the hierarchy. */
  inheritable(entityType: AttributeScope): Promise<string[]>;
  /**
   * The values of attrib an entity type has attributes for: writes drop the others as AYON's attribute models
   * ignore unknown fields.
   */
  withoutUnknown(
    entityType: AttributeScope,
    attrib: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
}

/** The attributes service of the attributes addon. */
export const attributesRef = createServiceRef<AttributeLibrary>({ addon: 'attributes', id: 'attributes' });
