/**
 * The project side of the GraphQL schema, in the shape of AYON 1.11.3's (type, field and argument names, and
 * nullability, as its clients name them in fragments and variables): relay connections (first/after,
 * last/before), camelCase fields, JSON values (data, allAttrib, config, context, traits) as JSON text. The attrib
 * object types are generated from the attribute library and appended when the server starts.
 */

export const PAGE = 'first: Int, after: String, last: Int, before: String';

// Arguments of each entity connection, as AYON names them; `active` is this server's own addition.
export const FOLDER_ARGS = `${PAGE}, ids: [String!], parentId: String, parentIds: [String!], attributes: [AttributeFilterInput!], folderTypes: [String!], statuses: [String!], tags: [String!], paths: [String!], pathEx: String, name: String, names: [String!], assignees: [String!], hasChildren: Boolean, hasProducts: Boolean, hasTasks: Boolean, hasLinks: HasLinksFilter, search: String, filter: String, sortBy: String, active: Boolean`;
export const TASK_ARGS = `${PAGE}, ids: [String!], taskTypes: [String!], folderIds: [String!], attributes: [AttributeFilterInput!], names: [String!], statuses: [String!], hasLinks: HasLinksFilter, assignees: [String!], assigneesAny: [String!], tags: [String!], tagsAny: [String!], includeFolderChildren: Boolean! = false, search: String, filter: String, sortBy: String, active: Boolean`;
export const PRODUCT_ARGS = `${PAGE}, ids: [String!], folderIds: [String!], names: [String!], namesCi: [String!], nameEx: String, pathEx: String, productTypes: [String!], statuses: [String!], tags: [String!], hasLinks: HasLinksFilter, search: String, filter: String, sortBy: String, active: Boolean`;
export const VERSION_ARGS = `${PAGE}, ids: [String!], version: Int, versions: [Int!], statuses: [String!], tags: [String!], productIds: [String!], taskIds: [String!], authors: [String!], latestOnly: Boolean! = false, heroOnly: Boolean! = false, heroOrLatestOnly: Boolean! = false, hasLinks: HasLinksFilter, search: String, filter: String, sortBy: String, active: Boolean`;
export const REPRESENTATION_ARGS = `${PAGE}, ids: [String!], versionIds: [String!], names: [String!], statuses: [String!], tags: [String!], hasLinks: HasLinksFilter, search: String, filter: String, active: Boolean`;
export const WORKFILE_ARGS = `${PAGE}, ids: [String!], paths: [String!], pathEx: String, taskIds: [String!], statuses: [String!], tags: [String!], hasLinks: HasLinksFilter, search: String, sortBy: String, active: Boolean`;

/** A relay connection and its edge, named as AYON names them: FoldersConnection of FolderEdge. */
export const connection = (name: string, node: string) => {
  const edge = name.replace(/ies$/, 'y').replace(/s$/, '');
  return `
type ${edge}Edge { node: ${node}!, cursor: String }
type ${name}Connection { edges: [${edge}Edge!]!, pageInfo: PageInfo! }`;
};

// What every entity node has (AYON's BaseNode). activities is resolved by the activities addon.
const BASE_FIELDS = `
  projectName: String!
  id: String!
  name: String!
  active: Boolean!
  createdAt: DateTime!
  updatedAt: DateTime!
  parents: [String!]!
  links(direction: String, linkTypes: [String!], names: [String!], nameEx: String, first: Int! = 100, after: String): LinksConnection!
  activities(first: Int, last: Int = 100, after: String, before: String, activityTypes: [String!], referenceTypes: [String!]): ActivitiesConnection!`;

// Fields every node of this server has beyond AYON's (kept for the clients that read them).
const OWN_FIELDS = `
  status: String!
  tags: [String!]!
  data: String
  allAttrib: String!
  ownAttrib: [String!]!
  createdBy: String
  updatedBy: String`;

const node = (name: string, fields: string) => `
type ${name} implements BaseNode {${BASE_FIELDS}${OWN_FIELDS}${fields}
}`;

