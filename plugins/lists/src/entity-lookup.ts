import {
  NotFound,
  PROJECT_ENTITY_TYPES,
  ValidationFailed,
  type Problem,
  type RequestUser,
} from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ListEntityType } from './schemas.js';

type Entity = Record<string, any>;

/** An entity id a request names, with where in the request it was named (for 422 locations). */
export interface EntityRef {
  id: string;
  loc: (string | number)[];
}

const capitalised = (type: string) => type[0].toUpperCase() + type.slice(1);

/** How many trailing path segments separate an entity's path from its folder's path. */
const SEGMENTS_BELOW_FOLDER: Record<Exclude<ListEntityType, 'workfile'>, number> = {
  folder: 0,
  task: 1,
  product: 1,
  version: 2,
  representation: 3,
};

/** "/a/b/c" without its last n segments and without the leading slash, as AYON's folder paths are written. */
function folderOf(path: string, segmentsBelow: number): string {
  const parts = path.replace(/^\/+/, '').split('/');
  return parts.slice(0, parts.length - segmentsBelow).join('/');
}

/** Entity lookups of the lists addon, all through the entities addon (which applies folder read access). */
export class EntityLookup {
  constructor(private readonly entities: EntityDirectory) {}

  /** Entities of one type by id, as the API shows them; those the caller may not read are left out. */
  async byIds(
    projectName: string,
    type: ListEntityType,
    ids: string[],
    caller?: RequestUser,
  ): Promise<Map<string, Entity>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const page = await this.entities.query(projectName, type, {
      ids: unique,
      limit: unique.length,
      caller,
      folderFlags: false,
    });
    return new Map(page.items.map(({ entity }) => [entity.id as string, entity]));
  }

  /**
   * Every named entity must be one the caller can read, of the list's type. One that exists as another type is a
   * mistake in the request (422 at its location); one that does not exist at all, or lies outside what the caller
   * may read, is missing (404), as AYON answers for an entity it cannot find.
   */
  async requireOfType(
    caller: RequestUser,
    projectName: string,
    type: ListEntityType,
    refs: EntityRef[],
  ): Promise<void> {
    const found = await this.byIds(
      projectName,
      type,
      refs.map((ref) => ref.id),
      caller,
    );
    let missing = refs.filter((ref) => !found.has(ref.id));
    if (missing.length === 0) return;
    const problems: Problem[] = [];
    for (const other of PROJECT_ENTITY_TYPES) {
      if (other === type || missing.length === 0) continue;
      const elsewhere = await this.byIds(
        projectName,
        other,
        missing.map((ref) => ref.id),
        caller,
      );
      for (const ref of missing.filter((ref) => elsewhere.has(ref.id))) {
        problems.push({
          loc: ref.loc,
          msg: `${ref.id} is a ${other}, but this list holds ${type}s`,
          type: 'entity_type_mismatch',
        });
      }
      missing = missing.filter((ref) => !elsewhere.has(ref.id));
    }
    if (problems.length)
      throw new ValidationFailed(
        problems,
        `Validation error: ${problems[0].loc.join('.')}: ${problems[0].msg}`,
      );
    throw new NotFound(`${capitalised(type)} ${missing[0].id} not found in project ${projectName}`);
  }

  /**
   * The path of the folder each entity lives in (the folder's own path for folders), read now rather than stored
   * with the item, so renamed or moved folders show where the entity is today. Unknown ids get ''.
   */
  async folderPaths(projectName: string, type: ListEntityType, ids: string[]): Promise<Map<string, string>> {
    const entities = await this.byIds(projectName, type, ids);
    const paths = new Map<string, string>();
    if (type !== 'workfile') {
      for (const [id, entity] of entities)
        paths.set(id, folderOf(String(entity.path ?? ''), SEGMENTS_BELOW_FOLDER[type]));
      return paths;
    }
    // A workfile's path is a file path; its folder is the folder of its task.
    const tasks = await this.byIds(
      projectName,
      'task',
      [...entities.values()].map((workfile) => workfile.taskId as string),
    );
    for (const [id, workfile] of entities) {
      const task = tasks.get(workfile.taskId as string);
      paths.set(id, task ? folderOf(String(task.path ?? ''), 1) : '');
    }
    return paths;
  }
}
