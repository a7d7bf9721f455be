import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ValidationFailed, newId } from '@pipewright/sdk';

/** The images the server configuration can hold, by the file_type of their URL, with their configuration key. */
export const CONFIG_FILE_TYPES = {
  login_background: 'loginBackground',
  studio_logo: 'studioLogo',
} as const;
export type ConfigFileType = keyof typeof CONFIG_FILE_TYPES;

/** Largest image accepted: a full-screen background fits comfortably. */
export const MAX_IMAGE_BYTES = 16 * 1024 * 1024;

interface ImageFormat {
  mime: string;
  extension: 'png' | 'jpg' | 'gif' | 'webp';
  matches(bytes: Buffer): boolean;
}

const startsWith = (bytes: Buffer, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

// SVG is left out on purpose: served from the API's own origin, a script inside one would run as the server.
const FORMATS: ImageFormat[] = [
  {
    mime: 'image/png',
    extension: 'png',
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { mime: 'image/jpeg', extension: 'jpg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', extension: 'gif', matches: (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) },
  {
    mime: 'image/webp',
    extension: 'webp',
    matches: (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b, [0x57, 0x45, 0x42, 0x50], 8),
  },
];

const refuse = (msg: string, type: string) =>
  new ValidationFailed([{ loc: ['body'], msg, type }], `Invalid image: ${msg}`);

/** The uploaded bytes and their format, judged by the bytes themselves (clients label uploads loosely). */
export function readImage(body: unknown): { bytes: Buffer; format: ImageFormat } {
  if (body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0)) {
    throw refuse('the image is empty: send the image bytes as the request body', 'empty_image');
  }
  if (!Buffer.isBuffer(body)) {
    throw refuse('send the raw image bytes, not a JSON document', 'raw_body_expected');
  }
  const format = FORMATS.find((candidate) => candidate.matches(body));
  if (!format) throw refuse('the body is not a PNG, JPEG, GIF or WebP image', 'unsupported_image');
  return { bytes: body, format };
}

/** The content type a stored image is served with, from the extension its name was given. */
export function mimeOf(fileName: string): string {
  const extension = fileName.slice(fileName.lastIndexOf('.') + 1);
  return FORMATS.find((format) => format.extension === extension)?.mime ?? 'application/octet-stream';
}

/**
 * Configuration images as files under DATA_DIR/server-config. Names carry a hash of the content, so replacing an
 * image never changes the bytes behind a name another process or a browser already holds.
 */
export class ConfigFileStore {
  constructor(private readonly directory: string) {}

  static under(dataDir: string): ConfigFileStore {
    return new ConfigFileStore(join(dataDir, 'server-config'));
  }

  /** Store an image; answers the name the configuration should point at. */
  async write(fileType: ConfigFileType, image: { bytes: Buffer; format: ImageFormat }): Promise<string> {
    const hash = createHash('sha256').update(image.bytes).digest('hex').slice(0, 16);
    const name = `${fileType}-${hash}.${image.format.extension}`;
    await mkdir(this.directory, { recursive: true });
    // Write beside, then rename: a reader never sees half an image.
    const partial = join(this.directory, `.${name}.${newId()}`);
    await writeFile(partial, image.bytes);
    await rename(partial, join(this.directory, name));
    return name;
  }

  /** The bytes of a stored image, or null when the name is not one of ours or the file is gone. */
  async read(fileType: ConfigFileType, name: string): Promise<Buffer | null> {
    if (!this.owns(fileType, name)) return null;
    try {
      return await readFile(join(this.directory, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(fileType: ConfigFileType, name: string): Promise<void> {
    if (this.owns(fileType, name)) await rm(join(this.directory, name), { force: true });
  }

  /** Names come from the configuration; only a plain name of this type is ever joined to the directory. */
  private owns(fileType: ConfigFileType, name: string): boolean {
    return new RegExp(`^${fileType}-[0-9a-f]{16}\\.(png|jpg|gif|webp)$`).test(name);
  }
}
