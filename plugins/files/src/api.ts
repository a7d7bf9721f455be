import { createServiceRef } from '@pipewright/sdk';
import type { Readable } from 'node:stream';

/** A file stored in a project (a comment attachment, a reviewable's media, ...), as other addons see it. */
export interface FileRecord {
  /** 32 lowercase hex characters. */
  id: string;
  project: string;
  /** The name the uploader gave it (X-File-Name), used when the file is downloaded. */
  name: string;
  /** Bytes. */
  size: number;
  /** The media type the uploader declared (Content-Type), served back with the bytes. */
  contentType: string;
  /** Who uploaded it; null when stored by the server itself. */
  author: string | null;
  /** The activity the file is attached to, if any. */
  activityId: string | null;
  createdAt: Date;
}

/** One audio track of a media file, as ffprobe describes it. */
export interface AudioTrackInfo {
  index: number;
  codec: string | null;
  sampleRate: number | null;
  channels: number | null;
}

/**
 * What ffprobe tells about a video or an image, in the field names AYON gives reviewables' mediaInfo. Images have
 * a duration of 0 and one frame.
 */
export interface MediaInfo {
  probeVersion: number;
  /** The container's major brand (mp42, isom, qt, ...); null when the container has none. */
  majorBrand: string | null;
  /** Index of the first video stream; null when the file has no picture at all. */
  videoTrackIndex: number | null;
  width: number | null;
  height: number | null;
  pixelFormat: string | null;
  /** Frames per second. */
  frameRate: number | null;
  /** Seconds. */
  duration: number;
  codec: string | null;
  frameCount: number | null;
  /** True when every frame is a key frame (no B-frames), which makes scrubbing in a browser exact. */
  iframeOnly: boolean;
  audioTracks: AudioTrackInfo[];
}

/** Bytes start to end, both included, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a new file is stored as. */
export interface NewFile {
  name: string;
  contentType: string;
  /** A caller-chosen id (32 hex); a new one is made when absent. Conflict when the project already has it. */
  id?: string;
  author: string | null;
  activityId?: string | null;
}

/**
 * Provided by the files addon: the files of each project, kept behind a storage interface (local disk today, an
 * S3-compatible store later). The service does not check who asks: callers decide access before calling.
 */
export interface ProjectFiles {
  /** Largest upload, in bytes; bigger content is refused with 413 and leaves nothing behind. */
  readonly uploadLimit: number;
  /**
   * Store content streamed from a source as a new file of the project. Either the whole file is stored with its
   * record or nothing is (a broken stream, a size over the limit and an empty body all leave nothing behind).
   */
  store(project: string, content: Readable, file: NewFile): Promise<FileRecord>;
  /** A file's record, or null when the project has no such file. */
  get(project: string, id: string): Promise<FileRecord | null>;
  /** Bytes the project's complete files take in storage. */
  usage(project: string): Promise<number>;
  /** Records of the files attached to these activities. */
  listByActivity(project: string, activityIds: string[]): Promise<FileRecord[]>;
  /** The file's bytes, or the bytes of a range of it; NotFound when missing. */
  open(project: string, id: string, range?: ByteRange): Promise<Readable>;
  /** Attach files to an activity (or detach them with null), in the caller's unit of work if any. */
  attach(project: string, ids: string[], activityId: string | null): Promise<void>;
  /** Delete a file with its record and cached previews; false when it did not exist. */
  remove(project: string, id: string): Promise<boolean>;
  /** Run a hook inside the unit of work that deletes a file's record (to drop references to it). */
  onRemove(hook: (project: string, id: string) => Promise<void>): void;
  /**
   * ffprobe's description of the file, kept with the record after the first call; null when the file is not a
   * video or an image ffprobe can read. ServiceUnavailable when ffprobe is not installed.
   */
  mediaInfo(project: string, id: string): Promise<MediaInfo | null>;
  /** A JPEG of at most 500 px a side made from an image or a video's first frame, cached after the first call. */
  thumbnail(project: string, id: string): Promise<Buffer>;
  /** A full-size JPEG of the video frame shown at a time in seconds (an image's only frame at 0). */
  still(project: string, id: string, seconds: number): Promise<Buffer>;
  /**
   * JPEGs of a video's frames by index (its first is 0; an image's only frame is 0), read in one pass, each at
   * most maxSize pixels a side when given; an index past the end has no entry.
   */
  frames(project: string, id: string, indexes: number[], maxSize?: number): Promise<Map<number, Buffer>>;
}

/** The files service of the files addon. */
export const filesRef = createServiceRef<ProjectFiles>({ addon: 'files', id: 'files' });
