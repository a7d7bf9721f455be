import { Id, ProjectName, Type } from '@pipewright/sdk';

/** A UUID with or without dashes, in either case, as AYON accepts in X-File-Id; stored as 32 lowercase hex. */
const UUID_TEXT =
  '^([0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$';
/** type/subtype (RFC 9110 tokens), optionally followed by parameters (; charset=utf-8). */
const MEDIA_TYPE = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+\\s*(;.*)?$";

export const FileParams = Type.Object({ project_name: ProjectName, file_id: Id });

export const UploadHeaders = Type.Object({
  'content-type': Type.String({
    pattern: MEDIA_TYPE,
    description: 'The media type of the file, served back with it',
  }),
  'x-file-name': Type.String({
    minLength: 1,
    maxLength: 1024,
    description: 'The file name, with its extension',
  }),
  'x-file-id': Type.Optional(
    Type.String({ pattern: UUID_TEXT, description: 'The id to store the file under; a new one when absent' }),
  ),
  'x-activity-id': Type.Optional(
    Type.String({ pattern: UUID_TEXT, description: 'The activity the file is attached to' }),
  ),
});

export const StillQuery = Type.Object({
  t: Type.Number({
    default: 0,
    description: 'Time of the frame, in seconds from the start; 0 or less is the first frame',
  }),
});

const MediaInfo = Type.Object(
  {
    probeVersion: Type.Integer(),
    majorBrand: Type.Union([Type.String(), Type.Null()]),
    videoTrackIndex: Type.Union([Type.Integer(), Type.Null()]),
    width: Type.Union([Type.Integer(), Type.Null()]),
    height: Type.Union([Type.Integer(), Type.Null()]),
    pixelFormat: Type.Union([Type.String(), Type.Null()]),
    frameRate: Type.Union([Type.Number(), Type.Null()]),
    duration: Type.Number(),
    codec: Type.Union([Type.String(), Type.Null()]),
    frameCount: Type.Union([Type.Integer(), Type.Null()]),
    iframeOnly: Type.Boolean(),
    audioTracks: Type.Array(
      Type.Object({
        index: Type.Integer(),
        codec: Type.Union([Type.String(), Type.Null()]),
        sampleRate: Type.Union([Type.Number(), Type.Null()]),
        channels: Type.Union([Type.Integer(), Type.Null()]),
      }),
    ),
  },
  { description: 'What ffprobe found, once someone asked for it (reviewables do)' },
);

/** AYON's FileInfo (size, filename, contentType, mediaInfo) and what else the record knows. */
export const FileInfo = Type.Object({
  id: Id,
  size: Type.Integer({ description: 'Bytes' }),
  filename: Type.String(),
  contentType: Type.String(),
  author: Type.Union([Type.String(), Type.Null()]),
  activityId: Type.Union([Id, Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  mediaInfo: Type.Optional(MediaInfo),
});
