import type { RequestUser } from './request.js';

// Access groups say what a normal user may do inside a project they were given (admins, managers and service
// users bypass every check). The access addon stores and combines the groups; the addons that own data (entities,
// and whoever reads through them) ask it where in the folder tree a caller may act.

/** The five things a folder whitelist can restrict. */
export type FolderAccessKind = 'create' | 'read' | 'update' | 'publish' | 'delete';

/**
 * Where in a project's folder tree a caller may do one kind of thing, when that is restricted. Paths are folder
 * paths without a leading slash ("assets/trees").
 * - subtree: the folder at the path and everything below it (AYON's access type "hierarchy");
 * - below: only what is below the path ("children");
 * - assigned: folders holding a task assigned to the caller.
 * Reading a folder also reveals its ancestors, so a user can navigate down to what they may see.
 */
export interface FolderScope {
  subtree: string[];
  below: string[];
  assigned: boolean;
  /** Reading: of the tasks in those folders, only the caller's own (the groups hide sibling tasks). */
  ownTasksOnly?: boolean;
}

/** One access type entry of a folder whitelist, as AYON stores it: a kind not listed here grants nothing. */
export interface FolderAccessEntry {
  access_type: 'assigned' | 'hierarchy' | 'children' | (string & {});
  path?: string;
}

/** A restrictable section: enabled means restricted to what the section lists. */
export interface FolderWhitelist {
  enabled: boolean;
  access_list: FolderAccessEntry[];
}

/** The permissions of one access group, or of a user in a project once their groups are combined (AYON's shape). */
export interface Permissions {
  studio: { enabled: boolean; create_projects: boolean; list_all_users: boolean };
  project: { enabled: boolean; anatomy: number; access: number; settings: number };
  create: FolderWhitelist;
  read: FolderWhitelist;
  update: FolderWhitelist;
  publish: FolderWhitelist;
  delete: FolderWhitelist;
  attrib_read: { enabled: boolean; attributes: string[] };
  attrib_write: { enabled: boolean; attributes: string[]; fields: string[] };
  endpoints: { enabled: boolean; endpoints: string[] };
  links: { enabled: boolean; link_types: string[] };
  advanced: { show_sibling_tasks: boolean };
}

/**
 * Which attributes and fields a caller may read and change in a project's entities, when that is restricted
 * (null: unrestricted). Reading hides unlisted attributes; changing refuses unlisted attributes and fields
 * (wire names such as name, status, assignees, parentId), except thumbnailId, which is always writable.
 */
export interface AttributeAccess {
  read: string[] | null;
  write: { attributes: string[]; fields: string[] } | null;
}

/**
 * What the entities addon asks before reading or writing (the access addon's service answers it when it runs). It
 * is asked inside the caller's write transaction, for every operation of a batch: answers come from memory, and a
 * database read made there joins that transaction (the unit of work).
 */
export interface FolderAccessPolicy {
  /** Where the caller may do `kind` in the project: null when unrestricted. */
  folderScope(caller: RequestUser, projectName: string, kind: FolderAccessKind): Promise<FolderScope | null>;
  /** Which attributes and fields the caller may read and change: null when nothing is restricted. */
  attributeAccess(caller: RequestUser, projectName: string): Promise<AttributeAccess | null>;
}

/** True when a folder path lies in a scope (assigned folders are checked by the caller, who knows the tasks). */
export function pathInScope(scope: FolderScope, path: string): boolean {
  return (
    scope.subtree.some((p) => path === p || path.startsWith(`${p}/`)) ||
    scope.below.some((p) => path.startsWith(`${p}/`))
  );
}
