import { GraphQLError } from 'graphql';
import { isId, type ProjectEntityType } from '@pipewright/sdk';
import type { AttributeDefinition } from '@pipewright/plugin-attributes/api';
import type { EntityQuery } from '@pipewright/plugin-entities/api';
import type { LinkDirectory } from '@pipewright/plugin-links/api';
import type { PageArgs } from './connection.js';

/** Arguments of an entity connection, as AYON names them. */
export type ConnectionArgs = PageArgs & Record<string, any>;

/** A connection's conditions, or null when they cannot match anything (AYON answers an empty page at once). */
export type Conditions = Omit<EntityQuery, 'limit'> | null;

function parseFilter(filter: string | null | undefined): unknown {
  if (filter === undefined || filter === null || filter === '') return undefined;
  try {
    return JSON.parse(filter);
  } catch {
    throw new GraphQLError('filter is not valid JSON', {
      extensions: { status: 422, code: 'invalid-filter' },
    });
  }
}

// AYON's search splits on these and keeps letters and digits (its slugify).
const SEPARATORS = /[\s,./\\;:!|*^#@~+\-_=]+/;

/**
 * The words of a search, as AYON's fuzzy search takes them: accents dropped, lower case, split at punctuation,
 * anything but letters and digits removed; words shorter than `min` are ignored.
 */
export function searchTerms(search: string, min: number): string[] {
  const plain = search
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const words = plain.split(SEPARATORS).map((word) => word.replace(/[^a-z0-9]/g, ''));
  return [...new Set(words.filter((word) => word.length >= min))];
}

// Arguments that hold entity ids; "root" (the project itself) is a parent these may name.
const ID_ARGS = ['ids', 'parentId', 'parentIds', 'folderIds', 'productIds', 'versionIds', 'taskIds'];
const MAY_BE_ROOT = ['parentId', 'parentIds', 'folderIds'];

/**
 * Entity ids as the database compares them: 32 hex digits, in lower case, a uuid's dashes dropped (AYON takes
 * both forms). Anything else is refused by name rather than handed to the database, whose own error would reach
 * the caller.
 */
export function entityIds(values: string[], arg: string, mayBeRoot = false): string[] {
  return values.map((value) => {
    if (mayBeRoot && value === 'root') return value;
    const id = value.replaceAll('-', '').toLowerCase();
    if (!isId(id))
      throw new GraphQLError(`${arg}: ${JSON.stringify(value.slice(0, 64))} is not an entity id`, {
        extensions: { status: 422, code: 'invalid-id' },
      });
    return id;
  });
}

/** The arguments with every id they hold checked and normalised. */
function withEntityIds(args: ConnectionArgs): ConnectionArgs {
  const checked = { ...args };
  for (const key of ID_ARGS) {
    const value = args[key];
    if (typeof value === 'string') checked[key] = entityIds([value], key, MAY_BE_ROOT.includes(key))[0];
    else if (Array.isArray(value)) checked[key] = entityIds(value, key, MAY_BE_ROOT.includes(key));
  }
  return checked;
}

const HAS_LINKS = { NONE: 'none', IN: 'in', OUT: 'out', ANY: 'any', BOTH: 'both' } as const;

// Versions, representations and workfiles ignore one-letter words, as AYON does.
const MIN_TERM: Record<ProjectEntityType, number> = {
  folder: 1,
  task: 1,
  product: 1,
  version: 2,
  representation: 2,
  workfile: 2,
};

const defined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** Turns connection arguments into entity queries for one project. */
export class ConnectionConditions {
  constructor(
    private readonly links: LinkDirectory,
    private readonly attributes: AttributeDefinition[],
  ) {}

  /** Attribute filters on attributes the type has; others are ignored, as AYON ignores them. */
  private attributeFilters(type: ProjectEntityType, args: ConnectionArgs) {
    const known = (name: string) =>
      this.attributes.some((definition) => definition.name === name && definition.scope.includes(type));
    const filters = (args.attributes ?? []) as { name: string; values: string[] }[];
    const kept = filters.filter((filter) => known(filter.name));
    return kept.length ? kept : undefined;
  }

  /** The EntityQuery conditions a connection's arguments ask for (paging aside), for entities of one type. */
  of(type: ProjectEntityType, projectName: string, given: ConnectionArgs): Conditions {
    const args = withEntityIds(given);
    // An empty list of ids, names, types... matches nothing (parent lists aside: the caller scopes those).
    const lists = [
      'ids',
      'names',
      'namesCi',
      'statuses',
      'folderTypes',
      'taskTypes',
      'productTypes',
      'versions',
      'authors',
      'paths',
    ];
    if (lists.some((key) => Array.isArray(args[key]) && args[key].length === 0)) return null;
    const q: Omit<EntityQuery, 'limit'> = {
      ids: defined(args.ids),
      names: defined(args.names),
      name: defined(args.name),
      statuses: defined(args.statuses),
      active: defined(args.active),
      filter: parseFilter(args.filter),
      sortBy: defined(args.sortBy),
      search: args.search ? searchTerms(args.search, MIN_TERM[type]) : undefined,
      attributes: this.attributeFilters(type, args),
    };
    const hasLinks = args.hasLinks as keyof typeof HAS_LINKS | null | undefined;
    if (hasLinks) q.restrict = [this.links.presence(projectName, HAS_LINKS[hasLinks])];
    // Tags: tasks take "all of" with [] meaning untagged; elsewhere an empty list matches nothing but on folders,
    // which ignore it (AYON's own differences).
    if (args.tags) {
      if (args.tags.length || type === 'task') q.tagsAll = args.tags;
      else if (type !== 'folder') return null;
    }
    switch (type) {
      case 'folder': {
        const parents = [...(args.parentIds ?? []), ...(args.parentId != null ? [args.parentId] : [])];
        if (args.parentIds && args.parentIds.length === 0) return null;
        if (parents.length) q.parentIds = parents.map((id: string) => (id === 'root' ? null : id));
        return {
          ...q,
          paths: defined(args.paths),
          pathEx: defined(args.pathEx),
          types: defined(args.folderTypes),
          taskAssignees: defined(args.assignees),
          hasChildren: defined(args.hasChildren),
          hasProducts: defined(args.hasProducts),
          hasTasks: defined(args.hasTasks),
        };
      }
      case 'task':
        // "root" is the project itself, which holds no tasks.
        if (
          args.folderIds &&
          (args.folderIds.length === 0 || (args.folderIds.length === 1 && args.folderIds[0] === 'root'))
        )
          return null;
        return {
          ...q,
          parentIds: defined(args.folderIds),
          includeFolderChildren: args.includeFolderChildren === true,
          types: defined(args.taskTypes),
          assigneesAll: defined(args.assignees),
          assigneesAny: defined(args.assigneesAny),
          tagsAny: defined(args.tagsAny),
        };
      case 'product':
        if (args.folderIds && args.folderIds.length === 0) return null;
        return {
          ...q,
          parentIds: defined(args.folderIds),
          types: defined(args.productTypes),
          namesCi: defined(args.namesCi),
          nameEx: defined(args.nameEx),
          pathEx: defined(args.pathEx),
        };
      case 'version': {
        if (args.productIds && args.productIds.length === 0) return null;
        const versions = args.version != null ? [args.version, ...(args.versions ?? [])] : args.versions;
        if (args.version != null && args.versions && !args.versions.includes(args.version)) return null;
        return {
          ...q,
          parentIds: defined(args.productIds),
          taskIds: args.taskIds?.length ? args.taskIds : undefined,
          versions: defined(versions),
          authors: defined(args.authors),
          latestOnly: args.latestOnly || undefined,
          heroOnly: (!args.latestOnly && args.heroOnly) || undefined,
          heroOrLatestOnly: (!args.latestOnly && !args.heroOnly && args.heroOrLatestOnly) || undefined,
        };
      }
      case 'representation':
        if (args.versionIds && args.versionIds.length === 0) return null;
        return { ...q, parentIds: defined(args.versionIds) };
      case 'workfile':
        if (args.taskIds && args.taskIds.length === 0) return null;
        return {
          ...q,
          parentIds: defined(args.taskIds),
          pathEx: defined(args.pathEx),
          paths: undefined,
          // Workfile paths are compared whole, as stored.
          filter: args.paths
            ? {
                conditions: [
                  { key: 'path', operator: 'in', value: args.paths },
                  ...(q.filter ? [q.filter] : []),
                ],
              }
            : q.filter,
        };
    }
  }
}
