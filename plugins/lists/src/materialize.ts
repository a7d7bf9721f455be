import { BadRequest, NotFound, ValidationFailed, type RequestUser } from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { EntityLookup } from './entity-lookup.js';
import type { ListEntityType } from './schemas.js';

/** A template asking for more entities than this is refused rather than written as a huge list. */
export const MATERIALIZE_LIMIT = 10000;

/** The keys of a list's template that materialize reads (anything else in it is kept but ignored). */
export interface Template {
  folderIds?: string[];
  filter?: unknown;
}

/** Paths as people read them: sh2 before sh10, punctuation before letters, case aside. */
const PATH_ORDER = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Problems the entities addon found in the template's filter (condition 0 of the filter sent), located where the
 * client wrote them: in the list's template.
 */
function inTemplate(error: ValidationFailed): ValidationFailed {
  const problems = error.problems.map((problem) => {
    const [field, conditions, index, ...rest] = problem.loc;
    return field === 'filter' && conditions === 'conditions' && index === 0
      ? { ...problem, loc: ['template', 'filter', ...rest] }
      : problem;
  });
  return new ValidationFailed(
    problems,
    `Invalid template filter: ${problems[0]?.loc.join('.')}: ${problems[0]?.msg}`,
  );
}

/** "\", "%" and "_" taken literally in an ILIKE pattern ("_" is common in folder names: sh_010). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The condition "inside one of these folder subtrees" as a QueryFilter over the entities' path field: every
 * entity's path starts with the path of the folder it lives in, and a folder's own path is its subtree's root.
 */
function subtreeFilter(type: ListEntityType, roots: string[]) {
  return {
    operator: 'or',
    conditions: roots.flatMap((root) => [
      ...(type === 'folder' ? [{ key: 'path', operator: 'eq', value: root }] : []),
      { key: 'path', operator: 'like', value: `${literal(root)}/%` },
    ]),
  };
}

/**
 * The ids of the entities a template selects, in path order: active entities of the list's type that the caller
 * may read, inside the template's folder subtrees (when it names any) and matching its filter (when it has one).
 * A template that names neither selects nothing on purpose: materializing it is refused instead of listing the
 * whole project.
 */
export async function selectEntities(
  entities: EntityDirectory,
  lookup: EntityLookup,
  caller: RequestUser,
  projectName: string,
  type: ListEntityType,
  template: Template,
): Promise<string[]> {
  const folderIds = Array.isArray(template.folderIds) ? template.folderIds : [];
  const hasFilter = template.filter !== undefined && template.filter !== null;
  if (!folderIds.length && !hasFilter)
    throw new BadRequest('The list template names no folderIds and no filter to materialize from');
  // The template's filter goes first, so problems the entities addon finds in it can be located in the template.
  const conditions: unknown[] = hasFilter ? [template.filter] : [];
  if (folderIds.length) {
    const folders = await lookup.byIds(projectName, 'folder', folderIds, caller);
    const unknown = folderIds.find((id) => !folders.has(id));
    if (unknown)
      throw new NotFound(`Folder ${unknown} of the list template not found in project ${projectName}`);
    const roots = [...folders.values()].map((folder) => String(folder.path));
    if (type !== 'workfile') conditions.push(subtreeFilter(type, roots));
    else {
      // A workfile's path is a file path, not a place in the folder tree: go through the tasks it belongs to.
      const tasks = await entities.query(projectName, 'task', {
        filter: subtreeFilter('task', roots),
        caller,
        limit: MATERIALIZE_LIMIT,
      });
      conditions.push({ key: 'taskId', operator: 'in', value: tasks.items.map(({ entity }) => entity.id) });
    }
  }
  const page = await entities
    .query(projectName, type, {
      filter: { operator: 'and', conditions },
      active: true,
      caller,
      limit: MATERIALIZE_LIMIT,
      folderFlags: false,
    })
    .catch((error: unknown) => {
      throw error instanceof ValidationFailed ? inTemplate(error) : error;
    });
  if (page.hasMore)
    throw new BadRequest(`The list template selects more than ${MATERIALIZE_LIMIT} entities; narrow it down`);
  // Creation order breaks ties, so two runs over the same entities give the same order.
  return page.items
    .map(({ entity }, order) => ({ id: entity.id as string, path: String(entity.path ?? ''), order }))
    .sort((a, b) => PATH_ORDER.compare(a.path, b.path) || a.order - b.order)
    .map((entry) => entry.id);
}
