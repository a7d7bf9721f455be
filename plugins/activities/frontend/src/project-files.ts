import { apiErrorFor, type PipewrightClient } from '@pipewright/sdk/client';
import { at } from './activity-routes';

// The files addon's routes for activities' attachments: raw bytes, so they go through the client's fetch client
// rather than callRoute's JSON.

type UntypedRequest = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Header values are bytes: the UTF-8 name sent byte for byte, as the files addon reads it back. */
function headerSafe(name: string): string {
  return String.fromCharCode(...new TextEncoder().encode(name));
}

/**
 * Upload a file to the project (the files addon), to attach to an activity; answers its id. The raw body goes
 * through the client's fetch client, so it carries the session and a 401 ends it like any call.
 */
export async function uploadFile(client: PipewrightClient, project: string, file: File): Promise<string> {
  const request = client.fetchClient.request as unknown as UntypedRequest;
  const path = `${at(project)}/files`;
  const { data, error, response } = await request('post', path, {
    body: file,
    bodySerializer: (value: unknown) => value,
    headers: {
      'content-type': file.type || 'application/octet-stream',
      'x-file-name': headerSafe(file.name),
    },
  });
  if (!response.ok) throw apiErrorFor({ status: response.status, method: 'POST', url: path, body: error });
  return (data as { id: string }).id;
}

/** The bytes of a project file, for a download or a preview. */
export async function readFile(client: PipewrightClient, project: string, id: string): Promise<Blob> {
  const request = client.fetchClient.request as unknown as UntypedRequest;
  const path = `${at(project)}/files/${id}/payload`;
  const { data, error, response } = await request('get', path, { parseAs: 'blob' });
  if (!response.ok) throw apiErrorFor({ status: response.status, method: 'GET', url: path, body: error });
  return data as Blob;
}
