import { Id, JsonObject, ProjectName, Type, type Static, type TSchema } from '@pipewright/sdk';
import { AVAILABILITIES } from './availability.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** type/subtype (RFC 9110 tokens), optionally followed by parameters (; codecs=...). */
const MEDIA_TYPE = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+\\s*(;.*)?$";

export const VersionParams = Type.Object({ project_name: ProjectName, version_id: Id });
export const ProductParams = Type.Object({ project_name: ProjectName, product_id: Id });
export const TaskParams = Type.Object({ project_name: ProjectName, task_id: Id });
export const FolderParams = Type.Object({ project_name: ProjectName, folder_id: Id });
export const ReviewableParams = Type.Object({ project_name: ProjectName, version_id: Id, activity_id: Id });

export const ListingQuery = Type.Object({
  latest: Type.Boolean({ default: false, description: 'Only the latest version of each product' }),
  latest_done: Type.Boolean({
    default: false,
    description: 'Only the latest version of each product whose status is done',
  }),
});
export type ListingQuery = Static<typeof ListingQuery>;

export const UploadQuery = Type.Object({
  label: Type.Optional(Type.String({ description: 'A short name shown in place of the file name' })),
});

export const UploadHeaders = Type.Object({
  'content-type': Type.String({
    pattern: MEDIA_TYPE,
    description: 'video/*, image/* or application/mxf; stored and served back with the file',
  }),
  'x-file-name': Type.String({
    minLength: 1,
    maxLength: 1024,
    description: 'The file name, with its extension',
  }),
});

export const SortBody = Type.Object({
  sort: Type.Optional(
    Nullable(
      Type.Array(Type.String(), {
        description: 'Every reviewable (activity) id of the version, once each, in the order to show them',
      }),
    ),
  ),
});

/** AYON's model takes any text; its handler then refuses an empty label or one over 255 characters with 400. */
export const LabelBody = Type.Object({
  label: Type.Optional(Nullable(Type.String())),
});

const ProcessingStatus = Type.Object({
  eventId: Type.Optional(Nullable(Type.String())),
  status: Type.String(),
  description: Type.String(),
});

export const Reviewable = Type.Object({
  fileId: Id,
  activityId: Id,
  filename: Type.String(),
  label: Nullable(Type.String()),
  mimetype: Type.String(),
  availability: Type.Union(AVAILABILITIES.map((value) => Type.Literal(value))),
  mediaInfo: Nullable(JsonObject),
  createdFrom: Nullable(Id),
  processing: Nullable(ProcessingStatus),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  author: Type.Object({ name: Type.String(), fullName: Nullable(Type.String()) }),
});
export type Reviewable = Static<typeof Reviewable>;

export const VersionReviewables = Type.Object({
  id: Id,
  name: Type.String({ description: 'v001, or HERO' }),
  version: Type.String({ description: 'The version number, as text (as AYON answers it)' }),
  status: Type.String(),
  productId: Id,
  productName: Type.String(),
  productType: Type.String(),
  attrib: JsonObject,
  reviewables: Type.Array(Reviewable),
});
export type VersionReviewables = Static<typeof VersionReviewables>;
