import { PROJECT_ENTITY_TYPES, Type, type Static } from '@pipewright/sdk';
import {
  ATTRIBUTE_TYPES,
  attributeDataFields,
  type AttributeScope as Scope,
  type AttributeType as ValueType,
} from './api.js';

export const ATTRIBUTE_SCOPES: Scope[] = ['project', ...PROJECT_ENTITY_TYPES, 'user', 'list'];

// Plain enum schemas rather than unions of literals: a bad value then yields one problem, not one per literal.
// Scopes are not an enum: AYON keeps whatever it is sent, and a scope no entity type has simply never applies.
export const AttributeScope = Type.Unsafe<Scope>({
  type: 'string',
  examples: ATTRIBUTE_SCOPES,
  description: 'Entity type the attribute applies to',
});
export const AttributeType = Type.Unsafe<ValueType>({ type: 'string', enum: ATTRIBUTE_TYPES });

export const AttributeName = Type.String({
  pattern: '^[a-zA-Z0-9]{2,64}$',
  description: '2 to 64 letters or digits',
  examples: ['fps'],
});

const EnumValue = Type.Unsafe<unknown>({ type: ['string', 'number', 'boolean'] });

export const EnumItem = Type.Object({
  value: EnumValue,
  label: Type.String(),
  icon: Type.Optional(Type.String()),
  color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '# and six hex digits' })),
  /** Offered only in these projects; everywhere when absent. */
  projects: Type.Optional(Type.Array(Type.String())),
});

// Extra keys are tolerated (and dropped when stored): newer clients may send fields this server does not know.
export const AttributeData = Type.Object(
  {
    type: AttributeType,
    ...attributeDataFields,
    enum: Type.Optional(
      Type.Unsafe<Static<typeof EnumItem>[] | null>({ type: ['array', 'null'], items: EnumItem }),
    ),
  },
  { additionalProperties: true },
);

export const DATA_FIELDS = Object.keys(AttributeData.properties);

const definitionFields = {
  position: Type.Integer(),
  scope: Type.Array(AttributeScope, { uniqueItems: true }),
  /** Ignored on input: whether an attribute is built in is the server's to say. */
  builtin: Type.Optional(Type.Boolean()),
  data: AttributeData,
};

export const AttributePut = Type.Object(
  { name: Type.Optional(AttributeName), ...definitionFields },
  { additionalProperties: false },
);

export const AttributeDefinition = Type.Object({
  name: AttributeName,
  ...definitionFields,
  builtin: Type.Boolean(),
});

export const AttributeList = Type.Object({ attributes: Type.Array(AttributeDefinition) });

export const AttributeListPut = Type.Object(
  {
    attributes: Type.Array(
      Type.Object({ name: AttributeName, ...definitionFields }, { additionalProperties: false }),
    ),
    /** Delete studio-made attributes missing from the list; built-in ones always stay. */
    deleteMissing: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const AttributeParams = Type.Object({ attribute_name: AttributeName });
