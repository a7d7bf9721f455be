import { PipewrightError } from '@pipewright/sdk';
import type { FileRecord } from '@pipewright/plugin-files/api';

/** Bytes start to end, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

/** 416: the range asked for lies outside the file (the answer carries Content-Range: bytes *&#47;size). */
export class RangeNotSatisfiable extends PipewrightError {
  constructor(
    readonly size: number,
    message: string,
  ) {
    super(416, message, 'range-not-satisfiable');
  }
}

/**
 * The byte range a Range header asks of a file (RFC 9110 14.1.2), or null for the whole file: "bytes=0-",
 * "bytes=a-b" and "bytes=-n", as video players send them. What this server does not read (other units, several
 * ranges) gets the whole file, as the RFC allows.
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, first, last] = match;
  if (first === '') {
    const length = Number(last);
    if (length === 0 || size === 0) throw new RangeNotSatisfiable(size, `Range ${header} selects no bytes`);
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size)
    throw new RangeNotSatisfiable(size, `Range ${header} starts beyond the file's ${size} bytes`);
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** A file name for Content-Disposition: ASCII for old clients, the exact name as UTF-8 (RFC 6266) for the rest. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The headers of a guest's media answer; never cached by a shared cache, since a revoked link must stop it. */
export function mediaHeaders(file: FileRecord, download: boolean): Record<string, string> {
  return {
    'content-type': file.contentType,
    'content-disposition': disposition(download ? 'attachment' : 'inline', file.name),
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'",
  };
}
