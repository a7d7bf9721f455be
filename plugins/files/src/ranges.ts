import type { ByteRange } from './api.js';
import { RangeNotSatisfiable } from './errors.js';

/**
 * The byte range a Range header asks of a file of this size (RFC 9110 14.1.2), or null for the whole file.
 * Video players send "bytes=0-", "bytes=start-end" or a suffix "bytes=-length". A header this server does not
 * understand (another unit, several ranges) is ignored, as the RFC allows: the whole file is the correct answer.
 * A range entirely outside the file is refused with 416.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    // A suffix: the last N bytes (all of them when the file is shorter).
    const length = Number(last);
    if (length === 0 || size === 0) throw new RangeNotSatisfiable(size, `Range ${header} selects no bytes`);
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null; // syntactically invalid: ignored, as the RFC says
  if (start >= size)
    throw new RangeNotSatisfiable(size, `Range ${header} starts beyond the file's ${size} bytes`);
  return { start, end };
}
