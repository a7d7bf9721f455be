import {
  BadRequest,
  camelizeKeys,
  operationFailure,
  operationsAnswer,
  ValidationFailed,
  check,
  newId,
  type Database,
  type RequestUser,
} from '@pipewright/sdk';
import type { FastifyBaseLogger } from 'fastify';
import { entityTypeFromPath } from './entity-context.js';
import { ActivityPatchBody, OperationCreateData } from './schemas.js';
import type { ActivityService, PreparedWrite } from './service.js';

export interface ActivityOperation {
  id?: string;
  type: 'create' | 'update' | 'delete';
  activityId?: string | null;
  data?: Record<string, unknown> | null;
}

export interface ActivityOperationResult {
  id: string;
  type: ActivityOperation['type'];
  activityId: string | null;
  success: boolean;
  status: number;
  errorCode: string | null;
  detail: string | null;
}

/**
 * POST /operations/activities: creates, updates and deletes of activities in one request. Without canFail it is
 * all or nothing, in one transaction: the first failure rolls everything back and ends the answer. With canFail
 * each operation commits on its own. Events are sent after commit.
 */
export class ActivityOperations {
  constructor(
    private readonly db: Database,
    private readonly service: ActivityService,
    private readonly log: FastifyBaseLogger,
  ) {}

  async run(
    caller: RequestUser,
    projectName: string,
    operations: ActivityOperation[],
    canFail: boolean,
  ): Promise<{ operations: ActivityOperationResult[]; success: boolean }> {
    const results: ActivityOperationResult[] = [];
    if (canFail) {
      const created = new Set<string>();
      for (const [index, operation] of operations.entries()) {
        try {
          const prepared = await this.prepare(caller, projectName, operation, index, created);
          const result = await this.service.write(prepared);
          if (operation.type === 'create') created.add(result.id);
          results.push(this.succeeded(operation, result.id));
        } catch (error) {
          results.push(this.failed(operation, error));
        }
      }
    } else {
      // Everything other addons are asked (entities, users, files) is read first: inside the transaction only
      // this addon's own tables are touched.
      const created = new Set<string>();
      const prepared: (PreparedWrite | { error: unknown })[] = [];
      for (const [index, operation] of operations.entries()) {
        try {
          const ready = await this.prepare(caller, projectName, operation, index, created);
          if (ready.kind === 'create') created.add(ready.id);
          prepared.push(ready);
        } catch (error) {
          prepared.push({ error });
          break;
        }
      }
      const rollback = new Error('rollback');
      try {
        await this.db.transaction().execute(async () => {
          for (const [index, ready] of prepared.entries()) {
            const operation = operations[index];
            try {
              if ('error' in ready) throw ready.error;
              const result = await this.service.write(ready);
              results.push(this.succeeded(operation, result.id));
            } catch (error) {
              results.push(this.failed(operation, error));
              throw rollback;
            }
          }
        });
      } catch (error) {
        if (error !== rollback) throw error;
      }
    }
    return operationsAnswer(results, operations);
  }

  private async prepare(
    caller: RequestUser,
    projectName: string,
    operation: ActivityOperation,
    index: number,
    created: Set<string>,
  ): Promise<PreparedWrite> {
    const loc = ['body', 'operations', index, 'data'];
    // AYON clients may send the data of an operation in snake_case (activity_type, append_files).
    const data = camelizeKeys(operation.data ?? {});
    if (operation.type === 'create') {
      const problems = check(OperationCreateData, data, loc);
      if (problems.length) throw new ValidationFailed(problems);
      const { entityType, entityId, ...activity } = data as any;
      return this.service.prepareCreate(
        caller,
        projectName,
        { ...activity, entityType: entityTypeFromPath(entityType), entityId },
        loc,
      );
    }
    if (!operation.activityId)
      throw new BadRequest(
        `Operation ${index}: ${operation.type} needs an activityId`,
        'missing-activity-id',
      );
    const createdEarlier = created.has(operation.activityId);
    if (operation.type === 'update') {
      const problems = check(ActivityPatchBody, data, loc);
      if (problems.length) throw new ValidationFailed(problems);
      return this.service.prepareUpdate(caller, projectName, operation.activityId, data, {
        createdEarlier,
        loc,
      });
    }
    return this.service.prepareDelete(caller, projectName, operation.activityId, { createdEarlier });
  }

  private succeeded(operation: ActivityOperation, activityId: string): ActivityOperationResult {
    return {
      id: operation.id ?? newId(),
      type: operation.type,
      activityId,
      success: true,
      status: operation.type === 'create' ? 201 : 204,
      errorCode: null,
      detail: null,
    };
  }

  private failed(operation: ActivityOperation, error: unknown): ActivityOperationResult {
    const { known, status, errorCode, detail } = operationFailure(error);
    if (!known) this.log.error({ err: error }, 'activity operation failed');
    return {
      id: operation.id ?? newId(),
      type: operation.type,
      activityId: operation.activityId ?? null,
      success: false,
      status,
      errorCode,
      detail,
    };
  }
}
