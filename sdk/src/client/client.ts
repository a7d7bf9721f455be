import createFetchClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
  type ParseAs,
} from 'openapi-fetch';
import type { paths } from './schema.js';
import {
  apiErrorFor,
  GraphQLRequestError,
  NetworkError,
  UnauthorizedError,
  type GraphQLErrorEntry,
} from './errors.js';
import { pageThrough, type ConnectionPath } from './graphql.js';
import { OperationsBatch } from './operations.js';
import { EventSubscription, type SubscribeOptions } from './events.js';

/** How to reach and authorise against a Pipewright (or AYON 1.11) server. */
export interface ClientOptions {
  /** The server's root URL, e.g. "http://localhost:5000" (no /api). */
  baseUrl: string;
  /** A session token from a login; sent as "Authorization: Bearer <token>". */
  token?: string;
  /** An API key (service users); sent as "x-api-key" when there is no token. */
  apiKey?: string;
  /** The fetch to use (a proxy, a test double, a fetch with retries); defaults to globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request, e.g. x-sender or x-as-user. */
  headers?: Record<string, string>;
}

/** The HTTP methods the typed calls cover. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Media = `${string}/${string}`;
// Mirrors openapi-fetch's rule: the options argument may be left out only when nothing in it is required. Unlike
// openapi-fetch, the options are not a type parameter, so TypeScript's excess-property check rejects unknown
// body fields.
type RequiredKeysHelper<T> = { [K in keyof T]: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysHelper<T> extends undefined ? never : RequiredKeysHelper<T>;
type InitArgs<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];
type SuccessData<R> = R extends { error?: never; data: infer D } ? D : never;
// paths[P][M] may be undefined for openapi-fetch's constraint, although PathsOf<M> only lists paths that have M.
type Route<M extends HttpMethod, P extends PathsOf<M>> = NonNullable<paths[P][M]>;

/** Every path of the API that answers the method, e.g. PathsOf<'patch'>. */
export type PathsOf<M extends HttpMethod> = ClientPathsWithMethod<Client<paths>, M>;

/** The body of a route's success answer as its schema describes it, e.g. ResponseData<'get', '/api/users/me'>. */
export type ResponseData<
  M extends HttpMethod,
  P extends PathsOf<M>,
  Init = Record<never, never>,
> = SuccessData<FetchResponse<Route<M, P>, Init, Media>>;

/** The JSON request body a route takes, e.g. RequestBody<'post', '/api/projects'>. */
export type RequestBody<M extends HttpMethod, P extends PathsOf<M>> =
  Route<M, P> extends {
    requestBody?: { content: { 'application/json': infer B } };
  }
    ? B
    : never;

/**
 * A typed call of one HTTP method: the path must exist for that method, its parameters and body are checked
 * against the route's schema (unknown fields included), and the promise resolves to the success body; non-2xx
 * answers throw ApiError.
 */
export interface DataMethod<M extends HttpMethod> {
  /** With parseAs ("text", "blob", "arrayBuffer", "stream"): the success body in that form. */
  <P extends PathsOf<M>, Init extends MaybeOptionalInit<paths[P], M> & { parseAs: ParseAs }>(
    url: P,
    init: Init & { [key: string]: unknown },
  ): Promise<SuccessData<FetchResponse<Route<M, P>, Init, Media>>>;
  /** The JSON success body, typed from the route's schema. */
  <P extends PathsOf<M>>(
    url: P,
    ...init: InitArgs<MaybeOptionalInit<paths[P], M>>
  ): Promise<ResponseData<M, P>>;
}

/** What POST /api/auth/login answers. */
export type LoginAnswer = ResponseData<'post', '/api/auth/login'>;

/** A raw exchange: the answer whatever its status (network failures still throw NetworkError). */
interface Exchange {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** Create a client for the server at options.baseUrl. */
export function createClient(options: ClientOptions): PipewrightClient {
  return new PipewrightClient(options);
}

/** The typed API client: REST calls, login, GraphQL, batched operations and live events. */
export class PipewrightClient {
  /** The server's root URL without a trailing slash. */
  readonly baseUrl: string;
  /**
   * The underlying openapi-fetch client, for the rare call that needs the raw Response (headers, streams); it
   * carries the same credentials but does not throw on error answers.
   */
  readonly fetchClient: Client<paths>;
  /** GET a path; resolves to the typed answer body. */
  readonly GET: DataMethod<'get'>;
  /** POST to a path; resolves to the typed answer body. */
  readonly POST: DataMethod<'post'>;
  /** PUT to a path; resolves to the typed answer body. */
  readonly PUT: DataMethod<'put'>;
  /** PATCH a path; resolves to the typed answer body (undefined for 204). */
  readonly PATCH: DataMethod<'patch'>;
  /** DELETE a path; resolves to the typed answer body (undefined for 204). */
  readonly DELETE: DataMethod<'delete'>;

