import { ValidationFailed } from '@pipewright/sdk';

/** The only formats AYON keeps as thumbnails. */
export type ThumbnailMime = 'image/png' | 'image/jpeg';

const SIGNATURES: { mime: ThumbnailMime; bytes: number[] }[] = [
  { mime: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/** The format the bytes themselves announce, or null when they are neither PNG nor JPEG. */
export function detectImageType(bytes: Uint8Array): ThumbnailMime | null {
  for (const { mime, bytes: signature } of SIGNATURES) {
    if (bytes.length > signature.length && signature.every((byte, i) => bytes[i] === byte)) return mime;
  }
  return null;
}

const refuse = (msg: string, type: string) =>
  new ValidationFailed([{ loc: ['body'], msg, type }], `Invalid thumbnail: ${msg}`);

/**
 * The uploaded image and its real type. Clients label uploads loosely (octet-stream, or a JPEG sent as
 * image/png), so the header only decides how the body is read; what gets stored is decided by the bytes.
 */
export function readImage(body: unknown): { bytes: Buffer; mime: ThumbnailMime } {
  if (body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0)) {
    throw refuse('the thumbnail is empty: send the image bytes as the request body', 'empty_thumbnail');
  }
  if (!Buffer.isBuffer(body)) {
    throw refuse(
      'send the raw image bytes with content-type image/png, image/jpeg or application/octet-stream',
      'raw_body_expected',
    );
  }
  const mime = detectImageType(body);
  if (!mime)
    throw refuse('the body is not a PNG or JPEG image (checked from its first bytes)', 'unsupported_image');
  return { bytes: body, mime };
}

/** A 1x1 fully transparent PNG: what placeholder=empty answers in place of a missing image. */
export const EMPTY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR42mNgAAIAAAUAAen63NgAAAAASUVORK5CYII=',
  'base64',
);
