import { BadRequest, PROJECT_ENTITY_TYPES, type ProjectEntityType, type RequestUser } from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';

type Entity = Record<string, any>;

/**
 * The entity type a path names: AYON accepts the singular or the plural ("tasks" or "task"), trailing s's stripped,
 * and answers any other segment with 400.
 */
export function entityTypeFromPath(segment: string): ProjectEntityType {
  const singular = segment.replace(/s+$/, '');
  if (!(PROJECT_ENTITY_TYPES as readonly string[]).includes(singular))
    throw new BadRequest(`${segment} is not a project entity type`, 'invalid-entity-type');
  return singular as ProjectEntityType;
}

/** How an activity names an entity it belongs to (data.origin) or lives under (data.parents). */
export interface EntityLabel {
  type: ProjectEntityType;
  id: string;
  name: string;
  label?: string | null;
  /** folderType, taskType or productType. */
  subtype?: string;
}

/** An activity's entity with what the activity needs to know about its surroundings. */
export interface EntityContext {
  type: ProjectEntityType;
  entity: Entity;
  origin: EntityLabel;
  parents: EntityLabel[];
  /** Entities the activity is related to through its origin (the task's folder, the version's task, ...). */
  relatedEntities: { type: ProjectEntityType; id: string }[];
  /** People related to the origin: task assignees, a version's author. */
  relatedUsers: { name: string; role: 'assignee' | 'author' }[];
}

const SUBTYPE: Partial<Record<ProjectEntityType, string>> = {
  folder: 'folderType',
  task: 'taskType',
  product: 'productType',
};

/** An entity as an activity labels it. */
export function labelOf(type: ProjectEntityType, entity: Entity): EntityLabel {
  const label: EntityLabel = { type, id: entity.id, name: entity.name ?? entity.path ?? entity.id };
  if ('label' in entity) label.label = entity.label ?? null;
  const subtype = SUBTYPE[type];
  if (subtype && entity[subtype]) label.subtype = entity[subtype];
  return label;
}

/** Reads entities through the entities addon, to place activities among them. */
export class EntityReader {
  constructor(private readonly entities: EntityDirectory) {}

  /** One entity as the caller may read it (everything when no caller is given), or null. */
  async find(
    projectName: string,
    type: ProjectEntityType,
    id: string,
    caller?: RequestUser,
  ): Promise<Entity | null> {
    const page = await this.entities.query(projectName, type, {
      ids: [id],
      limit: 1,
      folderFlags: false,
      caller,
    });
    return page.items[0]?.entity ?? null;
  }

  /** Of these ids of one type, those that exist (and that the caller may read, when a caller is given). */
  async existing(
    projectName: string,
    type: ProjectEntityType,
    ids: string[],
    caller?: RequestUser,
  ): Promise<Map<string, Entity>> {
    if (ids.length === 0) return new Map();
    const page = await this.entities.query(projectName, type, {
      ids,
      limit: ids.length,
      folderFlags: false,
      caller,
    });
    return new Map(page.items.map((item) => [item.entity.id as string, item.entity]));
  }

  /** Many entities of one type by a condition, as the caller may read them. */
  async list(
    projectName: string,
    type: ProjectEntityType,
    condition: { parentIds?: string[]; taskIds?: string[]; ids?: string[] },
    limit: number,
    caller?: RequestUser,
  ): Promise<Entity[]> {
    const page = await this.entities.query(projectName, type, {
      ...condition,
      limit,
      folderFlags: false,
      caller,
    });
    return page.items.map((item) => item.entity);
  }

  /** The newest entities of a type the caller may read, oldest of them first. */
  async latest(
    projectName: string,
    type: ProjectEntityType,
    limit: number,
    caller?: RequestUser,
  ): Promise<Entity[]> {
    const page = await this.entities.query(projectName, type, {
      limit,
      fromEnd: true,
      folderFlags: false,
      caller,
    });
    return page.items.map((item) => item.entity);
  }

  /** The origin of an activity with its parents and relations; null when the entity does not exist. */
  async context(projectName: string, type: ProjectEntityType, id: string): Promise<EntityContext | null> {
    const entity = await this.find(projectName, type, id);
    if (!entity) return null;
    const context: EntityContext = {
      type,
      entity,
      origin: labelOf(type, entity),
      parents: [],
      relatedEntities: [],
      relatedUsers: [],
    };
    const assignees = (list: unknown) => {
      for (const name of Array.isArray(list) ? list : [])
        if (!context.relatedUsers.some((user) => user.name === name))
          context.relatedUsers.push({ name, role: 'assignee' });
    };
    switch (type) {
      case 'folder': {
        // Everyone working on the folder's tasks hears about the folder.
        for (const task of await this.list(projectName, 'task', { parentIds: [id] }, 10000))
          assignees(task.assignees);
        break;
      }
      case 'task': {
        const folder = await this.find(projectName, 'folder', entity.folderId);
        if (folder) context.parents.push(labelOf('folder', folder));
        context.relatedEntities.push({ type: 'folder', id: entity.folderId });
        for (const version of await this.list(projectName, 'version', { taskIds: [id] }, 1000))
          context.relatedEntities.push({ type: 'version', id: version.id });
        assignees(entity.assignees);
        break;
      }
      case 'product': {
        const folder = await this.find(projectName, 'folder', entity.folderId);
        if (folder) context.parents.push(labelOf('folder', folder));
        context.relatedEntities.push({ type: 'folder', id: entity.folderId });
        break;
      }
      case 'version': {
        const product = await this.find(projectName, 'product', entity.productId);
        const folder = product ? await this.find(projectName, 'folder', product.folderId) : null;
        if (folder) {
          context.parents.push(labelOf('folder', folder));
          context.relatedEntities.push({ type: 'folder', id: folder.id });
        }
        if (product) context.parents.push(labelOf('product', product));
        if (entity.author) context.relatedUsers.push({ name: entity.author, role: 'author' });
        if (entity.taskId) {
          context.relatedEntities.push({ type: 'task', id: entity.taskId });
          const task = await this.find(projectName, 'task', entity.taskId);
          if (task) assignees(task.assignees);
        }
        break;
      }
      default:
        break;
    }
    return context;
  }
}
