import { JsonObject, Type, type TSchema } from '@pipewright/sdk';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

// ---- metrics

export const MetricsQuery = Type.Object(
  {
    system: Type.Boolean({
      default: false,
      description: 'Add facts about the machine and the database pool',
    }),
    saturated: Type.Boolean({
      default: false,
      description: 'Add the detailed figures: project names, events per topic, costly per-project counts',
    }),
  },
  { additionalProperties: false },
);

const UserCounts = Type.Object({
  total: Type.Integer(),
  active: Type.Integer(),
  inactive: Type.Integer(),
  admins: Type.Integer({ description: 'Active administrators' }),
  managers: Type.Integer({ description: 'Active managers who are not administrators' }),
  services: Type.Integer({ description: 'Active service users' }),
  guests: Type.Integer({ description: 'Active guests' }),
  artists: Type.Integer({ description: 'Active users with none of the roles above' }),
});

const ProjectMetrics = Type.Object(
  {
    nickname: Type.String({ description: 'A stable hash of the name, for metrics that leave the studio' }),
    name: Type.Optional(Type.String({ description: 'With saturated: the project name (lowercase)' })),
    eventCount: Type.Integer(),
  },
  { additionalProperties: true, description: 'Addons may add fields, such as entity counts' },
);

const SystemFacts = Type.Object({
  platform: Type.String(),
  arch: Type.String(),
  nodeVersion: Type.String(),
  cpuCount: Type.Integer(),
  loadAverage: Type.Array(Type.Number()),
  memoryTotal: Type.Number({ description: 'Bytes' }),
  memoryFree: Type.Number({ description: 'Bytes' }),
  processMemory: Type.Number({ description: 'Resident memory of this server process, in bytes' }),
  heapUsed: Type.Number({ description: 'Bytes' }),
  database: Type.String({ description: 'pglite or postgres' }),
  idleConnections: Type.Integer({ description: 'Free connections of the database pool' }),
});

export const MetricsResponse = Type.Object({
  version: Type.String({ description: 'The AYON API version the server speaks' }),
  uptime: Type.Number({ description: 'Seconds since this server process started' }),
  system: Type.Optional(SystemFacts),
  userCounts: UserCounts,
  projectCount: Type.Integer(),
  projects: Type.Array(ProjectMetrics),
  averageProjectEventCount: Type.Optional(
    Type.Integer({
      description: 'Mean events per project, over projects with at least 300 events; left out without one',
    }),
  ),
  eventCount: Type.Integer(),
  eventTopics: Type.Optional(Type.Record(Type.String(), Type.Integer(), { description: 'With saturated' })),
  siteCount: Type.Integer(),
  addons: Type.Array(Type.Object({ name: Type.String(), version: Type.String() })),
});

// ---- restart

export const RestartRequired = Type.Object({
  required: Type.Boolean(),
  reason: Nullable(Type.String()),
});

export const RestartRequiredBody = Type.Object(
  {
    required: Type.Boolean(),
    reason: Type.Optional(Nullable(Type.String({ description: 'Shown to administrators' }))),
  },
  { additionalProperties: false },
);

// ---- sites

export const SitesQuery = Type.Object(
  {
    platform: Type.Optional(
      Type.Union([Type.Literal('windows'), Type.Literal('linux'), Type.Literal('darwin')]),
    ),
    hostname: Type.Optional(Type.String({ description: 'Only sites of this machine; empty for all' })),
  },
  { additionalProperties: false },
);

export const SiteInfo = Type.Object({
  id: Type.String(),
  platform: Nullable(Type.String()),
  hostname: Nullable(Type.String()),
  version: Nullable(Type.String()),
  users: Type.Array(Type.String()),
  lastSeen: Type.String({ format: 'date-time' }),
});

export const SiteParams = Type.Object({
  site_id: Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9][a-zA-Z0-9_.\\-]*$' }),
});

// ---- config

export const ConfigPatch = JsonObject;

export const ConfigValueParams = Type.Object({
  // Any text, as in AYON: a key the configuration does not have is not found.
  key: Type.String({
    description: 'A configuration key, dotted for nested ones: studioName, customization.motd',
  }),
});

export const ConfigFileParams = Type.Object({
  file_type: Type.Union([Type.Literal('login_background'), Type.Literal('studio_logo')]),
});
