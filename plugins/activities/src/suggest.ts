import {
  NotFound,
  type Database,
  type ProjectEntityType,
  type RequestUser,
  type UserRecord,
} from '@pipewright/sdk';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { EntityReader } from './entity-context.js';
import type { ActivityStore } from './store.js';

type Entity = Record<string, any>;

/** How many entities unrelated to the commented one a suggestion list carries, newest first. */
const OTHERS = 100;

// Relevance: the entity's own surroundings first (its assignees, its folder's tasks), then everything else.
const DIRECT = 2;
const NEARBY = 1;
const ELSEWHERE = 0;

const byRelevance = (a: { relevance: number; name: string }, b: { relevance: number; name: string }) =>
  b.relevance - a.relevance || a.name.localeCompare(b.name);

function hasProjectAccess(user: UserRecord, projectName: string): boolean {
  const data = user.data as Record<string, any>;
  if (data.isAdmin || data.isManager) return true;
  const groups = (data.accessGroups ?? {}) as Record<string, unknown>;
  return Object.keys(groups).some((name) => name.toLowerCase() === projectName.toLowerCase());
}

/** What a mention box offers while someone writes about an entity: people and entities, nearest first. */
export class Suggestions {
  constructor(
    private readonly db: Database,
    private readonly reader: EntityReader,
    private readonly users: UserDirectory,
    private readonly store: ActivityStore,
  ) {}

  async suggest(caller: RequestUser, projectName: string, type: ProjectEntityType, id: string) {
    const entity = await this.reader.find(projectName, type, id, caller);
    if (!entity) throw new NotFound(`${type} ${id} not found`);
    const context = await this.reader.context(projectName, type, id);
    if (!context) throw new NotFound(`${type} ${id} not found`);
    const read = (t: ProjectEntityType, condition: Parameters<EntityReader['list']>[2], limit: number) =>
      this.reader.list(projectName, t, condition, limit, caller);
    const latest = (t: ProjectEntityType) => this.reader.latest(projectName, t, OTHERS, caller);

    // The folder the entity lives in, and the product of a version.
    let product: Entity | null = null;
    let folderId: string | null = null;
    if (type === 'folder') folderId = id;
    if (type === 'task' || type === 'product') folderId = entity.folderId;
    if (type === 'version') {
      product = await this.reader.find(projectName, 'product', entity.productId, caller);
      folderId = product?.folderId ?? null;
    }

    // People who may open the project; those the entity concerns first, then its watchers.
    const related = new Set(context.relatedUsers.map((user) => user.name));
    const watchers = new Set(await this.store.watchers(projectName, id));
    const people = (await this.users.list({ active: true }))
      .filter((user) => !user.data.isService && !user.data.isGuest && hasProjectAccess(user, projectName))
      .map((user) => ({
        name: user.name,
        fullName: (user.attrib.fullName as string | undefined) ?? null,
        relevance: related.has(user.name) ? DIRECT : watchers.has(user.name) ? NEARBY : ELSEWHERE,
      }))
      .sort(byRelevance);

    const folderTasks = folderId ? await read('task', { parentIds: [folderId] }, 1000) : [];
    const tasks = this.rank(folderTasks, await latest('task'), (task) =>
      task.id === entity.taskId || task.id === id ? DIRECT : NEARBY,
    );

    const nearVersions =
      type === 'task'
        ? await read('version', { taskIds: [id] }, 1000)
        : type === 'version' || type === 'product'
          ? await read('version', { parentIds: [type === 'version' ? entity.productId : id] }, 1000)
          : folderId
            ? await this.versionsOfFolder(projectName, folderId, caller)
            : [];
    const versions = this.rank(nearVersions, await latest('version'), (version) =>
      version.id === id || version.taskId === id ? DIRECT : NEARBY,
    );

    const folderProducts = folderId ? await read('product', { parentIds: [folderId] }, 1000) : [];
    const products = this.rank(folderProducts, await latest('product'), (p) =>
      p.id === id || p.id === product?.id ? DIRECT : NEARBY,
    );

    const lineage = folderId ? await this.lineage(projectName, folderId, caller) : [];
    const folders = this.rank(lineage, await latest('folder'), (folder) =>
      folder.id === folderId ? DIRECT : NEARBY,
    );

    // Parents shown with each suggestion: a task's folder, a version's product, a product's folder.
    const productById = await this.reader.existing(
      projectName,
      'product',
      [...new Set(versions.map((item) => item.entity.productId as string))],
      caller,
    );
    const folderIds = new Set<string>();
    for (const item of [...tasks, ...products]) folderIds.add(item.entity.folderId);
    for (const p of productById.values()) folderIds.add(p.folderId);
    const folderById = await this.reader.existing(projectName, 'folder', [...folderIds], caller);
    const parent = <T>(value: T | undefined | null) => (value ? { parent: value } : {});
    // What a suggested folder or task shows of itself besides its type.
    const named = (entity: Entity, relevance: number) => ({
      id: entity.id,
      name: entity.name,
      label: entity.label ?? null,
      thumbnailId: entity.thumbnailId ?? null,
      createdAt: entity.createdAt,
      relevance,
    });
    const folderItem = (folder: Entity | undefined, relevance = ELSEWHERE) =>
      folder && { ...named(folder, relevance), folderType: folder.folderType };
    const productItem = (p: Entity | undefined, relevance = ELSEWHERE) =>
      p && {
        id: p.id,
        name: p.name,
        productType: p.productType,
        createdAt: p.createdAt,
        relevance,
        ...parent(folderItem(folderById.get(p.folderId))),
      };

    return {
      users: people,
      tasks: tasks.map(({ entity: task, relevance }) => ({
        ...named(task, relevance),
        taskType: task.taskType,
        ...parent(folderItem(folderById.get(task.folderId))),
      })),
      versions: versions.map(({ entity: version, relevance }) => ({
        id: version.id,
        version: version.version,
        name: version.name,
        createdAt: version.createdAt,
        relevance,
        ...parent(productItem(productById.get(version.productId))),
      })),
      products: products.map(({ entity: p, relevance }) => productItem(p, relevance)!),
      folders: folders.map(({ entity: folder, relevance }) => folderItem(folder, relevance)!),
    };
  }

  /** Nearby entities with their relevance, then others (relevance 0) not already listed, most relevant first. */
  private rank(near: Entity[], others: Entity[], relevance: (entity: Entity) => number) {
    const ranked = near.map((entity) => ({
      entity,
      relevance: relevance(entity),
      name: String(entity.name),
    }));
    const seen = new Set(near.map((entity) => entity.id));
    for (const entity of [...others].reverse())
      if (!seen.has(entity.id)) ranked.push({ entity, relevance: ELSEWHERE, name: String(entity.name) });
    return ranked.sort((a, b) => b.relevance - a.relevance || 0);
  }

  private async versionsOfFolder(
    projectName: string,
    folderId: string,
    caller: RequestUser,
  ): Promise<Entity[]> {
    const products = await this.reader.list(projectName, 'product', { parentIds: [folderId] }, 1000, caller);
    if (products.length === 0) return [];
    return this.reader.list(projectName, 'version', { parentIds: products.map((p) => p.id) }, 1000, caller);
  }

  /** A folder and the folders above it. */
  private async lineage(projectName: string, folderId: string, caller: RequestUser): Promise<Entity[]> {
    const chain: Entity[] = [];
    let next: string | null = folderId;
    while (next && chain.length < 64) {
      const folder = await this.reader.find(projectName, 'folder', next, caller);
      if (!folder) break;
      chain.push(folder);
      next = folder.parentId;
    }
    return chain;
  }
}