export const baseSdl = `
"""Date and time, ISO 8601."""
scalar DateTime

type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

input AttributeFilterInput {
  name: String!
  values: [String!]!
}

enum HasLinksFilter { NONE IN OUT ANY BOTH }

type Query {
  project(name: String, code: String): ProjectNode!
  projects(${PAGE}, name: String, code: String, names: [String!], active: Boolean, library: Boolean): ProjectsConnection!
  kanban(last: Int, before: String, projects: [String!], assigneesAny: [String!], taskIds: [String!]): KanbanConnection!
}

type ProjectNode {
  name: String!
  projectName: String!
  code: String!
  data: String
  config: String
  active: Boolean!
  library: Boolean!
  thumbnail: ThumbnailInfo
  bundle: ProjectBundleType!
  createdAt: DateTime!
  updatedAt: DateTime!
  attrib: ProjectAttribType!
  allAttrib: String!
  taskTypes(activeOnly: Boolean! = false): [TaskType!]!
  folderTypes(activeOnly: Boolean! = false): [FolderType!]!
  linkTypes(activeOnly: Boolean! = false): [LinkType!]!
  productTypes: [ProductType!]!
  statuses: [Status!]!
  tags: [Tag!]!
  usedTags: [String!]!
  folder(id: String!): FolderNode
  folders(${FOLDER_ARGS}): FoldersConnection!
  task(id: String!): TaskNode
  tasks(${TASK_ARGS}): TasksConnection!
  product(id: String!): ProductNode
  products(${PRODUCT_ARGS}): ProductsConnection!
  version(id: String!): VersionNode
  versions(${VERSION_ARGS}): VersionsConnection!
  representation(id: String!): RepresentationNode
  representations(${REPRESENTATION_ARGS}): RepresentationsConnection!
  workfile(id: String!): WorkfileNode
  workfiles(${WORKFILE_ARGS}): WorkfilesConnection!
}

type ProjectBundleType { production: String, staging: String }
type TaskType { name: String!, icon: String, shortName: String, color: String }
type FolderType { name: String!, icon: String, shortName: String }
type Status { name: String!, shortName: String, icon: String, color: String, state: String, scope: [String!] }
type Tag { name: String!, color: String }
type LinkType { name: String!, linkType: String!, inputType: String!, outputType: String!, color: String, style: String! }
type ProductType { name: String!, icon: String, color: String }
type ThumbnailInfo { id: String!, sourceEntityType: String, sourceEntityId: String, relation: String }

interface BaseNode {${BASE_FIELDS}
}
${node(
  'FolderNode',
  `
  label: String
  folderType: String!
  type: String!
  parentId: String
  parent: FolderNode
  path: String
  thumbnailId: String
  thumbnail: ThumbnailInfo
  childCount: Int!
  productCount: Int!
  taskCount: Int!
  hasChildren: Boolean!
  hasProducts: Boolean!
  hasTasks: Boolean!
  hasVersions: Boolean!
  hasReviewables: Boolean!
  attrib: FolderAttribType!
  tasks(${TASK_ARGS}): TasksConnection!
  products(${PRODUCT_ARGS}): ProductsConnection!`,
)}
${node(
  'TaskNode',
  `
  label: String
  taskType: String!
  type: String!
  folderId: String!
  folder: FolderNode!
  assignees: [String!]!
  thumbnailId: String
  thumbnail: ThumbnailInfo
  hasReviewables: Boolean!
  path: String
  attrib: TaskAttribType!
  versions(${VERSION_ARGS}): VersionsConnection!
  workfiles(${WORKFILE_ARGS}): WorkfilesConnection!`,
)}
${node(
  'ProductNode',
  `
  folderId: String!
  folder: FolderNode!
  productType: String!
  productBaseType: String!
  type: String!
  path: String
  versionList: [VersionListItem!]!
  latestVersion: VersionNode
  attrib: ProductAttribType!
  versions(${VERSION_ARGS}): VersionsConnection!`,
)}

type VersionListItem { id: String!, version: Int!, name: String! }
${node(
  'VersionNode',
  `
  version: Int!
  productId: String!
  product: ProductNode!
  taskId: String
  task: TaskNode
  author: String
  thumbnailId: String
  thumbnail: ThumbnailInfo
  hasReviewables: Boolean!
  path: String
  attrib: VersionAttribType!
  representations(${REPRESENTATION_ARGS}): RepresentationsConnection!`,
)}

type FileNode { id: String!, name: String!, path: String!, hash: String, size: String!, hashType: String! }
${node(
  'RepresentationNode',
  `
  versionId: String!
  version: VersionNode!
  files: [FileNode!]!
  fileCount: Int!
  traits: String
  context: String
  path: String
  attrib: RepresentationAttribType!`,
)}
${node(
  'WorkfileNode',
  `
  path: String!
  taskId: String
  task: TaskNode!
  thumbnailId: String
  thumbnail: ThumbnailInfo
  attrib: WorkfileAttribType!`,
)}

"""A link seen from the entity it was asked of: the link's fields, and the entity at its other end."""
type LinkEdge {
  id: String!
  projectName: String!
  entityType: String!
  entityId: String!
  name: String
  linkType: String!
  direction: String!
  description: String!
  author: String
  cursor: String
  node: BaseNode!
}
type LinksConnection { edges: [LinkEdge!]!, pageInfo: PageInfo! }

"""A task as the kanban board shows it, from any project."""
type KanbanNode {
  projectName: String!
  projectCode: String!
  id: String!
  name: String!
  label: String
  status: String!
  tags: [String!]!
  taskType: String!
  assignees: [String!]!
  updatedAt: DateTime!
  createdAt: DateTime!
  priority: String
  dueDate: DateTime
  folderId: String!
  folderName: String!
  folderLabel: String
  folderPath: String!
  thumbnailId: String
  thumbnail: ThumbnailInfo
  hasReviewables: Boolean!
  lastVersionWithThumbnailId: String
  lastVersionWithReviewableVersionId: String
  lastVersionWithReviewableProductId: String
}

${connection('Projects', 'ProjectNode')}
${connection('Folders', 'FolderNode')}
${connection('Tasks', 'TaskNode')}
${connection('Products', 'ProductNode')}
${connection('Versions', 'VersionNode')}
${connection('Representations', 'RepresentationNode')}
${connection('Workfiles', 'WorkfileNode')}
${connection('Kanban', 'KanbanNode')}
`;
