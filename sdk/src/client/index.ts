// @pipewright/sdk/client: the typed API client. It runs in Node 20 and in browsers, so nothing here may import
// Fastify, Kysely or node: modules (the ws package is loaded lazily, and only where there is no global WebSocket).
export {
  createClient,
  PipewrightClient,
  type ClientOptions,
  type DataMethod,
  type HttpMethod,
  type LoginAnswer,
  type PathsOf,
  type RequestBody,
  type ResponseData,
} from './client.js';
export {
  ApiError,
  apiErrorFor,
  BadRequestError,
  ClientError,
  ConflictError,
  ForbiddenError,
  GraphQLRequestError,
  NetworkError,
  NotFoundError,
  ServerError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
  type ApiErrorInit,
  type GraphQLErrorEntry,
  type Problem,
} from './errors.js';
export { pageThrough, type ConnectionPath } from './graphql.js';
export {
  newEntityId,
  OperationsBatch,
  type CreateData,
  type EntityType,
  type Operation,
  type OperationResult,
  type OperationsAnswer,
  type OperationsRequest,
  type UpdateData,
} from './operations.js';
export {
  EventSubscription,
  type DisconnectInfo,
  type LiveEvent,
  type SubscribeOptions,
  type SubscriptionSetup,
} from './events.js';
export type { paths } from './schema.js';
