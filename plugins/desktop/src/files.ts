import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SILENT_JOB_MS, newId } from '@pipewright/sdk';
import type { ChecksumAlgorithm } from './schemas.js';

/** The two kinds of files, each in its own directory (the names AYON uses under its storage directory). */
export type FileArea = 'installers' | 'dependency_packages';

/** An upload written to a temporary file: its size and digest, computed while it streamed in. */
export interface ReceivedFile {
  tempPath: string;
  size: number;
  checksum: string;
  checksumAlgorithm: ChecksumAlgorithm;
}

/**
 * Files under DATA_DIR/desktop. Uploads stream to a temporary file beside the areas (same file system, so the
 * final rename is atomic) while their digest is computed, and only move into place once the record accepts them:
 * a download never sees half a file, and a refused upload leaves nothing behind.
 */
export class DesktopFiles {
  private readonly incoming: string;

  constructor(private readonly root: string) {
    this.incoming = join(root, '.incoming');
  }

  /**
   * Remove temporary files of uploads and downloads their process took down with it (killed mid-transfer). A live
   * transfer writes all the time (a silent download times out within a minute), so a file left alone for
   * SILENT_JOB_MS is nobody's, whichever process sharing this folder wrote it.
   */
  async removeAbandoned(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.incoming).catch(() => [] as string[])) {
      const path = join(this.incoming, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs >= SILENT_JOB_MS) {
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }

  directory(area: FileArea): string {
    return join(this.root, area);
  }

  path(area: FileArea, filename: string): string {
    return join(this.root, area, filename);
  }

  /** Size of the stored file, or null when there is none. */
  async size(area: FileArea, filename: string): Promise<number | null> {
    try {
      const info = await stat(this.path(area, filename));
      return info.isFile() ? info.size : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Write a body to a temporary file chunk by chunk, hashing as it goes; nothing is kept if the stream fails. */
  async receive(
    body: Readable | AsyncIterable<Uint8Array>,
    algorithm: ChecksumAlgorithm,
  ): Promise<ReceivedFile> {
    await mkdir(this.incoming, { recursive: true });
    const tempPath = join(this.incoming, `${newId()}.part`);
    const hash = createHash(algorithm);
    let size = 0;
    try {
      await pipeline(
        body,
        async function* (source: AsyncIterable<Buffer | Uint8Array>) {
          for await (const chunk of source) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(tempPath),
      );
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    return { tempPath, size, checksum: hash.digest('hex'), checksumAlgorithm: algorithm };
  }

  /** Move a received file into place, replacing any earlier one of the same name. */
  async commit(received: ReceivedFile, area: FileArea, filename: string): Promise<void> {
    await mkdir(this.directory(area), { recursive: true });
    await rename(received.tempPath, this.path(area, filename));
  }

  async discard(received: ReceivedFile): Promise<void> {
    await rm(received.tempPath, { force: true });
  }

  async remove(area: FileArea, filename: string): Promise<void> {
    await rm(this.path(area, filename), { force: true });
  }
}
