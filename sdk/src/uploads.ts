import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

// For routes that take a raw upload body (project files, reviewables, ...).

/**
 * The request body as a stream that storage may consume and destroy without destroying the request itself:
 * destroying the incoming message can end the connection before the answer (a 413 when the upload is too big)
 * is sent. A client that aborts midway still fails the stream, so a broken upload is never stored.
 */
export function uploadStream(request: IncomingMessage | Readable): Readable {
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
 * Header text as the client meant it. Node reads header bytes as latin1, so a UTF-8 file name sent raw arrives
 * as mojibake; when the bytes are valid UTF-8 they are read as such, otherwise the text is kept as it came.
 */
export function headerText(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  const text = Buffer.from(value, 'latin1').toString('utf8');
  return text.includes('\ufffd') ? value : text;
}
