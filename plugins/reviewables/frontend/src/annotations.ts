import type { PipewrightClient } from '@pipewright/sdk/client';
import { callRoute, type Annotation, type Shape } from '@pipewright/sdk/ui';

// The annotations addon's routes, and what the player does with its objects (moving, reshaping). The objects and
// their picture space are the sdk's (@pipewright/sdk/ui), which draws them too.

export { toPicture, toPixels, type Annotation, type Point, type Shape } from '@pipewright/sdk/ui';

/** The reviewable annotations belong to. */
export interface AnnotatedMedia {
  project: string;
  versionId: string;
  reviewableId: string;
}

const path = ({ project, versionId, reviewableId }: AnnotatedMedia) =>
  `/api/projects/${encodeURIComponent(project)}/versions/${versionId}/reviewables/${reviewableId}/annotations`;

export const readAnnotations = async (client: PipewrightClient, media: AnnotatedMedia) =>
  (await callRoute<{ annotations: Annotation[] }>(client, path(media))).annotations;

export const drawAnnotation = (
  client: PipewrightClient,
  media: AnnotatedMedia,
  annotation: Omit<Annotation, 'author'>,
) => callRoute(client, path(media), { method: 'POST', body: annotation });

export const changeAnnotation = (
  client: PipewrightClient,
  media: AnnotatedMedia,
  { id, color, shape }: Pick<Annotation, 'id' | 'color' | 'shape'>,
) => callRoute(client, `${path(media)}/${id}`, { method: 'PATCH', body: { color, shape } });

export const removeAnnotation = (client: PipewrightClient, media: AnnotatedMedia, id: string) =>
  callRoute(client, `${path(media)}/${id}`, { method: 'DELETE' });

/** A new object's id, chosen here so that a retried request cannot draw it twice. */
export const newAnnotationId = () => crypto.randomUUID().replaceAll('-', '');

/** The picture annotations are drawn on: a video's current frame, or an image. */
export type Picture = HTMLVideoElement | HTMLImageElement;

/** A picture's own size, in its pixels (0 until it is known). */
export const naturalSize = (picture: Picture) =>
  picture instanceof HTMLVideoElement
    ? { w: picture.videoWidth, h: picture.videoHeight }
    : { w: picture.naturalWidth, h: picture.naturalHeight };

/** A shape moved by dx, dy in picture space. */
export function moved(shape: Shape, dx: number, dy: number): Shape {
  if ('points' in shape) return { ...shape, points: shape.points.map(([x, y, w]) => [x + dx, y + dy, w]) };
  if ('at' in shape) return { ...shape, at: [shape.at[0] + dx, shape.at[1] + dy] };
  return {
    ...shape,
    from: [shape.from[0] + dx, shape.from[1] + dy],
    to: [shape.to[0] + dx, shape.to[1] + dy],
  };
}

/** The end of a figure a handle drags: its start or its end (a box's two opposite corners). */
export type Handle = 'from' | 'to';

/** A figure with one end moved by dx, dy in picture space; other shapes as they are. */
export function reshaped(shape: Shape, handle: Handle, dx: number, dy: number): Shape {
  if (!('from' in shape)) return shape;
  const [x, y] = shape[handle];
  return { ...shape, [handle]: [x + dx, y + dy] };
}

/** Show an object to the others while it is being drawn; nothing is kept until it is drawn for good. */
export const showDrawing = (
  client: PipewrightClient,
  media: AnnotatedMedia,
  annotation: Omit<Annotation, 'author'>,
) => callRoute(client, `${path(media)}/live`, { method: 'POST', body: annotation });

/** The reviewable's annotations as a file of an interchange format: OTIO, or an OpenRV paint fragment. */
export const exportAnnotations = (
  client: PipewrightClient,
  media: AnnotatedMedia,
  format: 'otio' | 'openrv',
) => callRoute<Blob>(client, `${path(media)}/${format}`, { parseAs: 'blob' });

/** What an import did: objects drawn anew, replaced, kept as they were, and the parts of the file it left out. */
export interface ImportAnswer {
  created: number;
  updated: number;
  unchanged: number;
  skipped: string[];
}

/** Draw what an OTIO document holds. */
export const importOtio = (client: PipewrightClient, media: AnnotatedMedia, document: unknown) =>
  callRoute<ImportAnswer>(client, `${path(media)}/otio`, { method: 'POST', body: document });

/** Draw the strokes and texts of an OpenRV paint fragment or session file, sent as the text it is. */
export const importOpenRv = (client: PipewrightClient, media: AnnotatedMedia, file: Blob) =>
  callRoute<ImportAnswer>(client, `${path(media)}/openrv`, {
    method: 'POST',
    body: file,
    contentType: 'text/plain',
  });
