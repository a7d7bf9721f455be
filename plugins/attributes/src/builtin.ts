import type { AttributeData, AttributeDefinition, AttributeScope } from './api.js';

// The attributes every AYON server ships with. Clients (the AYON launcher, DCC integrations) read and write
// these names directly, so names, scopes and types must match AYON's; titles and descriptions are our own.

const HIERARCHY: AttributeScope[] = ['project', 'folder', 'task'];
// Frame ranges and resolution travel with published versions and their files as well.
const FRAMING: AttributeScope[] = ['project', 'folder', 'task', 'version', 'representation'];

type Seed = [name: string, scope: AttributeScope[], data: AttributeData];

const SEEDS: Seed[] = [
  [
    'priority',
    HIERARCHY,
    {
      type: 'string',
      title: 'Priority',
      description: 'How urgent the work is',
      default: 'normal',
      enum: [
        { value: 'urgent', label: 'Urgent', icon: 'keyboard_double_arrow_up', color: '#ff8585' },
        { value: 'high', label: 'High', icon: 'keyboard_arrow_up', color: '#ffad66' },
        { value: 'normal', label: 'Normal', icon: 'check_indeterminate_small', color: '#9ac0e7' },
        { value: 'low', label: 'Low', icon: 'keyboard_arrow_down', color: '#9fa7b1' },
      ],
    },
  ],
  [
    'fps',
    FRAMING,
    { type: 'float', title: 'FPS', description: 'Frames per second', default: 25, gt: 0, example: 24 },
  ],
  [
    'resolutionWidth',
    FRAMING,
    {
      type: 'integer',
      title: 'Width',
      description: 'Image width in pixels',
      default: 1920,
      gt: 0,
      lt: 50000,
      example: 1920,
    },
  ],
  [
    'resolutionHeight',
    FRAMING,
    {
      type: 'integer',
      title: 'Height',
      description: 'Image height in pixels',
      default: 1080,
      gt: 0,
      lt: 50000,
      example: 1080,
    },
  ],
  [
    'pixelAspect',
    FRAMING,
    {
      type: 'float',
      title: 'Pixel aspect',
      description: 'Width of a pixel relative to its height',
      default: 1,
      gt: 0,
      example: 1,
    },
  ],
  [
    'clipIn',
    FRAMING,
    {
      type: 'integer',
      title: 'Clip in',
      description: 'First frame of the clip in the edit',
      default: 1,
      example: 1,
    },
  ],
  [
    'clipOut',
    FRAMING,
    {
      type: 'integer',
      title: 'Clip out',
      description: 'Last frame of the clip in the edit',
      default: 1,
      example: 1,
    },
  ],
  [
    'frameStart',
    FRAMING,
    {
      type: 'integer',
      title: 'Start frame',
      description: 'First frame of the work range',
      default: 1001,
      example: 1001,
    },
  ],
  [
    'frameEnd',
    FRAMING,
    {
      type: 'integer',
      title: 'End frame',
      description: 'Last frame of the work range',
      default: 1001,
      example: 1100,
    },
  ],
  [
    'handleStart',
    FRAMING,
    {
      type: 'integer',
      title: 'Handle start',
      description: 'Extra frames rendered before the start frame',
      default: 0,
      ge: 0,
      example: 8,
    },
  ],
  [
    'handleEnd',
    FRAMING,
    {
      type: 'integer',
      title: 'Handle end',
      description: 'Extra frames rendered after the end frame',
      default: 0,
      ge: 0,
      example: 8,
    },
  ],
  [
    'startDate',
    HIERARCHY,
    {
      type: 'datetime',
      title: 'Start date',
      description: 'When work begins',
      example: '2025-01-06T09:00:00Z',
    },
  ],
  [
    'endDate',
    HIERARCHY,
    {
      type: 'datetime',
      title: 'Deadline',
      description: 'When work must be done',
      example: '2025-03-28T18:00:00Z',
    },
  ],
  [
    'description',
    ['project', 'folder', 'task', 'product', 'version', 'representation', 'workfile'],
    // A description belongs to the entity that carries it; a shot should not repeat its sequence's text.
    { type: 'string', title: 'Description', description: 'Free text about the entity', inherit: false },
  ],
  [
    'intent',
    ['version'],
    { type: 'string', title: 'Intent', description: 'What the publish is for (review, final, ...)' },
  ],
  [
    'machine',
    ['version'],
    { type: 'string', title: 'Machine', description: 'Host the version was published from' },
  ],
  [
    'source',
    ['version'],
    { type: 'string', title: 'Source', description: 'Work file the version was published from' },
  ],
  [
    'comment',
    ['version'],
    { type: 'string', title: 'Comment', description: "The artist's note on the publish" },
  ],
  ['site', ['version'], { type: 'string', title: 'Site', description: 'Site the version was published on' }],
  [
    'families',
    ['version'],
    { type: 'list_of_strings', title: 'Families', description: 'Publish families the version belongs to' },
  ],
  [
    'colorSpace',
    ['version'],
    { type: 'string', title: 'Color space', description: 'Colour space of the published images' },
  ],
  ['author', ['version'], { type: 'string', title: 'Author', description: 'Who published the version' }],
  [
    'path',
    ['representation'],
    { type: 'string', title: 'Path', description: 'Where the representation lives' },
  ],
  [
    'template',
    ['representation'],
    { type: 'string', title: 'Template', description: 'Anatomy template the path was built from' },
  ],
  [
    'extension',
    ['representation', 'workfile'],
    { type: 'string', title: 'File extension', description: 'Extension of the files, without the dot' },
  ],
  [
    'productGroup',
    ['product'],
    { type: 'string', title: 'Product group', description: 'Groups products together in loaders' },
  ],
  ['fullName', ['user'], { type: 'string', title: 'Full name', example: 'Jane Doe' }],
  ['email', ['user'], { type: 'string', title: 'E-mail', example: 'jane.doe@studio.test' }],
  ['avatarUrl', ['user'], { type: 'string', title: 'Avatar URL' }],
  [
    'developerMode',
    ['user'],
    { type: 'boolean', title: 'Developer mode', description: 'Lets the user run addons from local sources' },
  ],
];

/** The built-in definitions in their initial order (positions 0, 1, 2, ...). */
export const BUILTIN_ATTRIBUTES: AttributeDefinition[] = SEEDS.map(([name, scope, data], position) => ({
  name,
  position,
  scope,
  builtin: true,
  data: { inherit: true, ...data },
}));
