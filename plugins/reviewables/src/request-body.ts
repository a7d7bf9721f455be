import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

/**
 * The request body as a stream the files service may consume and destroy, without destroying the request itself
 * (that could end the connection before an error answer is sent). A client that aborts midway fails the stream,
 * so a broken upload is never stored.
 */
export function uploadStream(request: IncomingMessage): Readable {
  const body = new PassThrough();
  const abort = (error?: Error) => body.destroy(error ?? new Error('The upload was interrupted'));
  request.once('error', abort);
  request.once('close', () => {
    if (!request.readableEnded) abort();
  });
  body.once('close', () => {
    request.unpipe(body);
    request.off('error', abort);
  });
  request.pipe(body);
  return body;
}

/**
 * A header's text as the client meant it: Node reads header bytes as latin1, so a UTF-8 file name sent raw arrives
 * garbled; bytes that are valid UTF-8 are read as such, anything else is kept as it came.
 */
export function headerText(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  const text = Buffer.from(value, 'latin1').toString('utf8');
  return text.includes('\ufffd') ? value : text;
}

/** Video, MXF (the one video container sent as application/) or image: what a reviewable may be. */
export const isReviewableType = (contentType: string) =>
  /^(video\/|image\/|application\/mxf\s*(;|$))/i.test(contentType.trim());
