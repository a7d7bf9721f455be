import type { AttributeData, AttributeDefinition, AttributeScope } from './api.js';

// The attributes every AYON server ships with. Clients (the AYON launcher, DCC integrations) read and write
// these names directly, so names, scopes and types must match AYON's; titles and descriptions are our own.

const HIERARCHY: AttributeScope[] = ['project', 'folder', 'task'];
// Frame ranges and resolution travel with published versions and their files as well.
const FRAMING: AttributeScope[] = ['project', 'folder', 'task', 'version', 'representation'];

type Seed = [name: string, scope: AttributeScope[], data: AttributeData];

/** A number of the frame range or the image (FRAMING): its default, an example, and the bounds it keeps. */
const framing = (
  name: string,
  type: 'integer' | 'float',
  [title, description]: [string, string],
  [value, example]: [number, number],
  bounds: Pick<AttributeData, 'gt' | 'ge' | 'lt'> = {},
): Seed => [name, FRAMING, { type, title, description, default: value, ...bounds, example }];

/** Free text (or, for a list of strings, several) on the entity types of scope. */
const text = (name: string, scope: AttributeScope[], title: string, description?: string): Seed => [
  name,
  scope,
  { type: 'string', title, ...(description === undefined ? {} : { description }) },
];

const POSITIVE = { gt: 0 };
const PIXELS = { gt: 0, lt: 50000 };
const AT_LEAST_ZERO = { ge: 0 };

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
  framing('fps', 'float', ['FPS', 'Frames per second'], [25, 24], POSITIVE),
  framing('resolutionWidth', 'integer', ['Width', 'Image width in pixels'], [1920, 1920], PIXELS),
  framing('resolutionHeight', 'integer', ['Height', 'Image height in pixels'], [1080, 1080], PIXELS),
  framing(
    'pixelAspect',
    'float',
    ['Pixel aspect', 'Width of a pixel relative to its height'],
    [1, 1],
    POSITIVE,
  ),
  framing('clipIn', 'integer', ['Clip in', 'First frame of the clip in the edit'], [1, 1]),
  framing('clipOut', 'integer', ['Clip out', 'Last frame of the clip in the edit'], [1, 1]),
  framing('frameStart', 'integer', ['Start frame', 'First frame of the work range'], [1001, 1001]),
  framing('frameEnd', 'integer', ['End frame', 'Last frame of the work range'], [1001, 1100]),
  framing(
    'handleStart',
    'integer',
    ['Handle start', 'Extra frames rendered before the start frame'],
    [0, 8],
    AT_LEAST_ZERO,
  ),
  framing(
    'handleEnd',
    'integer',
    ['Handle end', 'Extra frames rendered after the end frame'],
    [0, 8],
    AT_LEAST_ZERO,
  ),
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
  text('intent', ['version'], 'Intent', 'What the publish is for (review, final, ...)'),
  text('machine', ['version'], 'Machine', 'Host the version was published from'),
  text('source', ['version'], 'Source', 'Work file the version was published from'),
  text('comment', ['version'], 'Comment', "The artist's note on the publish"),
  text('site', ['version'], 'Site', 'Site the version was published on'),
  [
    'families',
    ['version'],
    { type: 'list_of_strings', title: 'Families', description: 'Publish families the version belongs to' },
  ],
  text('colorSpace', ['version'], 'Color space', 'Colour space of the published images'),
  text('author', ['version'], 'Author', 'Who published the version'),
  text('path', ['representation'], 'Path', 'Where the representation lives'),
  text('template', ['representation'], 'Template', 'Anatomy template the path was built from'),
  text(
    'extension',
    ['representation', 'workfile'],
    'File extension',
    'Extension of the files, without the dot',
  ),
  text('productGroup', ['product'], 'Product group', 'Groups products together in loaders'),
  ['fullName', ['user'], { type: 'string', title: 'Full name', example: 'Jane Doe' }],
  ['email', ['user'], { type: 'string', title: 'E-mail', example: 'jane.doe@studio.test' }],
  text('avatarUrl', ['user'], 'Avatar URL'),
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
