import {
  Forbidden,
  NotFound,
  isManagerOrAbove,
  pathInScope,
  type ProjectEntityType,
  type RequestUser,
} from '@pipewright/sdk';
import type { AccessControl } from '@pipewright/plugin-access/api';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';

export type Entity = Record<string, any>;

const capitalised = (type: string) => `${type[0].toUpperCase()}${type.slice(1)}`;

/**
 * Who may see and change the reviewables of a project. Reading follows the entities' read access (an entity the
 * caller cannot read answers 404, as if it did not exist). Uploading is publishing to the version, as AYON checks
 * it: the publish whitelist of the caller's access groups must reach the version's folder. Guests never write.
 */
export class ReviewAccess {
  constructor(
    private readonly projects: ProjectDirectory,
    private readonly entities: EntityDirectory,
    private readonly access: AccessControl,
  ) {}

  /** The project's canonical name: 404 when it does not exist, 403 when the caller has no access to it. */
  async project(caller: RequestUser, name: string): Promise<string> {
    return (await this.projects.require(caller, name)).name;
  }

  /** An entity the caller may read, or 404. */
  async readable(caller: RequestUser, project: string, type: ProjectEntityType, id: string): Promise<Entity> {
    const entity = await this.entities.get(project, type, id, caller);
    if (!entity) throw new NotFound(`${capitalised(type)} ${id} not found in project ${project}`);
    return entity;
  }

  /** 403 unless the caller may publish to this version (managers and above always may; guests never). */
  async requirePublish(caller: RequestUser, project: string, version: Entity): Promise<void> {
    if (isManagerOrAbove(caller)) return;
    if (caller.isGuest) throw new Forbidden('Guests cannot change reviewables');
    const scope = await this.access.folderScope(caller, project, 'publish');
    if (!scope) return;
    const product = await this.entities.get(project, 'product', version.productId);
    const folder = product ? await this.entities.get(project, 'folder', product.folderId) : null;
    if (folder) {
      if (pathInScope(scope, String(folder.path).replace(/^\/+/, ''))) return;
      if (scope.assigned) {
        const assigned = await this.entities.query(project, 'task', {
          parentIds: [folder.id],
          assignees: [caller.name],
          limit: 1,
        });
        if (assigned.items.length) return;
      }
    }
    throw new Forbidden(`You may not publish to version ${version.id}`);
  }
}
