import type { paths } from './schema.js';

type OperationsRoute = paths['/api/projects/{project_name}/operations']['post'];

/** The body POST /api/projects/{project_name}/operations takes. */
export type OperationsRequest = OperationsRoute['requestBody']['content']['application/json'];
/** What POST /api/projects/{project_name}/operations answers: a result per operation and overall success. */
export type OperationsAnswer = OperationsRoute['responses'][200]['content']['application/json'];
/** One operation as sent. */
export type Operation = OperationsRequest['operations'][number];
/** The result of one operation: id, type, entityType, entityId, success, status, errorCode, detail. */
export type OperationResult = OperationsAnswer['operations'][number];
/** folder, task, product, version, representation or workfile. */
export type EntityType = Operation['entityType'];

// The REST routes of each entity type take the same data as operations do, so their schemas type the data here.
interface Plurals {
  folder: 'folders';
  task: 'tasks';
  product: 'products';
  version: 'versions';
  representation: 'representations';
  workfile: 'workfiles';
}
type JsonBody<Path, Method extends string> = Path extends keyof paths
  ? paths[Path] extends { [M in Method]: { requestBody?: { content: { 'application/json': infer B } } } }
    ? B
    : never
  : never;

/** The fields a new entity of this type may have, from POST /api/projects/{project_name}/{plural}. */
export type CreateData<T extends EntityType> = JsonBody<`/api/projects/{project_name}/${Plurals[T]}`, 'post'>;
/** The fields an update of this type may change, from PATCH /api/projects/{project_name}/{plural}/{id}. */
export type UpdateData<T extends EntityType> = JsonBody<
  `/api/projects/{project_name}/${Plurals[T]}/{${T}_id}`,
  'patch'
>;

/** How a batch reaches the server: in one request, or started in the background and polled until done. */
export interface OperationsTransport {
  /** POST /operations: the answer when everything ran. */
  post(body: OperationsRequest): Promise<OperationsAnswer>;
  /** POST /operations/background, then its status until completed; progress is 0-100. */
  background(body: OperationsRequest, onProgress: (percent: number) => void): Promise<OperationsAnswer>;
}

/** What commit() takes: canFail as the server has it; background for batches that take a while. */
export interface CommitOptions {
  canFail?: boolean;
  /** Run on the server after answering and poll its progress (large batches: no request waits for minutes). */
  background?: boolean;
  /** Hears the progress of a background commit, 0-100. */
  onProgress?: (percent: number) => void;
}

/** A 32-hex id like the server's own; crypto.getRandomValues exists in Node 20 and in every browser context. */
export function newEntityId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Creates, updates and deletes collected on the client and sent in one request by commit(). Each operation gets
 * an id of its own, echoed in its result, so results can be matched to what was asked even when the server
 * stops early.
 */
export class OperationsBatch {
  private queued: Operation[] = [];

  constructor(private readonly transport: OperationsTransport) {}

  /** The operations that commit() will send, in order. */
  get pending(): readonly Operation[] {
    return this.queued;
  }

  /**
   * Queue a create and return the entity's id: data.id when given, else a new 32-hex id the server will use, so
   * later operations of the same batch can refer to the entity (a task's folderId, a version's productId).
   */
  create<T extends EntityType>(
    entityType: T,
    data: CreateData<T>,
    options: { operationId?: string } = {},
  ): string {
    const entityId = (data as { id?: string }).id ?? newEntityId();
    this.queued.push({
      id: options.operationId ?? newEntityId(),
      type: 'create',
      entityType,
      entityId,
      data: { ...data, id: entityId } as Record<string, unknown>,
    });
    return entityId;
  }

  /** Queue an update of an entity's fields (attrib and data merge; null removes a key); returns the operation id. */
  update<T extends EntityType>(
    entityType: T,
    entityId: string,
    data: UpdateData<T>,
    options: { operationId?: string; force?: boolean } = {},
  ): string {
    return this.add({
      type: 'update',
      entityType,
      entityId,
      data: data as Record<string, unknown>,
      ...(options.force === undefined ? {} : { force: options.force }),
      id: options.operationId,
    });
  }

  /** Queue a delete (force also deletes what the entity contains); returns the operation id. */
  delete(
    entityType: EntityType,
    entityId: string,
    options: { operationId?: string; force?: boolean } = {},
  ): string {
    return this.add({
      type: 'delete',
      entityType,
      entityId,
      ...(options.force === undefined ? {} : { force: options.force }),
      id: options.operationId,
    });
  }

  /**
   * Send the queued operations. Without canFail the batch is all or nothing: on the first failure nothing is
   * written and `success` is false (the results list what ran, the failure last). With canFail each operation
   * stands alone and every result says whether it succeeded. A refused request (401, 403, 404 for the project,
   * 422 for a malformed batch) throws ApiError and keeps the queue, so the batch can be sent again. With
   * background the server runs the batch after answering and onProgress hears how far it got.
   */
  async commit(options: CommitOptions = {}): Promise<OperationsAnswer> {
    if (this.queued.length === 0) return { operations: [], success: true };
    const operations = [...this.queued];
    const body = { operations, canFail: options.canFail ?? false };
    const answer = options.background
      ? await this.transport.background(body, options.onProgress ?? (() => {}))
      : await this.transport.post(body);
    // Operations queued while the request was under way stay for the next commit.
    this.queued = this.queued.slice(operations.length);
    return answer;
  }

  private add(operation: Omit<Operation, 'id'> & { id?: string }): string {
    const id = operation.id ?? newEntityId();
    this.queued.push({ ...operation, id });
    return id;
  }
}