  private currentToken: string | null;
  private currentApiKey: string | null;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.currentToken = options.token ?? null;
    this.currentApiKey = options.apiKey ?? null;
    this.fetchClient = createFetchClient<paths>({
      baseUrl: this.baseUrl,
      headers: options.headers,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    // Read on every request, so login(), logout() and setToken() apply to calls already prepared elsewhere.
    this.fetchClient.use({
      onRequest: ({ request }) => {
        if (this.currentToken) request.headers.set('authorization', `Bearer ${this.currentToken}`);
        else if (this.currentApiKey) request.headers.set('x-api-key', this.currentApiKey);
      },
    });
    const call = (method: string) => (url: string, init?: object) => this.send(method, url, init);
    this.GET = call('GET') as DataMethod<'get'>;
    this.POST = call('POST') as DataMethod<'post'>;
    this.PUT = call('PUT') as DataMethod<'put'>;
    this.PATCH = call('PATCH') as DataMethod<'patch'>;
    this.DELETE = call('DELETE') as DataMethod<'delete'>;
  }

  /** The session token requests carry, or null. */
  get token(): string | null {
    return this.currentToken;
  }

  /** The API key requests carry when there is no token, or null. */
  get apiKey(): string | null {
    return this.currentApiKey;
  }

  /** Use this session token from now on (null to stop sending one). */
  setToken(token: string | null): void {
    this.currentToken = token;
  }

  /** Use this API key from now on (null to stop sending one). */
  setApiKey(apiKey: string | null): void {
    this.currentApiKey = apiKey;
  }

  /** Log in with a name and a password; later requests carry the new session token. */
  async login(name: string, password: string): Promise<LoginAnswer> {
    const answer = await this.POST('/api/auth/login', { body: { name, password } });
    this.currentToken = answer.token;
    return answer;
  }

  /** End the session on the server and forget the token; a session that had already ended is not an error. */
  async logout(): Promise<void> {
    if (!this.currentToken) return;
    try {
      await this.POST('/api/auth/logout');
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
    } finally {
      this.currentToken = null;
    }
  }

  /** Run a GraphQL query; resolves to its data, throws GraphQLRequestError with the server's messages. */
  async graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const { data, error, response } = await this.exchange('POST', '/graphql', {
      body: { query, variables: variables ?? {} },
    });
    // GraphQL errors come with 200 (resolver errors) or 400 (a query the server cannot run); both carry a list.
    const body = (response.ok ? data : error) as { data?: unknown; errors?: GraphQLErrorEntry[] } | undefined;
    if (Array.isArray(body?.errors) && body.errors.length > 0)
      throw new GraphQLRequestError(body.errors, body.data, response.status);
    if (!response.ok) throw this.refusal('POST', '/graphql', response, error);
    return (body?.data ?? null) as T;
  }

  /**
   * Every node of a relay connection, page after page. The query declares `$after: String` and passes it to the
   * connection at `path` (e.g. "project.folders"), which selects `edges { node { ... } }` and
   * `pageInfo { hasNextPage endCursor }`.
   */
  paginate<Node = any>(
    query: string,
    variables: Record<string, unknown>,
    path: ConnectionPath,
  ): AsyncIterableIterator<Node> {
    return pageThrough<Node>((after) => this.graphql(query, { ...variables, after }), path);
  }

  /** A batch of creates, updates and deletes in one project, sent by its commit(). */
  operations(projectName: string): OperationsBatch {
    const path = { project_name: projectName };
    return new OperationsBatch({
      post: (body) => this.POST('/api/projects/{project_name}/operations', { params: { path }, body }),
      background: async (body, onProgress) => {
        const { id } = await this.POST('/api/projects/{project_name}/operations/background', {
          params: { path },
          body,
        });
        for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
          const state = await this.GET('/api/projects/{project_name}/operations/background/{task_id}', {
            params: { path: { ...path, task_id: id } },
          });
          onProgress(state.progress);
          // A batch that fails completes too, with success false and the failure in its results.
          if (state.status === 'completed') {
            if (!state.result) throw new Error(`The background operations ${id} ended without a result`);
            return state.result;
          }
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      },
    });
  }

  /** Subscribe to live events over /ws; the subscription reconnects on its own until close(). */
  subscribe(options: SubscribeOptions): EventSubscription {
    return new EventSubscription({
      url: this.baseUrl.replace(/^http/, 'ws') + '/ws',
      // Read at every (re)connection, so a token set after a new login is used for the next attempt.
      credentials: () => ({ token: this.currentToken, apiKey: this.currentApiKey }),
      ...options,
    });
  }

  private async send(method: string, url: string, init?: object): Promise<unknown> {
    const { data, error, response } = await this.exchange(method, url, init);
    if (!response.ok) throw this.refusal(method, url, response, error);
    return data;
  }

  private refusal(method: string, path: string, response: Response, body: unknown) {
    // A fetch stand-in may build its Response without a url.
    return apiErrorFor({ status: response.status, method, url: response.url || this.baseUrl + path, body });
  }

  private async exchange(method: string, url: string, init?: object): Promise<Exchange> {
    const request = this.fetchClient.request as unknown as (
      m: string,
      u: string,
      i?: object,
    ) => Promise<Exchange>;
    try {
      return await request(method.toLowerCase(), url, init);
    } catch (error) {
      // An abort is the caller's own decision: it stays the AbortError/TimeoutError they expect.
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'AbortError' || name === 'TimeoutError') throw error;
      throw new NetworkError(method, this.baseUrl + url, error);
    }
  }
}
