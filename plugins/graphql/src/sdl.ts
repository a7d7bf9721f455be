/**
 * The GraphQL schema, as AYON clients query it: relay connections (first/after, last/before), camelCase fields,
 * JSON values (data, allAttrib, summary, payload, config) as JSON text. The attrib object types are generated from
 * the attribute library and appended when the server starts.
 */

export const PAGE = 'first: Int, after: String, last: Int, before: String';
const COMMON_FILTERS =
  'ids: [String!], names: [String!], name: String, statuses: [String!], tags: [String!], active: Boolean, filter: String';

// Arguments of each entity connection: the common ones plus the type's own.
export const FOLDER_ARGS = `${PAGE}, ${COMMON_FILTERS}, parentId: String, parentIds: [String!], paths: [String!], folderTypes: [String!]`;
export const TASK_ARGS = `${PAGE}, ${COMMON_FILTERS}, folderIds: [String!], taskTypes: [String!], assignees: [String!]`;
export const PRODUCT_ARGS = `${PAGE}, ${COMMON_FILTERS}, folderIds: [String!], productTypes: [String!]`;
export const VERSION_ARGS = `${PAGE}, ${COMMON_FILTERS}, productIds: [String!], taskIds: [String!], versions: [Int!], authors: [String!], latestOnly: Boolean, heroOnly: Boolean, heroOrLatestOnly: Boolean`;
export const REPRESENTATION_ARGS = `${PAGE}, ${COMMON_FILTERS}, versionIds: [String!]`;
export const WORKFILE_ARGS = `${PAGE}, ${COMMON_FILTERS}, taskIds: [String!]`;

export const connection = (name: string, node: string) => `
type ${name}Edge { node: ${node}!, cursor: String! }
type ${name}Connection { edges: [${name}Edge!]!, pageInfo: PageInfo! }`;

const entityFields = `
  id: String!
  projectName: String!
  name: String!
  status: String!
  tags: [String!]!
  active: Boolean!
  allAttrib: String!
  ownAttrib: [String!]!
  data: String!
  createdAt: String!
  updatedAt: String!
  createdBy: String
  updatedBy: String`;

export const baseSdl = `
type PageInfo {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}

type Query {
  project(name: String!): ProjectNode
  projects(${PAGE}, names: [String!], active: Boolean, library: Boolean): ProjectsConnection!
}

type ProjectNode {
  name: String!
  projectName: String!
  code: String!
  active: Boolean!
  library: Boolean!
  attrib: ProjectAttribType!
  allAttrib: String!
  config: String!
  taskTypes: [TaskType!]!
  folderTypes: [FolderType!]!
  linkTypes: [LinkType!]!
  statuses: [Status!]!
  tags: [Tag!]!
  productTypes: [ProductType!]!
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
  links(${PAGE}, linkTypes: [String!], names: [String!]): LinksConnection!
}

type TaskType { name: String!, shortName: String, color: String, icon: String }
type FolderType { name: String!, shortName: String, icon: String }
type Status { name: String!, shortName: String, state: String, icon: String, color: String, scope: [String!] }
type Tag { name: String!, color: String }
type LinkType { name: String!, linkType: String!, inputType: String!, outputType: String!, color: String, style: String }
type ProductType { name: String!, baseType: String, color: String, icon: String }

type FolderNode {${entityFields}
  label: String
  folderType: String!
  parentId: String
  parent: FolderNode
  path: String!
  thumbnailId: String
  hasChildren: Boolean!
  hasTasks: Boolean!
  hasVersions: Boolean!
  attrib: FolderAttribType!
  tasks(${TASK_ARGS}): TasksConnection!
  products(${PRODUCT_ARGS}): ProductsConnection!
  links(${PAGE}, direction: String, linkTypes: [String!]): LinksConnection!
}

type TaskNode {${entityFields}
  label: String
  taskType: String!
  folderId: String!
  folder: FolderNode!
  assignees: [String!]!
  thumbnailId: String
  path: String!
  attrib: TaskAttribType!
  versions(${VERSION_ARGS}): VersionsConnection!
  workfiles(${WORKFILE_ARGS}): WorkfilesConnection!
  links(${PAGE}, direction: String, linkTypes: [String!]): LinksConnection!
}

type ProductNode {${entityFields}
  folderId: String!
  folder: FolderNode!
  productType: String!
  productBaseType: String!
  path: String!
  attrib: ProductAttribType!
  versions(${VERSION_ARGS}): VersionsConnection!
  links(${PAGE}, direction: String, linkTypes: [String!]): LinksConnection!
}

type VersionNode {${entityFields}
  version: Int!
  productId: String!
  product: ProductNode!
  taskId: String
  task: TaskNode
  author: String
  thumbnailId: String
  path: String!
  attrib: VersionAttribType!
  representations(${REPRESENTATION_ARGS}): RepresentationsConnection!
  links(${PAGE}, direction: String, linkTypes: [String!]): LinksConnection!
}

type FileNode { id: String, name: String!, path: String!, size: Float!, hash: String, hashType: String }

type RepresentationNode {${entityFields}
  versionId: String!
  version: VersionNode!
  files: [FileNode!]!
  fileCount: Int!
  traits: String
  path: String!
  attrib: RepresentationAttribType!
  links(${PAGE}, direction: String, linkTypes: [String!]): LinksConnection!
}

type WorkfileNode {${entityFields}
  path: String!
  taskId: String!
  task: TaskNode!
  thumbnailId: String
  attrib: WorkfileAttribType!
  links(${PAGE}, direction: String, linkTypes: [String!]): LinksConnection!
}

type LinkNode {
  id: String!
  projectName: String!
  linkType: String!
  name: String
  inputId: String!
  inputType: String!
  outputId: String!
  outputType: String!
  direction: String
  entityId: String
  entityType: String
  author: String
  description: String!
  data: String!
  createdAt: String!
}

${connection('Projects', 'ProjectNode')}
${connection('Folders', 'FolderNode')}
${connection('Tasks', 'TaskNode')}
${connection('Products', 'ProductNode')}
${connection('Versions', 'VersionNode')}
${connection('Representations', 'RepresentationNode')}
${connection('Workfiles', 'WorkfileNode')}
${connection('Links', 'LinkNode')}
`;
