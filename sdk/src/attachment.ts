/**
 * A Content-Disposition for a file to save, named as AYON's file answers name it: quoted when the name needs no
 * escaping, otherwise percent-encoded UTF-8 (RFC 6266), since a file name may hold any character but a separator.
 */
export function attachment(filename: string): string {
  const encoded = encodeURIComponent(filename).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return encoded === filename
    ? `attachment; filename="${filename}"`
    : `attachment; filename*=utf-8''${encoded}`;
}

/** A file to save, as an export answers it. */
export interface Download {
  fileName: string;
  contentType: string;
  body: Buffer | string;
}

interface Reply {
  header(name: string, value: string): Reply;
  send(payload: unknown): unknown;
}

/** Answer a file for the browser to save under its name. */
export const sendDownload = (reply: Reply, file: Download) =>
  reply
    .header('content-type', file.contentType)
    .header('content-disposition', attachment(file.fileName))
    .send(file.body);
