import { Id, ProjectName, Type, type Static } from '@pipewright/sdk';

// Coordinates are normalised by the picture's height (origin at the centre, y up): the picture spans -0.5 to 0.5
// in height and -aspect/2 to aspect/2 in width. A little outside is allowed (a stroke that leaves the picture).
const Coordinate = Type.Number({ minimum: -10, maximum: 10 });
const Position = Type.Tuple([Coordinate, Coordinate], { description: '[x, y], height-normalised' });
const Width = Type.Number({
  exclusiveMinimum: 0,
  maximum: 1,
  description: 'Line width, a fraction of the height',
});

const Stroke = Type.Object({
  kind: Type.Union([Type.Literal('stroke'), Type.Literal('eraser')], {
    description: 'stroke: paint; eraser: clears what earlier objects painted under it',
  }),
  points: Type.Array(Type.Tuple([Coordinate, Coordinate, Width]), {
    minItems: 1,
    maxItems: 20_000,
    description: '[x, y, width] along the stroke: the width of each point, as a pen pressure gives it',
  }),
});
const Figure = Type.Object({
  kind: Type.Union([
    Type.Literal('rectangle'),
    Type.Literal('ellipse'),
    Type.Literal('line'),
    Type.Literal('arrow'),
  ]),
  from: Position,
  to: Position,
  width: Width,
});
const Text = Type.Object({
  kind: Type.Literal('text'),
  at: Position,
  text: Type.String({ minLength: 1, maxLength: 2000 }),
  size: Type.Number({
    exclusiveMinimum: 0,
    maximum: 1,
    description: 'Text height, a fraction of the height',
  }),
});
export const Shape = Type.Union([Stroke, Figure, Text]);
export type ShapeValue = Static<typeof Shape>;

const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' });
const Frame = Type.Integer({
  minimum: -1_000_000,
  maximum: 10_000_000,
  description: "The media frame in the shot's numbering (its first frame number plus the frame's index)",
});

export const Params = Type.Object({ project_name: ProjectName, version_id: Id, activity_id: Id });
export const OneParams = Type.Object({ ...Params.properties, annotation_id: Id });

export const AnnotationQuery = Type.Object({
  frame: Type.Optional(Frame),
  fromFrame: Type.Optional(Frame),
  toFrame: Type.Optional(Frame),
});

export const AnnotationCreate = Type.Object({
  id: Type.Optional(Id),
  frame: Frame,
  color: Color,
  shape: Shape,
});
export const AnnotationDrawing = Type.Object({ ...AnnotationCreate.properties, id: Id });
export const AnnotationPatch = Type.Partial(Type.Object({ frame: Frame, color: Color, shape: Shape }));

export const Annotation = Type.Object({
  id: Type.String(),
  versionId: Type.String(),
  reviewableId: Type.String(),
  frame: Type.Integer(),
  color: Type.String(),
  shape: Shape,
  author: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export const AnnotationList = Type.Object({ annotations: Type.Array(Annotation) });
export const Created = Type.Object({ id: Type.String() });

export const OtioDocument = Type.Record(Type.String(), Type.Unknown(), {
  description: 'An OTIO document: a Timeline, a Clip, or an Annotation.1 effect',
});
export const OpenRvFragment = Type.String({
  description:
    'GTO text: an RV session file, or its RVPaint node alone (as GET .../annotations/openrv answers it)',
});
export const ImportAnswer = Type.Object({
  created: Type.Integer({ description: 'Objects drawn anew' }),
  updated: Type.Integer({ description: 'Objects of this reviewable replaced by their copy in the file' }),
  unchanged: Type.Integer({
    description:
      'Objects of this reviewable the file holds only in part, kept as they are (a figure OpenRV holds as pens)',
  }),
  skipped: Type.Array(Type.String(), {
    description:
      'What was not drawn: OTIO layers of other schemas; OpenRV components of other kinds, undone ' +
      'strokes, and the paint of other sources',
  }),
});
