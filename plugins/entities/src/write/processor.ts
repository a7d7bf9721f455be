import {
  currentUnitOfWork,
  newId,
  operationFailure,
  operationsAnswer,
  type Database,
  type EventBus,
  type RequestUser,
} from '@pipewright/sdk';
import type { AttributeLibrary } from '@pipewright/plugin-attributes/api';
import type { WriteHook } from '../api.js';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import type { FastifyBaseLogger } from 'fastify';
import { FolderAccess } from '../access.js';
import { SPECS, type EntityType } from '../entity-types.js';
import type { Batch, DeleteHook, RowChange } from './batch.js';
import { BufferedWriteRefused, flush, settle } from './buffered-rows.js';
import { create } from './create.js';
import { translate } from './db-errors.js';
import { remove } from './delete.js';
import { checkBatch, readOperation, type Change, type Operation } from './input.js';
import { lockUpdated, prefetchParents } from './rows.js';
import { update } from './update.js';

export interface OperationResult {
  id: string;
  type: Operation['type'];
  entityType: EntityType;
  entityId: string | null;
  success: boolean;
  status: number;
  errorCode: string | null;
  detail: string | null;
}

/**
 * The one path every write of folders, tasks, products, versions, representations and workfiles takes: a batch of
 * operations in a unit of work. Each operation is applied by its stage (create.ts, update.ts, delete.ts), which
 * checks it (input.ts, rules.ts), reads rows (rows.ts), writes or buffers them (buffered-rows.ts) and queues its
 * events (events.ts); they are written with the rows and published once the transaction commits.
 */
export class EntityProcessor {
  private readonly deleteHooks: DeleteHook[] = [];
  private readonly writeHooks: WriteHook[] = [];
  private readonly commitListeners: ((projectName: string, changes: readonly RowChange[]) => void)[] = [];
  /** Folder whitelists of normal users; writes outside them answer 403. */
  readonly access = new FolderAccess();

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
    private readonly attributes: AttributeLibrary,
    private readonly schemaName: (project: string) => string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Run a batch. Without canFail it is all or nothing: the first failure rolls everything back (the answer still
   * lists what ran, the failure last). With canFail each operation commits on its own. Events go out after commit.
   */
  async run(
    caller: RequestUser,
    project: ProjectRecord,
    sent: Operation[],
    options: {
      canFail: boolean;
      /** AYON's waitForEvents: accepted, and always so here (a batch's events commit with its rows). */
      waitForEvents?: boolean;
      onProgress?: (done: number, total: number) => Promise<void>;
    },
  ) {
    const results: OperationResult[] = [];
    const progress = async () => options.onProgress?.(results.length, sent.length);
    checkBatch(sent);
    const operations = sent.map(readOperation);
    const batch = () => this.newBatch(caller, project);
    if (options.canFail) {
      for (const operation of operations) {
        const context = await batch();
        const result = await this.transact(context, () => this.apply(context, operation)).then(
          (done) => this.succeeded(operation, done),
          (error) => this.failed(project, operation, error),
        );
        results.push(result);
        await progress();
      }
    } else {
      // Rows are written a table at a time; if the database refuses such a write, the batch runs again writing each
      // row as its operation applies, which names the operation at fault. A savepoint around every write would
      // allow replaying just those rows, but PostgreSQL pays for each subtransaction (all the more past 64).
      let settled = false;
      if (operations.length > 1)
        settled = await this.together(await batch(), true, operations, results, progress);
      if (!settled) {
        results.length = 0;
        await this.together(await batch(), false, operations, results, progress);
      }
    }
    return operationsAnswer(results, operations);
  }

  /**
   * All operations in one transaction; the first failure rolls it back and ends the results. False when a write of
   * buffered rows was refused (the results are then incomplete).
   */
  private async together(
    context: Batch,
    buffered: boolean,
    operations: Change[],
    results: OperationResult[],
    progress: () => Promise<void>,
  ): Promise<boolean> {
    context.buffered = buffered;
    const rollback = new Error('rollback');
    try {
      await this.transact(context, async () => {
        if (buffered) {
          await prefetchParents(context, operations);
          await lockUpdated(context, operations);
        }
        for (const [index, operation] of operations.entries()) {
          context.current = index;
          try {
            results.push(this.succeeded(operation, await this.apply(context, operation)));
            await progress();
          } catch (error) {
            if (error instanceof BufferedWriteRefused) throw error;
            // Rows of earlier operations still being written may be refused: that failure came first.
            await settle(context);
            results.push(this.failed(context.project, operation, error));
            throw rollback;
          }
        }
        await flush(context);
      });
    } catch (error) {
      if (error instanceof BufferedWriteRefused) return false;
      if (error !== rollback) throw error;
    }
    return true;
  }

