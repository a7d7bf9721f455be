import { firstNumberOf, rangeOf } from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectFiles } from '@pipewright/plugin-files/api';

/** What the interchange formats say of the media under the drawings. */
export interface ReviewMedia {
  /** A name for the timeline and the clip: the reviewable's label, else its file's name. */
  name: string;
  /** The reviewable's file, when it has one. */
  fileId: string | null;
  fileName: string;
  /** Where a review tool fetches the media from, relative to the server (the reviewable's file). */
  url: string;
  fps: number;
  width: number;
  height: number;
  /** The number of the media's first frame in the shot's numbering (annotations are keyed on these numbers). */
  firstFrame: number;
  frameCount: number;
}

/** The media of a reviewable (the file attached to its activity), with the frame numbers the player shows. */
export async function reviewMedia(
  deps: { entities: EntityDirectory; files: ProjectFiles },
  project: string,
  version: Record<string, any>,
  reviewable: { id: string; data: Record<string, unknown> },
): Promise<ReviewMedia> {
  const [file] = await deps.files.listByActivity(project, [reviewable.id]);
  const info = file ? await deps.files.mediaInfo(project, file.id).catch(() => null) : null;
  const fps = info?.frameRate && info.frameRate > 0 ? info.frameRate : 24;
  const frameCount = Math.max(1, info?.frameCount ?? Math.round((info?.duration ?? 0) * fps));
  const product = await deps.entities.get(project, 'product', version.productId);
  const folder = product ? await deps.entities.get(project, 'folder', product.folderId) : null;
  const label = reviewable.data.reviewableLabel;
  return {
    name: typeof label === 'string' && label ? label : (file?.name ?? 'review'),
    fileId: file?.id ?? null,
    fileName: file?.name ?? 'review',
    url: file ? `/api/projects/${project}/files/${file.id}` : '',
    fps,
    width: info?.width ?? 1920,
    height: info?.height ?? 1080,
    firstFrame: firstNumberOf(rangeOf(version.attrib ?? {}, folder?.attrib ?? {}), frameCount),
    frameCount,
  };
}
