import type { MediaInfo as FileMediaInfo } from '@pipewright/plugin-files/api';
import { apiErrorFor, type PipewrightClient } from '@pipewright/sdk/client';
import { callRoute } from '@pipewright/sdk/ui';

// The reviewables and files routes as the review screen uses them. They are not among the client's typed paths
// (its schema predates both addons), so JSON calls go through callRoute (same session, same errors) and the shapes
// are written out here from the addons' schemas.

export type Availability = 'ready' | 'conversionRecommended' | 'conversionRequired' | 'unknown';

/** ffprobe's description of an upload (plugins/files), as far as the screen reads it; a still image lasts 0 seconds. */
export type MediaInfo = Pick<
  FileMediaInfo,
  | 'width'
  | 'height'
  | 'pixelFormat'
  | 'frameRate'
  | 'duration'
  | 'codec'
  | 'frameCount'
  | 'majorBrand'
  | 'videoTrackIndex'
>;

export interface Reviewable {
  fileId: string;
  /** The reviewable is an activity of the version: this id is what order and label changes name. */
  activityId: string;
  filename: string;
  label: string | null;
  mimetype: string;
  availability: Availability;
  mediaInfo: MediaInfo | null;
  createdAt: string;
  author: { name: string; fullName: string | null };
}

export interface VersionReviewables {
  id: string;
  /** v001, or HERO */
  name: string;
  status: string;
  productId: string;
  productName: string;
  productType: string;
  reviewables: Reviewable[];
}

const at = (project: string) => `/api/projects/${encodeURIComponent(project)}`;

/** A version with its reviewables, in their order. */
export function readVersion(client: PipewrightClient, project: string, versionId: string) {
  return callRoute<VersionReviewables>(client, `${at(project)}/versions/${versionId}/reviewables`);
}

/** Save the order of a version's reviewables: every activity id of the version, once. */
export function saveOrder(client: PipewrightClient, project: string, versionId: string, order: string[]) {
  return callRoute(client, `${at(project)}/versions/${versionId}/reviewables`, {
    method: 'PATCH',
    body: { sort: order },
  });
}

/** Rename a reviewable (the API cannot clear a label, only replace it). */
export function saveLabel(
  client: PipewrightClient,
  project: string,
  versionId: string,
  activityId: string,
  label: string,
) {
  return callRoute(client, `${at(project)}/versions/${versionId}/reviewables/${activityId}`, {
    method: 'PATCH',
    body: { label },
  });
}

/**
 * Where a <video> reads the file from. A media element cannot send an Authorization header and asks for byte
 * ranges itself as it plays and seeks, so the session token rides in the query (the auth addon accepts ?token=,
 * as AYON does); fetching the whole file into a blob first would make a long review clip wait for every byte.
 */
export function streamUrl(client: PipewrightClient, token: string, project: string, fileId: string): string {
  return `${client.baseUrl}${at(project)}/files/${fileId}/payload?token=${encodeURIComponent(token)}`;
}

/** A picture of a file (its thumbnail, a still frame, or an image's own bytes), read with the session. */
export type Picture = { kind: 'thumbnail' } | { kind: 'still'; seconds: number } | { kind: 'payload' };

export async function readPicture(
  client: PipewrightClient,
  project: string,
  fileId: string,
  picture: Picture,
): Promise<Blob> {
  const path = `${at(project)}/files/${fileId}/${picture.kind}`;
  const query = picture.kind === 'still' ? `?t=${picture.seconds}` : '';
  const request = client.fetchClient.request as unknown as (
    method: string,
    url: string,
    init: Record<string, unknown>,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const { data, error, response } = await request('get', path + query, { parseAs: 'blob' });
  if (!response.ok) throw apiErrorFor({ status: response.status, method: 'GET', url: path, body: error });
  return data as Blob;
}

// --- Uploads ---------------------------------------------------------------------------------------------------

/** Types browsers leave empty for review formats they do not know; the server needs one to accept the file. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  exr: 'image/x-exr',
  dpx: 'image/x-dpx',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  tga: 'image/x-tga',
  psd: 'image/vnd.adobe.photoshop',
  mxf: 'application/mxf',
  mov: 'video/quicktime',
  mkv: 'video/x-matroska',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
};

/** The media type to send a file as: the browser's, else one known from the extension, else octet-stream. */
export function mediaTypeOf(file: File): string {
  if (file.type) return file.type;
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  return TYPE_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/** What the reviewables addon takes: a video (MXF included) or an image. */
export const isReviewableType = (type: string) => /^(video\/|image\/|application\/mxf\s*(;|$))/i.test(type);

/** Header values are bytes: a UTF-8 name is sent as its bytes, which the server reads back as UTF-8. */
const headerSafe = (name: string) => String.fromCharCode(...new TextEncoder().encode(name));

export interface UploadProgress {
  sent: number;
  total: number;
}

/** An upload under way: its outcome, and a way to stop it. */
export interface RunningUpload {
  done: Promise<Reviewable>;
  abort(): void;
}

/** Thrown when the user stopped an upload: not a failure to show. */
export class UploadAborted extends Error {
  constructor() {
    super('The upload was cancelled');
    this.name = 'UploadAborted';
  }
}

/**
 * Upload a reviewable with progress. fetch() cannot report how much of a request body has been sent (a streamed
 * body needs HTTP/2), so this is XMLHttpRequest, carrying the same session. Refusals become the client's ApiError
 * (ErrorBox reads its detail and problems); a 401 is handed to the client by a cheap call, so the session ends in
 * the web app as for any other request.
 */
export function uploadReviewable(
  client: PipewrightClient,
  project: string,
  versionId: string,
  file: File,
  label: string,
  onProgress: (progress: UploadProgress) => void,
): RunningUpload {
  const xhr = new XMLHttpRequest();
  const query = label ? `?label=${encodeURIComponent(label)}` : '';
  const url = `${client.baseUrl}${at(project)}/versions/${versionId}/reviewables${query}`;
  const done = new Promise<Reviewable>((resolve, reject) => {
    xhr.open('POST', url);
    if (client.token) xhr.setRequestHeader('authorization', `Bearer ${client.token}`);
    xhr.setRequestHeader('content-type', mediaTypeOf(file));
    xhr.setRequestHeader('x-file-name', headerSafe(file.name));
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) =>
      onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(xhr.response as Reviewable);
      if (xhr.status === 401) void client.GET('/api/users/me').catch(() => undefined);
      reject(apiErrorFor({ status: xhr.status, method: 'POST', url, body: xhr.response ?? undefined }));
    };
    xhr.onabort = () => reject(new UploadAborted());
    xhr.onerror = () =>
      reject(
        new Error(
          'The connection to the server broke before the upload finished. Check the network and try again; ' +
            'a very large file may also be over the upload limit the server allows.',
        ),
      );
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}
