import type { FastifyRequest } from 'fastify';
import type { AddonApp, EntityDirectory, ProjectFiles } from '@pipewright/sdk';

/** The headers that say who the uploader is, and who sent the change (passed on so clients ignore their echo). */
const FORWARDED = ['authorization', 'x-api-key', 'cookie', 'x-sender', 'x-sender-type'];

/**
 * Gives a version without a thumbnail one made from a reviewable: the frame at 0 s of a video, or the image
 * itself, scaled to fit 500 px (the files addon's thumbnail of the file).
 *
 * The thumbnails addon offers no service yet, so the image goes through its public route
 * (POST /api/projects/{p}/versions/{id}/thumbnail) on behalf of the uploader, who may publish to the version and
 * therefore may set its thumbnail. That keeps its table, the version's thumbnailId and thumbnailHash and the
 * entity events in the hands of their owners; once the thumbnails addon provides a service, this becomes one call.
 */
export class VersionThumbnail {
  constructor(
    private readonly app: AddonApp,
    private readonly entities: EntityDirectory,
    private readonly files: ProjectFiles,
  ) {}

  /** Set the version's thumbnail from the file when it has none; false when it had one already. */
  async fillFromFile(request: FastifyRequest, project: string, versionId: string, fileId: string) {
    const version = await this.entities.get(project, 'version', versionId);
    if (!version || version.thumbnailId) return false;
    const image = await this.files.thumbnail(project, fileId);
    const headers: Record<string, string> = { 'content-type': 'image/jpeg' };
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const token = new URL(request.url, 'http://server').searchParams.get('token');
    const url = `/api/projects/${project}/versions/${versionId}/thumbnail${token ? `?token=${encodeURIComponent(token)}` : ''}`;
    const answer = await this.app.inject({ method: 'POST', url, headers, payload: image });
    if (answer.statusCode !== 201)
      throw new Error(`The thumbnails addon answered ${answer.statusCode}: ${answer.body}`);
    return true;
  }
}
