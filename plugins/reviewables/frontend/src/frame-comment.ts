import type { PipewrightClient } from '@pipewright/sdk/client';
import { callRoute } from '@pipewright/sdk/ui';
import { naturalSize, newAnnotationId, type AnnotatedMedia, type Picture } from './annotations';

// A comment on one frame of a reviewable. It keeps the frame (data.frame, in the shot's numbering) and, when the
// frame has drawings, carries them the way AYON's web app writes and reads them: two PNG files attached to the
// comment (the drawing over the picture, and the drawing alone on a transparent ground) named in
// data.annotations with the 1-based range of media frames they belong to.

const png = (canvas: HTMLCanvasElement) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The frame could not be drawn'))),
      'image/png',
    ),
  );

/** A frame's drawing as pictures: over the picture, and alone on a transparent ground. */
export interface FrameDrawing {
  composite: Blob;
  transparent: Blob;
}

/** The drawing alone and over the picture, at the picture's own size. */
export async function renderFrame(picture: Picture, drawing: SVGSVGElement) {
  const { w, h } = naturalSize(picture);
  const copy = drawing.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('viewBox', `0 0 ${drawing.width.baseVal.value} ${drawing.height.baseVal.value}`);
  copy.setAttribute('width', String(w));
  copy.setAttribute('height', String(h));
  const url = URL.createObjectURL(
    new Blob([new XMLSerializer().serializeToString(copy)], { type: 'image/svg+xml' }),
  );
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = (withPicture: boolean) => {
      const target = document.createElement('canvas');
      target.width = w;
      target.height = h;
      const context = target.getContext('2d')!;
      if (withPicture) context.drawImage(picture, 0, 0, w, h);
      context.drawImage(image, 0, 0, w, h);
      return target;
    };
    return { composite: await png(canvas(true)), transparent: await png(canvas(false)) };
  } finally {
    URL.revokeObjectURL(url);
  }
}

const upload = async (client: PipewrightClient, project: string, blob: Blob, name: string) =>
  (
    await callRoute<{ id: string }>(client, `/api/projects/${encodeURIComponent(project)}/files`, {
      method: 'POST',
      body: blob,
      contentType: 'image/png',
      headers: { 'x-file-name': name },
    })
  ).id;

/**
 * Post a comment on the version about frames first to last (data.frame and, for a range, data.frameEnd), with the
 * drawing of the frame on screen when it has one.
 */
export async function commentOnFrame(
  client: PipewrightClient,
  media: AnnotatedMedia,
  comment: { body: string; frame: number; mediaFrame: number; first: number; last: number },
  drawing: FrameDrawing | null,
) {
  const files: string[] = [];
  const data: Record<string, unknown> = { frame: comment.first, reviewableId: media.reviewableId };
  if (comment.last > comment.first) data.frameEnd = comment.last;
  if (drawing) {
    const name = `annotation-${comment.frame}.png`;
    const composite = await upload(client, media.project, drawing.composite, name);
    const transparent = await upload(client, media.project, drawing.transparent, `transparent-${name}`);
    files.push(composite, transparent);
    const range = [comment.mediaFrame + 1, comment.mediaFrame + 1];
    data.annotations = [{ id: newAnnotationId(), composite, transparent, range }];
  }
  return callRoute(
    client,
    `/api/projects/${encodeURIComponent(media.project)}/versions/${media.versionId}/activities`,
    {
      method: 'POST',
      body: { activityType: 'comment', body: comment.body, files, data },
    },
  );
}
