import type { RequestUser } from '@pipewright/sdk';
import type { ProjectFiles } from '@pipewright/plugin-files/api';
import type { EntityThumbnails } from '@pipewright/plugin-thumbnails/api';

/**
 * Gives a version without a thumbnail one made from a reviewable: the frame at 0 s of a video, or the image
 * itself, scaled to fit 500 px (the files addon's thumbnail of the file), set through the thumbnails service as
 * the uploader's change (the uploader may publish to the version, so may set its thumbnail).
 */
export class VersionThumbnail {
  constructor(
    private readonly thumbnails: EntityThumbnails,
    private readonly files: ProjectFiles,
  ) {}

  /** Make the file's thumbnail the version's. */
  async fillFromFile(caller: RequestUser, project: string, versionId: string, fileId: string) {
    const image = await this.files.thumbnail(project, fileId);
    await this.thumbnails.set(caller, project, 'version', versionId, image);
  }
}
