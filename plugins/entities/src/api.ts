import { createServiceRef } from '@pipewright/sdk';
import type { FolderAccessPolicy, ProjectEntityType, RequestUser } from '@pipewright/sdk';
import type { RawBuilder } from 'kysely';

/**
 * Which entities to read and which page of them. Lists match any of their values; absent means no condition.
 * Pages are keyset pages over the creation order: after/before take the cursor of an entity already seen.
 */
export interface EntityQuery {
  ids?: string[];
  /** The parent column of the type (folder: parentId, null for the top level; task and product: folderId; ...). */
  parentIds?: (string | null)[];
  names?: string[];
  /** Name pattern where % matches any characters (case-insensitive). */
  name?: string;
  /** Folder paths, with or without the leading slash. */
  paths?: string[];
  /** The type column: folderType, taskType or productType. */
  types?: string[];
  statuses?: string[];
  tags?: string[];
  assignees?: string[];
  /** Tags: entities with every one of these ([] = entities without tags). */
  tagsAll?: string[];
  /** Tags: entities with any of these ([] = entities with at least one tag). */
  tagsAny?: string[];
  /** Tasks: assigned to every one of these users ([] = unassigned tasks). */
  assigneesAll?: string[];
  /** Tasks: assigned to any of these users ([] = tasks with at least one assignee). */
  assigneesAny?: string[];
  /** Folders: those holding a task assigned to every one of these users. */
  taskAssignees?: string[];
  /** Tasks with parentIds: also the tasks of every folder below those folders. */
  includeFolderChildren?: boolean;
  /** Folders: whether they have subfolders, products, tasks. */
  hasChildren?: boolean;
  hasProducts?: boolean;
  hasTasks?: boolean;
  /** Names compared regardless of letter case. */
  namesCi?: string[];
  /** POSIX regular expression the name matches (products). */
  nameEx?: string;
  /**
   * POSIX regular expression matched against a path: the folder's "/a/b" (folders), the path of the folder the
   * product lives in (products), the file path (workfiles).
   */
  pathEx?: string;
  /** Search terms (lower-case words): every term appears in one of the type's searchable texts. */
  search?: string[];
  /** Effective attribute values as text, per attribute: the entity's value is one of the values listed. */
  attributes?: { name: string; values: string[] }[];
  /**
   * Order by this key, then creation order (cursors carry both): name, status, createdAt, updatedAt, the type
   * column (folderType, taskType, productType), assignees (tasks), path (tasks), version (versions), or
   * attrib.<name>. Unknown keys are a 422.
   */
  sortBy?: string;
  /** More conditions on the entity's id, composed in SQL by other addons (links: hasLinks). */
  restrict?: ((id: RawBuilder<unknown>) => RawBuilder<boolean>)[];
  /** Versions only. */
  versions?: number[];
  taskIds?: string[];
  authors?: string[];
  latestOnly?: boolean;
  heroOnly?: boolean;
  heroOrLatestOnly?: boolean;
  active?: boolean;
  /** A QueryFilter over the type's wire fields and attributes. */
  filter?: unknown;
  after?: string | null;
  before?: string | null;
  /** At most this many entities (in each group when `per` is set); the last ones when fromEnd is set. */
  limit: number;
  fromEnd?: boolean;
  /** Apply the limit per parent entity, or per task (versions), so nested lists of many entities take one read. */
  per?: 'parent' | 'task';
  /** Folders only: compute hasChildren, hasTasks and hasVersions (default true; false leaves them out). */
  folderFlags?: boolean;
  /** Folders only: also count each folder's subfolders, products and tasks (childCount, productCount, taskCount). */
  folderCounts?: boolean;
  /** Read as this user: rows outside their read access are left out (not errors). Absent: no restriction. */
  caller?: RequestUser;
}

/** A product type as projects show it. */
export interface ProductTypeRecord {
  name: string;
  baseType: string;
  color: string;
  icon: string;
}

/** A page of entities, each with its cursor, and whether more lie beyond the page in the paging direction. */
export interface EntityPage {
  items: { cursor: string; entity: Record<string, any> }[];
  hasMore: boolean;
  /** With `per`: the parents (or tasks) that have more beyond the page. */
  groupsWithMore: (string | null)[];
}

/**
 * One field a write changed on an entity: attributes one per name ("attrib.fps"), data one per key
 * ("data.thumbnailHash"), the rest by their wire name (name, status, tags, assignees, parentId, ...). A new entity is one change of the field "created" (its name the new
 * value), a deleted one of "deleted" (its name the old value).
 */
export interface FieldChange {
  entityType: ProjectEntityType;
  entityId: string;
  field: string;
  oldValue: unknown;
  newValue: unknown;
}

/** Told of every field a transaction changes in a project, inside that transaction, before it commits. */
export type WriteHook = (
  projectName: string,
  caller: RequestUser,
  changes: readonly FieldChange[],
) => Promise<void>;

/**
 * Provided by the entities addon: reading entities and changing them through the one write path. Called inside a
 * unit of work (db.transaction()), they read and write through its transaction.
 */
export interface EntityDirectory {
  /**
   * An entity as the API shows it (GET /api/projects/{p}/{type}s/{id}), or null when it does not exist or, when a
   * caller is given, lies outside what the caller may read.
   */
  get(
    projectName: string,
    type: ProjectEntityType,
    id: string,
    caller?: RequestUser,
  ): Promise<Record<string, any> | null>;
  /** The product types the project's products use, with their appearance. */
  productTypes(projectName: string): Promise<ProductTypeRecord[]>;
  /** What the project's entities use, each list distinct and sorted: tags, folder types and task types. */
  usage(projectName: string): Promise<{ tags: string[]; folderTypes: string[]; taskTypes: string[] }>;
  /** Restrict normal users to the folders their access groups allow (the access addon registers itself here). */
  setAccessPolicy(policy: FolderAccessPolicy): void;
  /** A page of entities of one type as the API shows them, in creation order (see EntityQuery). */
  query(projectName: string, type: ProjectEntityType, query: EntityQuery): Promise<EntityPage>;
  /** Update an entity through the operations processor (validation, access, events after commit). */
  update(
    caller: RequestUser,
    projectName: string,
    type: ProjectEntityType,
    id: string,
    data: Record<string, unknown>,
  ): Promise<void>;
  /**
   * Run inside the transaction that deletes entities, with every entity the delete removes: the one named and those
   * that go with it (a folder's subfolders, tasks, workfiles, products, versions, representations).
   */
  onDelete(
    hook: (projectName: string, removed: { type: ProjectEntityType; id: string }[]) => Promise<void>,
  ): void;
  /** Run inside every transaction that writes entities, with the fields it changed (field history records them). */
  onWrite(hook: WriteHook): void;
}

/** The entities service of the entities addon. */
export const entitiesRef = createServiceRef<EntityDirectory>({ addon: 'entities', id: 'entities' });
