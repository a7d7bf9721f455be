import { NotFound, type Database, type FolderAccessPolicy, type RequestUser } from '@pipewright/sdk';
import type { AttributeLibrary } from '@pipewright/plugin-attributes/api';
import type { EntityDirectory, EntityQuery, WriteHook } from './api.js';
import type { ProjectDirectory, ProjectRecord } from '@pipewright/plugin-projects/api';
import { entityNotFound, type EntityType } from './entity-types.js';
import { inheritance, readEntities, type ReadDeps } from './read/entities.js';
import { folderList, hierarchy } from './read/folders.js';
import type { HierarchyCache } from './read/hierarchy-cache.js';
import type { TreeFilter } from './read/hierarchy.js';
import { entityUris, representationsInContext, tasksFolders, type ContextQuery } from './read/lookups.js';
import { resolveUris, type ResolveOptions } from './read/resolve.js';
import { loadEntity } from './read/select.js';
import { productTypes, stats, tagsPerTable, usage } from './read/summary.js';
import type { BackgroundOperations } from './write/background.js';
import type { DeleteHook, Json } from './write/batch.js';
import { checkBatch, readOperation, type Operation } from './write/input.js';
import type { EntityProcessor } from './write/processor.js';

export interface EntityServiceDeps {
  db: Database;
  projects: ProjectDirectory;
  attributes: AttributeLibrary;
  processor: EntityProcessor;
  background: BackgroundOperations;
  hierarchyCache: HierarchyCache;
  schemaName: (project: string) => string;
}

/**
 * What the entities addon does, for other addons (EntityDirectory, provided as 'entities') and for its own routes:
 * each method finds the project (as the caller may see it) and hands over to the read path (read/) or the write path
 * (the processor in write/). Nothing here touches SQL, transactions or events.
 */
export class EntityService implements EntityDirectory {
  private readonly reader: ReadDeps;

  constructor(private readonly deps: EntityServiceDeps) {
    const { db, attributes, processor, schemaName } = deps;
    this.reader = { db, attributes, access: processor.access, schemaName };
  }

  // Other addons (EntityDirectory): projects by name, callers optional.

  async get(projectName: string, type: EntityType, id: string, caller?: RequestUser) {
    const project = await this.deps.projects.find(projectName);
    if (!project) return null;
    const page = await readEntities(this.reader, project, type, { ids: [id], limit: 1, caller });
    return page.items[0]?.entity ?? null;
  }

  async query(projectName: string, type: EntityType, query: EntityQuery) {
    return readEntities(this.reader, await this.existing(projectName), type, query);
  }

  setAccessPolicy(policy: FolderAccessPolicy): void {
    this.deps.processor.access.register(policy);
  }

  async usage(projectName: string) {
    return usage(this.deps.db, this.schema(await this.existing(projectName)));
  }

  async productTypes(projectName: string) {
    const project = await this.existing(projectName);
    return productTypes(this.deps.db, this.schema(project), project);
  }

  /** Fields as another addon sends them: camelCased and checked once, by the write path. */
  async update(caller: RequestUser, projectName: string, type: EntityType, id: string, data: Json) {
    const project = await this.deps.projects.require(caller, projectName);
    const operation = readOperation({ type: 'update', entityType: type, entityId: id, data });
    await this.deps.processor.runOne(caller, project, operation);
  }

  onDelete(hook: DeleteHook): void {
    this.deps.processor.onDelete(hook);
  }

  onWrite(hook: WriteHook): void {
    this.deps.processor.onWrite(hook);
  }

  // The routes: the caller must have access to the project. Fields of a route's body were checked by its schema.

  /** Create an entity from fields the route's schema checked; answers its id. */
  async create(caller: RequestUser, projectName: string, type: EntityType, fields: Json) {
    const project = await this.open(caller, projectName);
    const change = { type: 'create', entityType: type, data: { checked: fields } } as const;
    return this.deps.processor.runOne(caller, project, change);
  }

  /** One entity as the caller may read it; what they may not read answers exactly as what does not exist. */
  async entity(caller: RequestUser, projectName: string, type: EntityType, id: string) {
    const project = await this.open(caller, projectName);
    const page = await readEntities(this.reader, project, type, { ids: [id], limit: 1, caller });
    if (!page.items.length) throw entityNotFound(type, id, project.name);
    return page.items[0].entity as { id: string };
  }

  /** Change an entity with fields the route's schema checked. */
  async change(
    caller: RequestUser,
    projectName: string,
    type: EntityType,
    id: string,
    fields: Json,
    options: { force: boolean },
  ): Promise<void> {
    const project = await this.open(caller, projectName);
    const change = {
      type: 'update',
      entityType: type,
      entityId: id,
      data: { checked: fields },
      force: options.force,
    } as const;
    await this.deps.processor.runOne(caller, project, change);
  }

