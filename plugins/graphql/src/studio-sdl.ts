import { connection, PAGE } from './sdl.js';

/** The studio side of the schema: users, events and the inbox, added to the root query. */
export const studioSdl = `
extend type Query {
  users(${PAGE}, names: [String!], active: Boolean): UsersConnection!
  user(name: String!): UserNode
  me: UserNode!
  events(${PAGE}, ids: [String!], topics: [String!], projects: [String!], users: [String!], statuses: [String!], olderThan: String, newerThan: String, includeLogs: Boolean, filter: String): EventsConnection!
  inbox(${PAGE}, showActiveProjects: Boolean, showActiveMessages: Boolean, showUnreadMessages: Boolean, showImportantMessages: Boolean): ActivitiesConnection!
  productTypes: [ProductType!]!
}

type UserNode {
  name: String!
  active: Boolean!
  isAdmin: Boolean!
  isManager: Boolean!
  isService: Boolean!
  isGuest: Boolean!
  hasPassword: Boolean!
  attrib: UserAttribType!
  allAttrib: String!
  data: String!
  accessGroups: String!
  defaultAccessGroups: [String!]!
  createdAt: String!
  updatedAt: String!
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
  createdAt: String!
  updatedAt: String!
}

type ActivityNode {
  activityId: String!
  activityType: String!
  body: String!
  projectName: String!
  createdAt: String!
  read: Boolean!
}
${connection('Users', 'UserNode')}
${connection('Events', 'EventNode')}
${connection('Activities', 'ActivityNode')}
`;
