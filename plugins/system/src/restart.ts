import type { FastifyBaseLogger } from 'fastify';
import type { Database, EventBus } from '@pipewright/sdk';

/** Whether the server needs a restart for a change to take effect, and why. */
export interface RestartStatus {
  required: boolean;
  reason: string | null;
}

/** Topic of the event that tells every server process an administrator asked for a restart. */
export const RESTART_REQUESTED = 'server.restart_requested';
/** Topic of the event that announces a change of the restart-required flag. */
export const RESTART_REQUIRED = 'server.restart_required';

/**
 * The restart-required flag, in public.server_restart so every server process answers the same. A process that
 * starts clears a flag set before it started: it already runs with whatever needed the restart.
 */
export class RestartFlag {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  async status(): Promise<RestartStatus> {
    const row = await this.db.selectFrom('server_restart').select(['required', 'reason']).executeTakeFirst();
    return { required: row?.required ?? false, reason: row?.required ? (row.reason ?? null) : null };
  }

  async set(required: boolean, reason: string | null, user: string | null = null): Promise<void> {
    const kept = required ? reason : null;
    await this.db.transaction().execute(async () => {
      await this.db
        .updateTable('server_restart')
        .set({ required, reason: kept, updated_at: new Date() })
        .execute();
      await this.events.emit({
        topic: RESTART_REQUIRED,
        user,
        description: required
          ? `Server restart required${kept ? `: ${kept}` : ''}`
          : 'Server restart no longer required',
        summary: { required, reason: kept },
      });
    });
  }

  /** Ask every server process, this one included, to restart: each stops if allowed (see RestartCoordinator). */
  async requestRestart(by: { user: string }): Promise<void> {
    await this.events.emit({
      topic: RESTART_REQUESTED,
      user: by.user,
      description: `Server restart requested by ${by.user}`,
    });
  }

  /** Clear the flag if it was raised before the given moment (this process's start). */
  async clearIfRaisedBefore(moment: Date): Promise<boolean> {
    const cleared = await this.db
      .updateTable('server_restart')
      .set({ required: false, reason: null, updated_at: new Date() })
      .where('required', '=', true)
      .where('updated_at', '<', moment)
      .executeTakeFirst();
    return Number(cleared.numUpdatedRows) > 0;
  }
}

/** How long a process waits after a restart request before it stops, so the request's own answer gets out. */
const GRACE_MS = 1000;

/**
 * What a process does when a restart is requested. The core has no in-process restart: stopping is left to the host
 * (core/src/main.ts closes the server on SIGTERM and exits; a process supervisor starts it again). So a process only
 * stops when the operator allowed it with PIPEWRIGHT_ALLOW_RESTART; otherwise the request is logged and stays in the
 * event log, and the operator restarts the server.
 */
export class RestartCoordinator {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly allowed: boolean,
    private readonly stop: () => void,
    private readonly log: FastifyBaseLogger,
    private readonly graceMs = GRACE_MS,
  ) {}

  /** React to a restart request (from this process or, through Redis, another one). */
  requested(by: string | null): void {
    if (!this.allowed) {
      this.log.warn(
        { by },
        'A server restart was requested, but PIPEWRIGHT_ALLOW_RESTART is not set: restart the server yourself',
      );
      return;
    }
    if (this.timer) return;
    this.log.warn(
      { by },
      'A server restart was requested: stopping so the process supervisor starts us again',
    );
    this.timer = setTimeout(() => this.stop(), this.graceMs);
  }

  get pending(): boolean {
    return this.timer !== null;
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** PIPEWRIGHT_ALLOW_RESTART=1 (or true, yes, on) lets POST /api/system/restart stop the server processes. */
export function restartAllowed(value: string | undefined): boolean {
  return ['1', 'true', 'yes', 'on'].includes((value ?? '').trim().toLowerCase());
}
