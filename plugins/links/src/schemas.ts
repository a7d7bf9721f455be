import { Id, JsonObject, ProjectName, Type } from '@pipewright/sdk';

/** "type|input|output": AYON sets no pattern on the type's own name; the service checks the three parts. */
export const LinkTypeName = Type.String({
  description: 'link type, input entity type and output entity type joined by |',
  examples: ['reference|version|version'],
});

/**
 * The link type travels in a wildcard segment: a name of 100 characters plus "|representation|representation"
 * is longer than the router allows a plain path parameter (maxParamLength, 100), which would answer 414. The
 * value is checked by the route (splitLinkType), as AYON's path dependency checks it.
 */
export const LinkTypeParams = Type.Object({ project_name: ProjectName, '*': Type.String() });
export const LinkParams = Type.Object({ project_name: ProjectName, link_id: Id });

/** AYON's model: any data (how the type is drawn, a description, ...); unknown fields beside it are ignored. */
export const LinkTypeSave = Type.Object({ data: Type.Optional(JsonObject) });

/** A link type as AYON's REST answer has it (camelCase; the anatomy keeps snake_case). */
export const LinkTypeItem = Type.Object({
  name: Type.String(),
  linkType: Type.String(),
  inputType: Type.String(),
  outputType: Type.String(),
  data: JsonObject,
});

export const LinkTypeList = Type.Object({ types: Type.Array(LinkTypeItem) });

/** AYON's model: linkType, with link as the older spelling of the same field. */
export const LinkCreate = Type.Object(
  {
    id: Type.Optional(Id),
    input: Id,
    output: Id,
    name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
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
