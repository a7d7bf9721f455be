import type { RawBuilder } from 'kysely';
import type { FolderAccessPolicy } from './access.js';
import type { Problem } from './errors.js';
import type { RequestUser, Sender } from './request.js';
import type { ProjectEntityType } from './schemas.js';

/** Entity types attributes can apply to. */
export type AttributeScope =
  'project' | 'folder' | 'task' | 'product' | 'version' | 'representation' | 'workfile' | 'user' | 'list';

export type AttributeType =
  | 'string'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'datetime'
  | 'list_of_strings'
  | 'list_of_integers'
  | 'list_of_any'
  | 'list_of_submodels'
  | 'dict';

/** How an attribute's values look and behave (the data of GET /api/attributes items). */
export interface AttributeData {
  type: AttributeType;
  title?: string;
  description?: string;
  example?: unknown;
  default?: unknown;
  gt?: number;
  ge?: number;
  lt?: number;
  le?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  regex?: string;
  enum?: { value: unknown; label: string; icon?: string; color?: string; projects?: string[] }[];
  /** Whether folders and tasks inherit the value from their parents; true unless set false. */
  inherit?: boolean;
}

/** One attribute definition. */
export interface AttributeDefinition {
  name: string;
  position: number;
  scope: AttributeScope[];
  builtin: boolean;
  data: AttributeData;
}

/** Provided by the attributes addon: the studio's attribute library. */
export interface AttributeLibrary {
  /** Definitions in position order; only those whose scope includes entityType when given. */
  list(entityType?: AttributeScope): Promise<AttributeDefinition[]>;
  /** Check values for an entity type: unknown names and values that break a definition become problems under loc. */
  validate(
    entityType: AttributeScope,
    attrib: Record<string, unknown>,
    loc: (string | number)[],
  ): Promise<Problem[]>;
  /** Defaults of the attributes of an entity type that declare one (new projects start with these). */
  defaults(entityType: AttributeScope): Promise<Record<string, unknown>>;
  /** Names of the attributes of an entity type that inherit down the hierarchy. */
  inheritable(entityType: AttributeScope): Promise<string[]>;
  /**
   * The values of attrib an entity type has attributes for: writes drop the others as AYON's attribute models
   * ignore unknown fields.
   */
  withoutUnknown(
    entityType: AttributeScope,
    attrib: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
}

/** An anatomy as AYON stores and exchanges it (snake_case keys). */
export interface Anatomy {
  roots: { name: string; windows: string; linux: string; darwin: string }[];
  templates: Record<string, unknown>;
  attributes: Record<string, unknown>;
  folder_types: { name: string; original_name?: string; shortName?: string; icon?: string }[];
  task_types: { name: string; original_name?: string; shortName?: string; color?: string; icon?: string }[];
  link_types: {
    link_type: string;
    input_type: string;
    output_type: string;
    color?: string;
    style?: 'solid' | 'dashed';
  }[];
  statuses: {
    name: string;
    original_name?: string;
    shortName?: string;
    state?: 'not_started' | 'in_progress' | 'done' | 'blocked';
    icon?: string;
    color?: string;
    scope?: string[];
  }[];
  tags: { name: string; original_name?: string; color?: string }[];
  product_base_types?: Record<string, unknown>;
}

/** The anatomy-derived fields of a project, as the project shows them on the wire (camelCase). */
export interface ProjectLayout {
  folderTypes: Record<string, unknown>[];
  taskTypes: Record<string, unknown>[];
  /** Each with name ("type|input|output"), link_type, input_type, output_type and data {color, style}. */
  linkTypes: Record<string, unknown>[];
  statuses: Record<string, unknown>[];
  tags: Record<string, unknown>[];
  attrib: Record<string, unknown>;
  /** roots as {name: {windows, linux, darwin}}, templates, productBaseTypes. */
  config: Record<string, unknown>;
}

/** Provided by the anatomy addon: presets and the translation between an anatomy and a project's fields. */
export interface AnatomyPresets {
  /** A preset by name; "_" is the primary preset, or the built-in default when none is primary. NotFound when missing. */
  get(name: string): Promise<Anatomy>;
  /** Problems of an anatomy document (422 problems under loc), after filling defaults of missing parts. */
  validate(document: unknown, loc: (string | number)[]): { anatomy: Anatomy | null; problems: Problem[] };
  /** An anatomy as the fields of a project. */
  toProject(anatomy: Anatomy): ProjectLayout;
  /** A project's fields back as an anatomy (GET /api/projects/{p}/anatomy). */
  fromProject(project: ProjectLayout): Anatomy;
}

/** A project as other addons see it. */
export interface ProjectRecord {
  name: string;
  code: string;
  library: boolean;
  active: boolean;
  /** Effective values: attribute defaults overlaid with the project's own. */
  attrib: Record<string, unknown>;
  folderTypes: { name: string; [field: string]: unknown }[];
  taskTypes: { name: string; [field: string]: unknown }[];
  statuses: { name: string; state?: string; scope?: string[]; [field: string]: unknown }[];
  tags: { name: string; [field: string]: unknown }[];
  linkTypes: { name: string; [field: string]: unknown }[];
  config: Record<string, unknown>;
  data: Record<string, unknown>;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** What changed in a project, for addons that keep data derived from it. */
export interface ProjectChange {
  attrib: boolean;
  /** Old name to new name, from items sent with an original_name that differs from their name. */
  renamed: {
    statuses: Record<string, string>;
    folderTypes: Record<string, string>;
    taskTypes: Record<string, string>;
  };
}

/** Provided by the projects addon. */
export interface ProjectDirectory {
  /** A project without an access check, for addons that checked access their own way; null when missing. */
  find(name: string): Promise<ProjectRecord | null>;
  /** Names of the projects the caller may see, by name. */
  visibleNames(caller: RequestUser, filter?: { active?: boolean; library?: boolean }): Promise<string[]>;
  /** The project the caller may use: NotFound when it does not exist, Forbidden without access. */
  require(caller: RequestUser, name: string): Promise<ProjectRecord>;
  /**
   * Change a project as PATCH /api/projects/{name} does (managers; attrib, data and config merge), with its
   * entity.project.changed event in the same unit of work.
   */
  patch(
    caller: RequestUser,
    name: string,
    patch: Partial<
      Pick<
        ProjectRecord,
        'folderTypes' | 'taskTypes' | 'statuses' | 'tags' | 'linkTypes' | 'attrib' | 'config'
      >
    > & { data?: Record<string, unknown> },
    sender: Sender,
  ): Promise<string>;
  /** The root paths a site uses for a project on a platform: the project's roots overridden by the site's own. */
  siteRoots(
    projectName: string,
    siteId: string | null,
    platform: 'windows' | 'linux' | 'darwin',
  ): Promise<Record<string, string>>;
  /** Run a hook inside the unit of work that changes a project, after the change is written. */
  onChange(hook: (project: ProjectRecord, change: ProjectChange) => Promise<void>): void;
}

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
    sender: Sender,
  ): Promise<void>;
  /**
   * Run inside the transaction that deletes entities, with every entity the delete removes: the one named and those
   * that go with it (a folder's subfolders, tasks, workfiles, products, versions, representations).
   */
  onDelete(
    hook: (projectName: string, removed: { type: ProjectEntityType; id: string }[]) => Promise<void>,
  ): void;
}

