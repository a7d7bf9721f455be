import { timecode, type RequestUser } from '@pipewright/sdk';
import type { ActivityFeed, ActivityRecord } from '@pipewright/plugin-activities/api';
import type { DrawnAnnotation, ReviewAnnotations, ReviewMedia } from '@pipewright/plugin-annotations/api';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectFiles } from '@pipewright/plugin-files/api';

// What a report says of one version, gathered from the addons that keep it: the version and its shot, its status
// changes and comments from its feed, and each annotated frame of its reviewables as a still with its drawing.

export interface ReportDeps {
  entities: EntityDirectory;
  activities: ActivityFeed;
  files: ProjectFiles;
  annotations: ReviewAnnotations;
}

export interface AnnotatedFrame {
  /** The reviewable's label or file name. */
  reviewable: string;
  frame: number;
  timecode: string;
  /** The frame as a JPEG, null when it could not be read (the drawing is shown on a grey ground then). */
  still: Buffer | null;
  width: number;
  height: number;
  annotations: DrawnAnnotation[];
}

export interface VersionReport {
  /** "sh010 / compMain v003" */
  title: string;
  status: string | null;
  author: string | null;
  createdAt: string | null;
  /** A small JPEG of the first reviewable, null when the version has none. */
  thumbnail: Buffer | null;
  statusChanges: { at: Date; by: string | null; from: string | null; to: string }[];
  comments: { at: Date; by: string | null; body: string; frames: string | null }[];
  frames: AnnotatedFrame[];
}

/** The pictures of annotated frames, at most this many pixels a side: sharp in print at the report's size. */
const PICTURE_SIZE = 1280;

const versionName = (version: Record<string, any>) =>
  version.name ?? `v${String(version.version ?? 0).padStart(3, '0')}`;
const authorOf = (activity: ActivityRecord) =>
  typeof activity.data.author === 'string' ? activity.data.author : null;

/** A comment's frames as the player shows them, with the timecode of its reviewable's media. */
function framesOf(activity: ActivityRecord, media: Map<string, ReviewMedia>): string | null {
  const { frame, frameEnd, reviewableId } = activity.data as Record<string, unknown>;
  if (typeof frame !== 'number') return null;
  const on = typeof reviewableId === 'string' ? media.get(reviewableId) : [...media.values()][0];
  const at = (n: number) => (on ? `${n} (${timecode(n - on.firstFrame, on.fps)})` : String(n));
  return typeof frameEnd === 'number' && frameEnd > frame
    ? `frames ${at(frame)} to ${at(frameEnd)}`
    : `frame ${at(frame)}`;
}

export async function versionReport(
  deps: ReportDeps,
  caller: RequestUser,
  project: string,
  version: Record<string, any>,
): Promise<VersionReport> {
  const product = await deps.entities.get(project, 'product', version.productId, caller);
  const folder = product ? await deps.entities.get(project, 'folder', product.folderId, caller) : null;
  const [reviewables, comments, changes] = await Promise.all(
    (['reviewable', 'comment', 'status.change'] as const).map((type) =>
      deps.activities.list(project, type, [version.id]),
    ),
  );
  const media = new Map<string, ReviewMedia>();
  const frames: AnnotatedFrame[] = [];
  for (const reviewable of reviewables!) {
    const read = await deps.annotations.read(caller, project, version.id, reviewable.id);
    media.set(reviewable.id.replaceAll('-', ''), read.media);
    const byFrame = new Map<number, DrawnAnnotation[]>();
    for (const a of read.annotations) byFrame.set(a.frame, [...(byFrame.get(a.frame) ?? []), a]);
    // Every annotated frame of the reviewable in one pass over its media (an image is its one frame).
    const indexOf = (frame: number) => (read.media.frameCount > 1 ? frame - read.media.firstFrame : 0);
    const pictures = read.media.fileId
      ? await deps.files
          .frames(project, read.media.fileId, [...byFrame.keys()].map(indexOf), PICTURE_SIZE)
          .catch(() => new Map<number, Buffer>())
      : new Map<number, Buffer>();
    for (const [frame, annotations] of byFrame)
      frames.push({
        reviewable: read.media.name,
        frame,
        timecode: timecode(frame - read.media.firstFrame, read.media.fps),
        still: pictures.get(indexOf(frame)) ?? null,
        width: read.media.width,
        height: read.media.height,
        annotations,
      });
  }
  const first = [...media.values()][0];
  const thumbnail = first?.fileId
    ? await deps.files.thumbnail(project, first.fileId).catch(() => null)
    : null;
  const path = String(folder?.path ?? folder?.name ?? '').replace(/^\//, '');
  return {
    title: [path, `${product?.name ?? 'product'} ${versionName(version)}`].filter(Boolean).join(' / '),
    status: version.status ?? null,
    author: version.author ?? null,
    createdAt: version.createdAt ?? null,
    thumbnail,
    statusChanges: changes!.map((change) => ({
      at: change.createdAt,
      by: authorOf(change),
      from: (change.data.oldValue as string | null) ?? null,
      to: String(change.data.newValue ?? ''),
    })),
    comments: comments!.map((comment) => ({
      at: comment.createdAt,
      by: authorOf(comment),
      body: comment.body,
      frames: framesOf(comment, media),
    })),
    frames,
  };
}
