import type { FileRecord } from './api.js';

/** A UUID as the 32 lowercase hex characters ids are stored as. */
export const compactId = (value: string) => value.replaceAll('-', '').toLowerCase();

/**
 * inline, so browsers show images and play videos; the name twice: plain ASCII for old clients, and the exact
 * UTF-8 name (RFC 6266) for the rest.
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The headers every answer carrying a file (or describing it, for HEAD) has. Uploads are served from the API's
 * own origin, so an HTML or SVG file opened directly must not run scripts there: the sandbox policy and nosniff
 * keep it inert, while images and videos embedded by the web app are unaffected.
 */
export function fileHeaders(file: FileRecord): Record<string, string> {
  return {
    'content-type': file.contentType,
    'content-disposition': contentDisposition(file.name),
    'accept-ranges': 'bytes',
    'cache-control': 'private, max-age=3600',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'",
    'access-control-expose-headers':
      'content-type, accept-ranges, content-length, content-range, content-disposition',
  };
}