  async delete(
    caller: RequestUser,
    projectName: string,
    type: EntityType,
    id: string,
    options: { force: boolean },
  ): Promise<void> {
    const project = await this.open(caller, projectName);
    const change = { type: 'delete', entityType: type, entityId: id, force: options.force } as const;
    await this.deps.processor.runOne(caller, project, change);
  }

  /** Add, remove or set a task's assignees: an update of assignees, checked as any update is. */
  async assign(
    caller: RequestUser,
    projectName: string,
    taskId: string,
    { users, mode }: { users: string[]; mode: 'add' | 'remove' | 'set' },
  ): Promise<void> {
    const project = await this.open(caller, projectName);
    const task = await loadEntity(this.deps.db, this.schema(project), 'task', taskId, []);
    if (!task) throw entityNotFound('task', taskId, project.name);
    const current: string[] = task.assignees;
    const assignees =
      mode === 'set'
        ? users
        : mode === 'add'
          ? [...new Set([...current, ...users])]
          : current.filter((u) => !users.includes(u));
    const operation = readOperation({
      type: 'update',
      entityType: 'task',
      entityId: task.id,
      data: { assignees },
    });
    await this.deps.processor.runOne(caller, project, operation);
  }

  /** A batch of operations as sent: all or nothing, or each on its own with canFail. */
  async operations(
    caller: RequestUser,
    projectName: string,
    operations: Operation[],
    options: { canFail: boolean; waitForEvents?: boolean },
  ) {
    const project = await this.open(caller, projectName);
    return this.deps.processor.run(caller, project, operations, options);
  }

  /** Start a batch after answering; a malformed one is refused now, not minutes later in a poll. */
  async startBackground(
    caller: RequestUser,
    projectName: string,
    operations: Operation[],
    options: { canFail: boolean },
  ): Promise<string> {
    const project = await this.open(caller, projectName);
    checkBatch(operations);
    return this.deps.background.start(caller, project, operations, options);
  }

  async backgroundStatus(caller: RequestUser, projectName: string, id: string) {
    return this.deps.background.status(await this.open(caller, projectName), id);
  }

  /** The flat folder list, as JSON bytes. */
  async folderList(caller: RequestUser, projectName: string, withAttrib: boolean): Promise<Buffer> {
    const project = await this.open(caller, projectName);
    const [, base] = await inheritance(this.deps.attributes, project);
    const access = await this.reader.access.read(caller, project.name);
    return folderList(this.deps.db, this.schema(project), caller, access, base, withAttrib);
  }

  /** The folder hierarchy, as JSON bytes. */
  async hierarchy(caller: RequestUser, projectName: string, filter: TreeFilter | undefined): Promise<Buffer> {
    const project = await this.open(caller, projectName);
    const readScope = await this.reader.access.scope(caller, project.name, 'read');
    const { db, hierarchyCache } = this.deps;
    return hierarchy(db, this.schema(project), hierarchyCache, caller, project, readScope, filter);
  }

  async stats(caller: RequestUser, projectName: string) {
    return stats(this.deps.db, this.schema(await this.open(caller, projectName)));
  }

  async tags(caller: RequestUser, projectName: string) {
    return tagsPerTable(this.deps.db, this.schema(await this.open(caller, projectName)));
  }

  async productTypesFor(caller: RequestUser, projectName: string) {
    const project = await this.open(caller, projectName);
    return productTypes(this.deps.db, this.schema(project), project);
  }

  /** URIs across projects; a project the caller cannot open is each of its URIs' error, not the request's. */
  async resolve(caller: RequestUser, uris: string[], options: ResolveOptions) {
    const { db, projects, schemaName } = this.deps;
    return resolveUris({ db, projects, access: this.reader.access, schemaName }, caller, uris, options);
  }

  async uris(caller: RequestUser, projectName: string, type: EntityType, ids: string[]) {
    return entityUris(this.reader, caller, await this.open(caller, projectName), type, ids);
  }

  async tasksFolders(
    caller: RequestUser,
    projectName: string,
    filter: Parameters<typeof tasksFolders>[3],
    search: string | null | undefined,
  ) {
    return tasksFolders(this.reader, caller, await this.open(caller, projectName), filter, search);
  }

  async representationsInContext(caller: RequestUser, projectName: string, query: ContextQuery) {
    return representationsInContext(this.reader, caller, await this.open(caller, projectName), query);
  }

  /** The project as the caller may open it: 404 or 403 otherwise. */
  private open(caller: RequestUser, projectName: string): Promise<ProjectRecord> {
    return this.deps.projects.require(caller, projectName);
  }

  /** The project, whoever asks (other addons check their callers themselves). */
  private async existing(projectName: string): Promise<ProjectRecord> {
    const project = await this.deps.projects.find(projectName);
    if (!project) throw new NotFound(`Project ${projectName} not found`);
    return project;
  }

  private schema(project: ProjectRecord): string {
    return this.deps.schemaName(project.name);
  }
}
