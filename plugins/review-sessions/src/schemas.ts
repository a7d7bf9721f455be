import { Id, ProjectName, Type, type Static } from '@pipewright/sdk';

export const SessionParams = Type.Object({ project_name: ProjectName, list_id: Id });

const Frame = Type.Integer({
  minimum: -1_000_000,
  maximum: 10_000_000,
  description: "In the shot's numbering",
});
const At = Type.Number({
  description:
    "When it happened by the server's clock (ms), as the driver reckons it; the last 5 s are believed",
});
const Speed = Type.Number({ exclusiveMinimum: 0, maximum: 8 });
const View = Type.Object({
  zoom: Type.Number({ minimum: 0.1, maximum: 32 }),
  x: Type.Number({ minimum: -10, maximum: 10 }),
  y: Type.Number({ minimum: -10, maximum: 10 }),
});
const Role = Type.Union([Type.Literal('driver'), Type.Literal('reviewer'), Type.Literal('viewer')]);

export const Command = Type.Union([
  Type.Object({
    command: Type.Literal('play'),
    frame: Frame,
    speed: Type.Optional(Speed),
    at: Type.Optional(At),
  }),
  Type.Object({ command: Type.Literal('pause'), frame: Frame }),
  Type.Object({ command: Type.Literal('seek'), frame: Frame, at: Type.Optional(At) }),
  Type.Object({
    command: Type.Literal('select'),
    versionId: Id,
    reviewableId: Type.Optional(Type.Union([Id, Type.Null()])),
    frame: Type.Optional(Frame),
  }),
  Type.Object({ command: Type.Literal('speed'), speed: Speed }),
  Type.Object({ command: Type.Literal('view'), view: View }),
  Type.Object({
    command: Type.Literal('compare'),
    compare: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  }),
  Type.Object({ command: Type.Literal('annotations'), visible: Type.Boolean() }),
]);

/** Taking part: join (as a reviewer, or a viewer who only watches), leave, hand control on, ask for it. */
export const Membership = Type.Union([
  Type.Object({
    command: Type.Literal('join'),
    role: Type.Optional(Type.Union([Type.Literal('reviewer'), Type.Literal('viewer')])),
  }),
  Type.Object({ command: Type.Literal('leave') }),
  Type.Object({
    command: Type.Literal('hand'),
    to: Type.String({ minLength: 1, description: 'A member of the session' }),
  }),
  Type.Object({ command: Type.Literal('request') }),
]);
export const SessionAction = Type.Union([...Membership.anyOf, ...Command.anyOf]);
export type SessionActionValue = Static<typeof SessionAction>;

export const Session = Type.Object({
  listId: Type.String(),
  revision: Type.Integer(),
  serverTime: Type.Number({ description: 'The server clock (ms since the epoch) when this answer was made' }),
  versionId: Type.Union([Type.String(), Type.Null()]),
  reviewableId: Type.Union([Type.String(), Type.Null()]),
  frame: Type.Integer(),
  playing: Type.Boolean(),
  speed: Type.Number(),
  startedAt: Type.Union([Type.Number(), Type.Null()]),
  compare: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  view: View,
  annotations: Type.Boolean(),
  driver: Type.Union([Type.String(), Type.Null()]),
  members: Type.Record(Type.String(), Role),
});
export const Clock = Type.Object({ serverTime: Type.Number() });