/** A link between two entities of a project, as GraphQL and the REST API show it. */
export interface LinkRecord {
  id: string;
  name: string | null;
  linkType: string;
  inputId: string;
  inputType: string;
  outputId: string;
  outputType: string;
  author: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

/** Provided by the links addon: reading links. */
export interface LinkDirectory {
  /**
   * Links of a project in creation order: all of them, or those touching the given entities (direction in: the
   * entity is the output; out: the input), of the given link types (full names or the bare type).
   */
  query(
    projectName: string,
    query: {
      entityIds?: string[];
      direction?: 'in' | 'out';
      linkTypes?: string[];
      names?: string[];
      /** POSIX regular expression the link name matches. */
      nameEx?: string;
    },
  ): Promise<LinkRecord[]>;
  /**
   * An SQL condition on an entity id, for EntityQuery.restrict: whether the entity has links in (it is an output),
   * out (an input), either (any), both, or none.
   */
  presence(
    projectName: string,
    mode: 'none' | 'in' | 'out' | 'any' | 'both',
  ): (id: RawBuilder<unknown>) => RawBuilder<boolean>;
  /** Full names ("type|input|output") of the link types the project's links use. */
  usedTypes(projectName: string): Promise<string[]>;
}

/** Provided by the teams addon: who belongs to which project team. */
export interface TeamDirectory {
  /** Names of the project's teams that list the user as a member (user names compared regardless of case). */
  teamsOf(projectName: string, userName: string): Promise<string[]>;
  /** Names of everyone in at least one of the project's teams, as stored. */
  members(projectName: string): Promise<string[]>;
}

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
    sender: Sender,
  ): Promise<string>;
}
