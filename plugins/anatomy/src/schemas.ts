import { Kind, TypeRegistry, type TSchema } from '@sinclair/typebox';
import { INDEXED_KEY_MAX_LENGTH, JsonObject, PROJECT_ENTITY_TYPES, Type, type Static } from '@pipewright/sdk';

const STRING_ENUM = 'PipewrightStringEnum';

// A plain JSON-schema enum rather than TypeBox's union of literals: Ajv then reports one problem for a bad value
// instead of one per allowed value, and the published schema reads as an enum.
if (!TypeRegistry.Has(STRING_ENUM)) {
  TypeRegistry.Set(
    STRING_ENUM,
    (schema: { enum: string[] }, value) => typeof value === 'string' && schema.enum.includes(value),
  );
}

function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
) {
  return Type.Unsafe<T[number]>({ [Kind]: STRING_ENUM, type: 'string', enum: [...values], ...options });
}

export const STATUS_STATES = ['not_started', 'in_progress', 'done', 'blocked'] as const;

const TypeName = Type.String({ minLength: 1, maxLength: 100 });
/** The name a type or status had in the preset it came from: kept as sent. */
const OriginalName = Type.String();
const ShortName = Type.String({ default: '' });
const Icon = (fallback: string) => Type.String({ default: fallback });
// AYON's colour fields are free text its widget fills with "#" and six hex digits; any other text is kept.
const Color = (fallback: string) =>
  Type.String({ default: fallback, description: 'Usually # and six hex digits', examples: ['#cacaca'] });
const Padding = Type.Integer({ minimum: 1 });

export const Root = Type.Object(
  {
    name: Type.String({ pattern: '^[a-zA-Z0-9_]+$', minLength: 1 }),
    windows: Type.String({ default: '' }),
    linux: Type.String({ default: '' }),
    darwin: Type.String({ default: '' }),
  },
  { additionalProperties: false },
);

// Path templates are free-form beyond their name: studios add fields (directory, file, value, ...) as they need.
const PathTemplate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: true },
);
const PathTemplates = Type.Optional(Type.Array(PathTemplate));

export const Templates = Type.Object(
  {
    version_padding: Type.Optional(Padding),
    version: Type.Optional(Type.String()),
    frame_padding: Type.Optional(Padding),
    frame: Type.Optional(Type.String()),
    work: PathTemplates,
    publish: PathTemplates,
    hero: PathTemplates,
    delivery: PathTemplates,
    staging: PathTemplates,
    others: PathTemplates,
  },
  { additionalProperties: true },
);

// Project attribute defaults; the attributes addon owns the full definitions, so only the obvious is checked here.
export const Attributes = Type.Object(
  {
    fps: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    resolutionWidth: Type.Optional(Type.Integer({ minimum: 1 })),
    resolutionHeight: Type.Optional(Type.Integer({ minimum: 1 })),
    pixelAspect: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    frameStart: Type.Optional(Type.Integer()),
    frameEnd: Type.Optional(Type.Integer()),
    handleStart: Type.Optional(Type.Integer()),
    handleEnd: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);

export const FolderType = Type.Object(
  {
    name: TypeName,
    original_name: Type.Optional(OriginalName),
    shortName: Type.Optional(ShortName),
    icon: Type.Optional(Icon('folder')),
  },
  { additionalProperties: false },
);

export const TaskType = Type.Object(
  {
    name: TypeName,
    original_name: Type.Optional(OriginalName),
    shortName: Type.Optional(ShortName),
    color: Type.Optional(Color('#cccccc')),
    icon: Type.Optional(Icon('task_alt')),
  },
  { additionalProperties: false },
);

export const LinkType = Type.Object(
  {
    link_type: TypeName,
    input_type: StringEnum(PROJECT_ENTITY_TYPES),
    output_type: StringEnum(PROJECT_ENTITY_TYPES),
    color: Type.Optional(Color('#9e9e9e')),
    style: Type.Optional(StringEnum(['solid', 'dashed'] as const, { default: 'solid' })),
  },
  { additionalProperties: false },
);

export const Status = Type.Object(
  {
    name: TypeName,
    original_name: Type.Optional(OriginalName),
    shortName: Type.Optional(ShortName),
    state: Type.Optional(StringEnum(STATUS_STATES, { default: 'not_started' })),
    icon: Type.Optional(Icon('')),
    color: Type.Optional(Color('#cacaca')),
    scope: Type.Optional(
      Type.Array(StringEnum(PROJECT_ENTITY_TYPES), {
        default: [...PROJECT_ENTITY_TYPES],
        description: 'Entity types the status applies to',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Tag = Type.Object(
  { name: TypeName, original_name: Type.Optional(OriginalName), color: Type.Optional(Color('#cacaca')) },
  { additionalProperties: false },
);

/**
 * An anatomy document as clients send it. Every part is optional: what is left out comes from the built-in
 * default. Unknown top-level parts are kept, so a newer client's additions survive a round trip through a preset.
 */
export const AnatomyDocument = Type.Object(
  {
    roots: Type.Optional(Type.Array(Root)),
    templates: Type.Optional(Templates),
    attributes: Type.Optional(Attributes),
    folder_types: Type.Optional(Type.Array(FolderType)),
    task_types: Type.Optional(Type.Array(TaskType)),
    link_types: Type.Optional(Type.Array(LinkType)),
    statuses: Type.Optional(Type.Array(Status)),
    tags: Type.Optional(Type.Array(Tag)),
    product_base_types: Type.Optional(JsonObject),
  },
  { additionalProperties: true, title: 'Anatomy' },
);
export type AnatomyDocument = Static<typeof AnatomyDocument>;

/** The anatomy JSON schema as GET /api/anatomy/schema publishes it (TypeBox's own markers stripped). */
export function anatomyJsonSchema(): Record<string, unknown> {
  const strip = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema));
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...strip(AnatomyDocument) };
}

/**
 * Preset names: any text, as in AYON, up to the index bound (the name is the table's primary key); "_" addresses
 * the built-in (or primary) anatomy. A new name must not be empty, since no path could address it.
 */
export const PresetName = Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH, examples: ['feature_film'] });

export const PresetParams = Type.Object({ preset_name: PresetName });

export const RenamePreset = Type.Object(
  { name: Type.String({ ...PresetName, minLength: 1 }) },
  { additionalProperties: false },
);

export const PresetListItem = Type.Object({
  name: Type.String(),
  primary: Type.Boolean(),
  version: Type.String({ description: 'The version of the anatomy model (1.0.0)' }),
  createdAt: Type.Optional(Type.String({ format: 'date-time' })),
  updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
});

export const PresetList = Type.Object({
  version: Type.String({ description: 'The version of the anatomy model (1.0.0)' }),
  presets: Type.Array(PresetListItem),
});
