import {
  isId,
  NotFound,
  outsideUnitOfWork,
  PipewrightError,
  type EventBus,
  type RequestUser,
} from '@pipewright/sdk';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Operation } from './input.js';
import type { EntityProcessor } from './processor.js';

const TOPIC = 'operations.background';
const STATUS = {
  pending: 'pending',
  in_progress: 'in_progress',
  finished: 'completed',
  failed: 'completed',
} as Record<string, string>;

/**
 * Long batches run after the request answers. Their state lives in the events table, not in this process, so
 * any server process can answer the poll and the outcome survives a restart.
 */
export class BackgroundOperations {
  constructor(
    private readonly processor: EntityProcessor,
    private readonly events: EventBus,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(
    caller: RequestUser,
    project: ProjectRecord,
    operations: Operation[],
    options: { canFail: boolean },
  ): Promise<string> {
    const { id } = await this.events.emit({
      topic: TOPIC,
      project: project.name,
      user: caller.name,
      status: 'pending',
      description: `${operations.length} operations queued`,
      summary: { operations: operations.length, progress: 0 },
    });
    // After the answer is on its way: on PGlite the batch's queries run on this thread, one after another, and
    // would otherwise hold the answer back until the last of them.
    setImmediate(() => void this.execute(id, caller, project, operations, options));
    return id;
  }

  async status(project: ProjectRecord, id: string) {
    // Any text names a batch, as in AYON; only an id can be one.
    const event = isId(id) ? await this.events.get(id) : null;
    if (!event || event.topic !== TOPIC || event.project !== project.name)
      throw new NotFound(`Background operation ${id} not found`);
    return {
      id,
      status: STATUS[event.status] ?? event.status,
      progress: Number(event.summary.progress ?? 0),
      result:
        event.status === 'finished' || event.status === 'failed'
          ? (event.payload.result as object)
          : undefined,
    };
  }

  private async execute(
    id: string,
    caller: RequestUser,
    project: ProjectRecord,
    operations: Operation[],
    options: { canFail: boolean },
  ) {
    const step = Math.max(1, Math.ceil(operations.length / 20));
    // Progress is written beside the batch, outside its unit of work, so pollers see it while the batch runs (on
    // PGlite, once the batch lets go of the only connection): never awaited from inside. The chain keeps writes
    // in order, so the final status is always the last one written.
    let writes: Promise<unknown> = Promise.resolve();
    const write = (changes: Parameters<EventBus['update']>[1]) => {
      writes = writes
        .then(() => this.events.update(id, changes))
        .catch((error) => this.log.warn({ err: error }, 'could not record background progress'));
      return writes;
    };
    try {
      await write({ status: 'in_progress', summary: { operations: operations.length, progress: 0 } });
      const result = await this.processor.run(caller, project, operations, {
        ...options,
        onProgress: async (done, total) => {
          if (done % step !== 0 || done === total) return;
          const progress = Math.round((done / total) * 100);
          void outsideUnitOfWork(() => write({ summary: { operations: total, progress }, progress }));
          // Let other requests (the web app's files, say) through between steps of a long batch.
          await new Promise((resume) => setImmediate(resume));
        },
      });
      await write({
        status: 'finished',
        summary: { operations: operations.length, progress: 100, success: result.success },
        payload: { result },
        progress: 100,
      });
    } catch (error) {
      this.log.error({ err: error }, 'background operations failed');
      // The event is read by the caller: an unexpected failure's own message (a database's, say) stays in the log.
      const detail = error instanceof PipewrightError ? error.message : 'The operations failed on the server';
      const result = { operations: [], success: false, detail };
      await write({
        status: 'failed',
        summary: { operations: operations.length, success: false },
        payload: { result },
      });
    }
  }
}
