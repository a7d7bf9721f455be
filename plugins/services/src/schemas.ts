import {
  AddonName,
  AddonVersion,
  INDEXED_KEY_MAX_LENGTH,
  Type,
  type Static,
  type TSchema,
} from '@pipewright/sdk';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Service names, any text as in AYON: one that names no service is not found. A new service takes its name from
 * the path, which the router keeps short.
 */
export const ServiceName = Type.String({ examples: ['ftrack-processor-01'] });

/**
 * Host names as machines report them, any text as in AYON; only held below what the hostname index can take, as
 * a heartbeat stores the name it sends.
 */
export const HostName = Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH, examples: ['render-ash-01'] });

/**
 * How a service host runs the service's container. Every key is optional; a PATCH changes only the keys it names
 * (null clears one). As in AYON, unknown keys are ignored and mem_limit is read as memLimit. Kept as sent (jsonb) for
 * the service host to read, so no caps apply.
 */
export const ServiceConfig = Type.Object(
  {
    image: Type.Optional(Nullable(Type.String())),
    env: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
    volumes: Type.Optional(Nullable(Type.Array(Type.String()))),
    ports: Type.Optional(Nullable(Type.Array(Type.String()))),
    memLimit: Type.Optional(Nullable(Type.String())),
    user: Type.Optional(Nullable(Type.String())),
    storagePath: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: false },
);
export type ServiceConfig = Static<typeof ServiceConfig>;

export const ServiceParams = Type.Object({ name: ServiceName });
export const PatchParams = Type.Object({ service_name: ServiceName });

// AYON clients call the container settings "config"; "data" is how the list answers them. Both are accepted.
export const ServicePut = Type.Object(
  {
    addonName: AddonName,
    addonVersion: AddonVersion,
    service: Type.String(),
    hostname: HostName,
    shouldRun: Type.Boolean({ default: true }),
    data: Type.Optional(ServiceConfig),
    config: Type.Optional(ServiceConfig),
  },
  { additionalProperties: false },
);
export type ServicePut = Static<typeof ServicePut>;

/**
 * As AYON 1.11.3 takes it: shouldRun, the host to move the service to, and how it runs as top-level keys (config
 * and data are the older spellings; the top-level keys win over them).
 */
export const ServicePatch = Type.Object(
  {
    shouldRun: Type.Optional(Nullable(Type.Boolean())),
    hostname: Type.Optional(Nullable(HostName)),
    ...Type.Omit(ServiceConfig, ['image']).properties,
    data: Type.Optional(Nullable(ServiceConfig)),
    config: Type.Optional(Nullable(ServiceConfig)),
  },
  { additionalProperties: false },
);
export type ServicePatch = Static<typeof ServicePatch>;

export const ServiceModel = Type.Object({
  name: Type.String(),
  hostname: Type.String(),
  addonName: Type.String(),
  addonVersion: Type.String(),
  service: Type.String(),
  shouldRun: Type.Boolean(),
  isRunning: Type.Boolean(),
  lastSeen: Nullable(Type.String({ format: 'date-time' })),
  /** Seconds since the last heartbeat that reported the service. */
  lastSeenDelta: Nullable(Type.Number()),
  data: Type.Object({
    image: Nullable(Type.String()),
    env: Type.Record(Type.String(), Type.Unknown()),
    volumes: Nullable(Type.Array(Type.String())),
    ports: Nullable(Type.Array(Type.String())),
    memLimit: Nullable(Type.String()),
    user: Nullable(Type.String()),
    storagePath: Nullable(Type.String()),
  }),
});
export type ServiceModel = Static<typeof ServiceModel>;

export const ServiceList = Type.Object({ services: Type.Array(ServiceModel) });

const Health = Type.Object({
  cpu: Type.Number({ minimum: 0, maximum: 100, default: 0 }),
  mem: Type.Number({ minimum: 0, maximum: 100, default: 0 }),
});

export const HostModel = Type.Object({
  name: Type.String(),
  lastSeen: Type.String({ format: 'date-time' }),
  health: Health,
});

export const HostList = Type.Object({ hosts: Type.Array(HostModel) });

// Service hosts of several versions send heartbeats; fields this server does not know are accepted and ignored.
export const Heartbeat = Type.Object({
  hostname: HostName,
  health: Health,
  services: Type.Array(ServiceName, { default: [] }),
});
export type Heartbeat = Static<typeof Heartbeat>;

export const HeartbeatResponse = Type.Object({ services: Type.Array(ServiceModel) });
