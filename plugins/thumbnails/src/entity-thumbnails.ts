import { NotFound, newId } from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { EntityThumbnails } from './api.js';
import { readImage } from './image-type.js';
import type { ThumbnailStore } from './service.js';

/** A short random value in data.thumbnailHash: clients put it in image URLs to get past their caches. */
export const thumbnailHash = () => newId().slice(0, 8);

const capitalised = (type: string) => `${type[0].toUpperCase()}${type.slice(1)}`;

/**
 * Setting an entity's thumbnail, for the upload route and for other addons (the thumbnails service). Always a new
 * id: other entities (or cached pages) may still show the old image by its id. The entity's side goes through the
 * entities addon, so access checks and entity events stay in one place.
 */
export function entityThumbnails(store: ThumbnailStore, entities: EntityDirectory): EntityThumbnails {
  return {
    async set(caller, projectName, entityType, entityId, image) {
      const { bytes, mime } = readImage(image);
      if (!(await entities.get(projectName, entityType, entityId, caller)))
        throw new NotFound(`${capitalised(entityType)} ${entityId} not found in project ${projectName}`);
      const id = newId();
      await store.put(projectName, id, mime, bytes, caller.name);
      try {
        await entities.update(caller, projectName, entityType, entityId, {
          thumbnailId: id,
          data: { thumbnailHash: thumbnailHash() },
        });
      } catch (error) {
        // The entity refused the change (access, deleted meanwhile): an image nobody points at is just litter.
        await store.remove(projectName, id).catch(() => undefined);
        throw error;
      }
      return id;
    },
  };
}