  /**
   * One change, raising its error: the single-entity REST routes (fields checked by their schema) and other addons
   * (readOperation's fields, checked here). Answers the entity's id.
   */
  async runOne(caller: RequestUser, project: ProjectRecord, change: Change): Promise<string> {
    checkBatch([change]);
    const context = await this.newBatch(caller, project);
    const { entityId } = await this.transact(context, () => this.apply(context, change));
    return entityId;
  }

  /** The state one transaction of operations carries. */
  private async newBatch(caller: RequestUser, project: ProjectRecord): Promise<Batch> {
    return {
      db: this.db,
      attributes: this.attributes,
      access: this.access,
      deleteHooks: this.deleteHooks,
      caller,
      project,
      schema: this.schemaName(project.name),
      inheritable: await this.attributes.inheritable('folder'),
      events: [],
      changes: [],
      fields: [],
      created: new Map(),
      locked: new Map(),
      pending: null,
      writing: null,
      buffered: false,
      current: 0,
      scopes: new Map(),
    };
  }

  /**
   * Told of the rows a transaction wrote in a project at once when it commits, before anything else runs (its events
   * go out later).
   */
  onCommit(listener: (projectName: string, changes: readonly RowChange[]) => void): void {
    this.commitListeners.push(listener);
  }

  /** Other addons record what a transaction changed (field history) inside it, before it commits. */
  onWrite(hook: WriteHook): void {
    this.writeHooks.push(hook);
  }

  /** Other addons clean up what refers to an entity (links, ...) in the transaction that deletes it. */
  onDelete(hook: DeleteHook): void {
    this.deleteHooks.push(hook);
  }

  private succeeded(operation: Change, done: { entityId: string; status: number }): OperationResult {
    return {
      id: operation.id ?? newId(),
      type: operation.type,
      entityType: operation.entityType,
      entityId: done.entityId,
      success: true,
      status: done.status,
      errorCode: null,
      detail: null,
    };
  }

  private failed(project: ProjectRecord, operation: Change, raw: unknown): OperationResult {
    const error = translate(raw, operation.entityType, project.name);
    const { known, status, errorCode, detail } = operationFailure(error);
    if (!known) this.log.error({ err: error }, 'operation failed');
    return {
      id: operation.id ?? newId(),
      type: operation.type,
      entityType: operation.entityType,
      entityId: operation.entityId ?? null,
      success: false,
      status,
      errorCode,
      detail,
    };
  }

  /**
   * Run work in one unit of work: its events are written by the same transaction and published once it commits,
   * so an answered batch always has its events and a rolled-back one has none; so are the write hooks' records of
   * the fields it changed. Listeners of the committed rows hear of them when the unit commits (the caller's, when
   * the batch joined one), before the events go out.
   */
  private async transact<T>(batch: Batch, work: () => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async () => {
      const done = await work();
      const { changes, fields } = batch;
      if (fields.length)
        for (const hook of this.writeHooks) await hook(batch.project.name, batch.caller, fields);
      if (changes.length)
        currentUnitOfWork(this.db)!.afterCommit(() => {
          for (const listener of this.commitListeners) listener(batch.project.name, changes);
        });
      if (batch.events.length) await this.bus.emitMany(batch.events);
      return done;
    });
  }

  private async apply(batch: Batch, operation: Change): Promise<{ entityId: string; status: number }> {
    const spec = SPECS[operation.entityType];
    // Updates and deletes read and lock rows: everything created before them must be written first.
    if (operation.type !== 'create') await flush(batch);
    try {
      if (operation.type === 'create') return { entityId: await create(batch, spec, operation), status: 201 };
      if (operation.type === 'update') await update(batch, spec, operation);
      else await remove(batch, spec, operation);
      return { entityId: operation.entityId!, status: 204 };
    } catch (error) {
      throw translate(error, spec.type, batch.project.name);
    }
  }
}
