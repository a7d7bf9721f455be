import { Id, JsonObject, ProjectName, Type } from '@pipewright/sdk';

export const ENTITY_TYPES = ['folder', 'task', 'product', 'version', 'representation', 'workfile'] as const;

const entityType = `(${ENTITY_TYPES.join('|')})`;

/** "type|input|output": the type's own name (letters, digits, underscore, hyphen, dot) and the two entity types. */
export const LinkTypeName = Type.String({
  pattern: `^[a-zA-Z0-9_.\\-]{1,100}\\|${entityType}\\|${entityType}$`,
  maxLength: 130,
  description: 'link type, input entity type and output entity type joined by |',
  examples: ['reference|version|version'],
});

export const ProjectParams = Type.Object({ project_name: ProjectName });
/**
 * The link type travels in a wildcard segment: a name of 100 characters plus "|representation|representation"
 * is longer than the router allows a plain path parameter (maxParamLength, 100), which would answer 414. The
 * value is checked against LinkTypeName by the route, and reported as ["path", "link_type"].
 */
export const LinkTypeParams = Type.Object({ project_name: ProjectName, '*': Type.String() });
export const LinkParams = Type.Object({ project_name: ProjectName, link_id: Id });

/** How a link type is drawn; anything else a client keeps with it rides along. */
export const LinkTypeData = Type.Object({
  color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' })),
  // A plain enum rather than a union of literals, so a bad style is one problem, not one per allowed value.
  style: Type.Optional(Type.Unsafe<'solid' | 'dashed'>({ type: 'string', enum: ['solid', 'dashed'] })),
});

export const LinkTypeSave = Type.Object(
  { data: Type.Optional(LinkTypeData) },
  { additionalProperties: false },
);

export const LinkTypeItem = Type.Object({
  name: Type.String(),
  link_type: Type.String(),
  input_type: Type.String(),
  output_type: Type.String(),
  data: JsonObject,
});

export const LinkTypeList = Type.Object({ types: Type.Array(LinkTypeItem) });

/** AYON's model: linkType, with link as the older spelling of the same field. */
export const LinkCreate = Type.Object(
  {
    id: Type.Optional(Id),
    input: Id,
    output: Id,
    name: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    linkType: Type.Optional(LinkTypeName),
    link: Type.Optional(LinkTypeName),
    data: Type.Optional(JsonObject),
  },
  { additionalProperties: false },
);

export const Link = Type.Object({
  id: Id,
  name: Type.Union([Type.String(), Type.Null()]),
  linkType: Type.String(),
  input: Id,
  output: Id,
  author: Type.Union([Type.String(), Type.Null()]),
  data: JsonObject,
  createdAt: Type.String({ format: 'date-time' }),
});
