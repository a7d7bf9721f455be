import { Readable } from 'node:stream';
import { BadRequest, NotFound, isId, newId, type Database } from '@pipewright/sdk';
import type { ByteRange, FileRecord, MediaInfo, NewFile, ProjectFiles } from './api.js';
import { UnsupportedMedia } from './errors.js';
import { THUMBNAIL_SIZE, type MediaTools } from './media.js';
import { FileRecords } from './records.js';
import type { FileStorage, ObjectKey } from './storage.js';

/**
 * AYON's server code sets no upload limit of its own (its deployments bound uploads at the reverse proxy). This
 * one is generous enough for review media (long 4K ProRes) while keeping a single request from filling a disk.
 */
export const DEFAULT_UPLOAD_LIMIT = 10 * 1024 ** 3;

type RemoveHook = (project: string, id: string) => Promise<void>;

const upload = (project: string, id: string): ObjectKey => ({ project, group: 'uploads', id });
const preview = (project: string, id: string): ObjectKey => ({ project, group: 'previews', id });

/** Whether ffmpeg can make a picture of a file of this type (MXF is the one video container sent as application/). */
export const isPictureType = (contentType: string) =>
  /^(image\/|video\/|application\/mxf)/i.test(contentType.trim());

/** The files of every project: records in the project's schema, bytes in the file storage. */
export class FileService implements ProjectFiles {
  /** Bytes; a field rather than a constant so an operator's build (or a test) can change it. */
  uploadLimit = DEFAULT_UPLOAD_LIMIT;
  private readonly records: FileRecords;
  private readonly removeHooks: RemoveHook[] = [];
  /** Thumbnails being made in this process, so simultaneous first requests run ffmpeg once. */
  private readonly pendingThumbnails = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly db: Database,
    schemaName: (project: string) => string,
    private readonly storage: FileStorage,
    private readonly media: MediaTools,
  ) {
    this.records = new FileRecords(db, schemaName);
  }

  async store(project: string, content: Readable, file: NewFile): Promise<FileRecord> {
    const id = file.id ?? newId();
    // Ids become file names in the storage: nothing but 32 hex characters gets that far.
    if (!isId(id)) throw new BadRequest(`Invalid file id ${id}: 32 lowercase hex characters`);
    await this.records.reserve(project, {
      id,
      name: file.name,
      contentType: file.contentType,
      author: file.author,
      activityId: file.activityId ?? null,
    });
    try {
      const size = await this.storage.put(upload(project, id), content, this.uploadLimit);
      if (size === 0) throw new BadRequest('Empty file: send the file as the request body');
      return await this.records.complete(project, id, size);
    } catch (error) {
      // Leave nothing behind; a cleanup that fails too must not hide why the upload failed.
      await this.storage.delete(upload(project, id)).catch(() => undefined);
      await this.records.release(project, id).catch(() => undefined);
      throw error;
    }
  }

  /** See ProjectFiles: the methods below without a comment are documented there. */
  get(project: string, id: string): Promise<FileRecord | null> {
    return this.records.get(project, id);
  }

  usage(project: string): Promise<number> {
    return this.records.usage(project);
  }

  /** The record, or NotFound naming the file and the project. */
  async require(project: string, id: string): Promise<FileRecord> {
    const record = await this.records.get(project, id);
    if (!record) throw new NotFound(`File ${id} not found in project ${project}`);
    return record;
  }

  listByActivity(project: string, activityIds: string[]): Promise<FileRecord[]> {
    return this.records.listByActivity(project, activityIds);
  }

  async open(project: string, id: string, range?: ByteRange): Promise<Readable> {
    await this.require(project, id);
    return this.storage.get(upload(project, id), range);
  }

  attach(project: string, ids: string[], activityId: string | null): Promise<void> {
    return this.records.attach(project, ids, activityId);
  }

  async remove(project: string, id: string): Promise<boolean> {
    // The record goes first, in one transaction with whatever refers to it: if removing the bytes failed after
    // that, only unreachable bytes would remain, never a record pointing at nothing.
    const removed = await this.db.transaction().execute(async () => {
      if (!(await this.records.delete(project, id))) return false;
      for (const hook of this.removeHooks) await hook(project, id);
      return true;
    });
    if (removed) {
      await this.storage.delete(upload(project, id));
      await this.storage.delete(preview(project, id));
    }
    return removed;
  }

  onRemove(hook: RemoveHook): void {
    this.removeHooks.push(hook);
  }

  async mediaInfo(project: string, id: string): Promise<MediaInfo | null> {
    const record = await this.require(project, id);
    const cached = await this.records.mediaInfo(project, id);
    if (cached !== undefined) return cached;
    const info = isPictureType(record.contentType)
      ? await this.media.probe(await this.storage.mediaSource(upload(project, id)))
      : null;
    await this.records.saveMediaInfo(project, id, info);
    return info;
  }

  /** ffprobe's answer when the file was probed already (reading it never runs ffprobe). */
  async knownMediaInfo(project: string, id: string): Promise<MediaInfo | null> {
    return (await this.records.mediaInfo(project, id)) ?? null;
  }

  async thumbnail(project: string, id: string): Promise<Buffer> {
    const record = await this.require(project, id);
    if (!isPictureType(record.contentType)) {
      throw new UnsupportedMedia(
        `File ${id} is ${record.contentType}: only images and videos have thumbnails`,
      );
    }
    const key = `${project}/${id}`;
    let pending = this.pendingThumbnails.get(key);
    if (!pending) {
      pending = this.cachedThumbnail(project, id).finally(() => this.pendingThumbnails.delete(key));
      this.pendingThumbnails.set(key, pending);
    }
    return pending;
  }

  /** The thumbnail from the previews (made by any server process sharing the storage), or a new one kept there. */
  private async cachedThumbnail(project: string, id: string): Promise<Buffer> {
    const key = preview(project, id);
    if (await this.storage.exists(key)) return Buffer.concat(await (await this.storage.get(key)).toArray());
    const image = await this.media.frame(
      await this.storage.mediaSource(upload(project, id)),
      0,
      THUMBNAIL_SIZE,
    );
    if (!image) throw new NotFound(`No thumbnail can be made of file ${id}: ffmpeg could not decode it`);
    await this.storage.put(key, Readable.from([image]), image.length);
    return image;
  }

  async still(project: string, id: string, seconds: number): Promise<Buffer> {
    const record = await this.require(project, id);
    if (!isPictureType(record.contentType)) {
      throw new UnsupportedMedia(`File ${id} is ${record.contentType}: only videos and images have frames`);
    }
    // ffmpeg answers the first frame at or after the time it seeks to; the frame shown at a time started before it.
    // Seeking a quarter of a frame before that frame's start lands on it whatever the rounding of its timestamp.
    const fps = seconds > 0 ? (await this.mediaInfo(project, id).catch(() => null))?.frameRate : null;
    const at = fps ? Math.max(0, (Math.floor(seconds * fps + 1e-6) - 0.25) / fps) : seconds;
    const image = await this.media.frame(await this.storage.mediaSource(upload(project, id)), at);
    if (!image) throw new NotFound(`File ${id} has no frame at ${seconds} s`);
    return image;
  }

  async frames(
    project: string,
    id: string,
    indexes: number[],
    maxSize?: number,
  ): Promise<Map<number, Buffer>> {
    const record = await this.require(project, id);
    if (!isPictureType(record.contentType)) {
      throw new UnsupportedMedia(`File ${id} is ${record.contentType}: only videos and images have frames`);
    }
    return this.media.framesAt(await this.storage.mediaSource(upload(project, id)), indexes, maxSize);
  }

  /** Remove every file of a deleted project (its records went with its schema). */
  async dropProject(project: string): Promise<void> {
    await this.storage.deleteProject(project);
  }
}
