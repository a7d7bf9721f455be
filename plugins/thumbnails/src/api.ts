import { createServiceRef } from '@pipewright/sdk';
import type { RequestUser } from '@pipewright/sdk';

/** Provided by the thumbnails addon: setting an entity's thumbnail from code (a reviewable's first frame, ...). */
export interface EntityThumbnails {
  /**
   * Store a PNG or JPEG and make it the entity's thumbnail, checked and recorded as the caller's change (entity
   * events included); answers the new thumbnail's id. Not a PNG or JPEG: 400.
   */
  set(
    caller: RequestUser,
    projectName: string,
    entityType: 'folder' | 'task' | 'version' | 'workfile',
    entityId: string,
    image: Buffer,
  ): Promise<string>;
}

/** The thumbnails service of the thumbnails addon. */
export const thumbnailsRef = createServiceRef<EntityThumbnails>({ addon: 'thumbnails', id: 'thumbnails' });
