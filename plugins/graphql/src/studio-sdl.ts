import { baseSdl, connection } from './sdl.js';

const PAGE = 'first: Int, after: String, last: Int, before: String';

// AYON's timestamps are a DateTime scalar (ISO 8601 text). The project side may declare it too; one declaration
// is all a schema may hold.
const dateTime = /\bscalar\s+DateTime\b/.test(baseSdl) ? '' : 'scalar DateTime';

/**
 * The studio side of the schema as AYON 1.11.3 has it: users, events, the inbox and the activity types, added to
 * the root query. The activities addon resolves activity nodes; without it the inbox is empty.
 */
export const studioSdl = `
${dateTime}

extend type Query {
  users(name: String, names: [String!], emails: [String!], projectName: String, projects: [String!], ${PAGE}): UsersConnection!
  user(name: String!): UserNode!
  me: UserNode!
  events(ids: [String!], topics: [String!], projects: [String!], users: [String!], "Deprecated: use statuses" states: [String!], statuses: [String!], hasChildren: Boolean, olderThan: String, newerThan: String, filter: String, includeLogs: Boolean! = false, ${PAGE}): EventsConnection!
  inbox(last: Int = 100, before: String, showActiveProjects: Boolean, showActiveMessages: Boolean = true, showUnreadMessages: Boolean, showImportantMessages: Boolean): ActivitiesConnection!
  productTypes: [ProductType!]!
}

type UserNode {
  name: String!
  active: Boolean!
  createdAt: DateTime!
  updatedAt: DateTime!
  accessGroups: String!
  defaultAccessGroups: [String!]!
  isAdmin: Boolean!
  isManager: Boolean!
  isService: Boolean!
  isGuest: Boolean!
  isDeveloper: Boolean!
  isExternal: Boolean!
  hasPassword: Boolean!
  disablePasswordLogin: Boolean!
  userPool: String
  apiKeyPreview: String
  deleted: Boolean!
  attrib: UserAttribType!
  allAttrib: String!
  tasks(projectName: String!): TasksConnection!
}

type EventNode {
  id: String!
  hash: String!
  topic: String!
  project: String
  user: String
  sender: String
  senderType: String
  dependsOn: String
  status: String!
  retries: Int!
  description: String!
  summary: String!
  payload: String!
  createdAt: DateTime!
  updatedAt: DateTime!
  data: String
}

type ActivityOriginNode {
  id: String!
  type: String!
  subtype: String
  name: String!
  label: String
  link: String!
}

type ActivityFileNode {
  id: String!
  size: String!
  author: String
  name: String
  mime: String
  createdAt: DateTime!
  updatedAt: DateTime!
}

type ActivityReactionNode {
  userName: String!
  fullName: String
  reaction: String!
  timestamp: DateTime!
}

type ActivityNode {
  projectName: String!
  referenceId: String!
  activityId: String!
  referenceType: String!
  entityType: String!
  entityId: String
  entityName: String
  entityPath: String
  createdAt: DateTime!
  updatedAt: DateTime!
  creationOrder: Int!
  activityType: String!
  body: String!
  tags: [String!]!
  category: String
  activityData: String!
  referenceData: String!
  active: Boolean!
  read: Boolean!
  origin: ActivityOriginNode
  parents: [ActivityOriginNode!]!
  reactions: [ActivityReactionNode!]!
  author: UserNode
  assignee: UserNode
  version: VersionNode
  files: [ActivityFileNode!]!
}
${connection('Users', 'UserNode')}
${connection('Events', 'EventNode')}
${connection('Activities', 'ActivityNode')}
`;
