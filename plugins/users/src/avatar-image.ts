import type { FastifyRequest } from 'fastify';
import { ValidationFailed, uploadStream } from '@pipewright/sdk';
import { PayloadTooLarge } from './errors.js';

/** The formats AYON keeps as avatars. */
export type AvatarMime = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';

/** A profile picture is shown small: 5 MiB is room for a photo straight from a phone, and no more. */
export const AVATAR_LIMIT = 5 * 1024 * 1024;

const startsWith = (bytes: Buffer, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * An SVG document: text whose root element is <svg>, after an optional byte-order mark, XML declaration,
 * comments and doctype. Anything else that merely mentions "<svg" is not one.
 */
function isSvg(bytes: Buffer): boolean {
  let text = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\ufeff/, '');
  const prolog = /^\s*(<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i;
  for (let match = prolog.exec(text); match; match = prolog.exec(text)) text = text.slice(match[0].length);
  return /^\s*<svg[\s>/]/i.test(text);
}

/** The format the bytes themselves announce, or null when they are none AYON takes as an avatar. */
export function detectAvatarType(bytes: Buffer): AvatarMime | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (isSvg(bytes)) return 'image/svg+xml';
  return null;
}

const refuse = (msg: string, type: string) =>
  new ValidationFailed([{ loc: ['body'], msg, type }], `Invalid avatar: ${msg}`);

/**
 * The uploaded picture and its real type, read from the raw body. Clients label uploads loosely (octet-stream, a
 * JPEG sent as image/png), so the content-type header is not trusted: the first bytes decide.
 */
export async function readAvatar(request: FastifyRequest): Promise<{ bytes: Buffer; mime: AvatarMime }> {
  // A declared size over the limit is refused before a byte is read; a body without one is counted as it comes.
  if (Number(request.headers['content-length']) > AVATAR_LIMIT)
    throw new PayloadTooLarge('avatar', AVATAR_LIMIT);
  const chunks: Buffer[] = [];
  let size = 0;
  // Read through uploadStream: giving up early destroys that copy, not the request, so the 413 still gets out.
  for await (const chunk of uploadStream(request.raw)) {
    size += chunk.length;
    if (size > AVATAR_LIMIT) throw new PayloadTooLarge('avatar', AVATAR_LIMIT);
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.length === 0) {
    throw refuse('the avatar is empty: send the image bytes as the request body', 'empty_avatar');
  }
  const mime = detectAvatarType(bytes);
  if (!mime) {
    throw refuse(
      'the body is not a PNG, JPEG, WebP or SVG image (checked from its first bytes)',
      'unsupported_image',
    );
  }
  return { bytes, mime };
}
