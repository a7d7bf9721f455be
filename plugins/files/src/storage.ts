import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NotFound } from '@pipewright/sdk';
import type { ByteRange } from './api.js';
import { PayloadTooLarge } from './errors.js';

/** Where a stored object belongs: uploads are the files themselves, previews the thumbnails made from them. */
export type ObjectGroup = 'uploads' | 'previews';

/** One stored object. Project names and ids are validated before they get here (letters, digits, hex). */
export interface ObjectKey {
  project: string;
  group: ObjectGroup;
  id: string;
}

/**
 * Where file bytes live. The local disk implementation below is the default; an S3-compatible store can implement
 * the same interface later (put as a streamed multipart upload, get as a ranged GetObject, mediaSource as a
 * pre-signed URL that ffmpeg and ffprobe read over HTTP), without the service or the routes changing.
 */
export interface FileStorage {
  /**
   * Store a stream under a key, replacing what was there, and answer the number of bytes written. All or nothing:
   * a stream that fails, or grows past limit bytes (PayloadTooLarge), leaves no object behind.
   */
  put(key: ObjectKey, content: Readable, limit: number): Promise<number>;
  /** The object's bytes, or a range of them; NotFound when there is no such object. */
  get(key: ObjectKey, range?: ByteRange): Promise<Readable>;
  /** Whether the object exists. */
  exists(key: ObjectKey): Promise<boolean>;
  /** Remove the object; nothing happens when it is already gone. */
  delete(key: ObjectKey): Promise<void>;
  /** Remove every object of a project (the project was deleted). */
  deleteProject(project: string): Promise<void>;
  /** A path or URL ffmpeg and ffprobe can read the object from. */
  mediaSource(key: ObjectKey): Promise<string>;
}

/** Passes bytes through, counting them, and fails the stream as soon as they exceed the limit. */
class ByteLimit extends Transform {
  count = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.count += chunk.length;
    if (this.count > this.limit) done(new PayloadTooLarge(this.limit));
    else done(null, chunk);
  }
}

/**
 * Objects as files under {root}/{project}/{group}/{id[:2]}/{id}, as AYON lays out its project storage (the
 * two-character level keeps directories small). Writes go to a temporary name beside the target and are renamed
 * into place, so readers and other server processes sharing the directory never see half a file. The
 * two-character folders stay once made (at most 256 per group): removing them when empty could race with an
 * upload about to write into one.
 */
export class LocalDiskStorage implements FileStorage {
  constructor(private readonly root: string) {}

  /** The file an object is kept in. */
  pathOf({ project, group, id }: ObjectKey): string {
    return join(this.root, project, group, id.slice(0, 2), id);
  }

  async put(key: ObjectKey, content: Readable, limit: number): Promise<number> {
    const target = this.pathOf(key);
    const partial = `${target}.${randomBytes(6).toString('hex')}.part`;
    await mkdir(dirname(target), { recursive: true });
    const counter = new ByteLimit(limit);
    try {
      await pipeline(content, counter, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return counter.count;
  }

  async get(key: ObjectKey, range?: ByteRange): Promise<Readable> {
    // Opening first turns a missing file into NotFound before any answer has started.
    const handle = await open(this.pathOf(key), 'r').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new NotFound(`File ${key.id} is missing from storage`);
      throw error;
    });
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async exists(key: ObjectKey): Promise<boolean> {
    return stat(this.pathOf(key)).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  async delete(key: ObjectKey): Promise<void> {
    await unlink(this.pathOf(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async deleteProject(project: string): Promise<void> {
    await rm(join(this.root, project), { recursive: true, force: true });
  }

  async mediaSource(key: ObjectKey): Promise<string> {
    return this.pathOf(key);
  }
}
