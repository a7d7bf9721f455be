import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import {
  Conflict,
  Forbidden,
  NotFound,
  type ActionContext,
  type Database,
  type EventBus,
  type EventMessage,
  type RequestUser,
} from '@pipewright/sdk';

// The hand-over to the desktop launcher: an action.launcher event waits (pending) under a random token's hash
// until a launcher takes it (in_progress) or gives up on it (aborted).

/** Topic of the events that hand an action over to a desktop launcher. */
export const LAUNCHER_TOPIC = 'action.launcher';

/** What a launcher event's payload holds: everything the launcher needs to run the action. */
export interface LauncherPayload {
  args: string[];
  context: ActionContext;
  identifier: string;
  addonName: string;
  addonVersion: string;
  variant: string;
  userName: string;
}

const sameUser = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/** The pending launcher actions, as events. */
export class LauncherQueue {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  /** Leave an action for the launcher: its pending event, and the token that claims it. */
  async handOver(payload: LauncherPayload, label: string) {
    // 32 random bytes: the token alone lets a launcher claim the action, so it must not be guessable.
    const token = randomBytes(32).toString('hex');
    const { id } = await this.events.emit({
      topic: LAUNCHER_TOPIC,
      hash: token,
      status: 'pending',
      project: payload.context.projectName,
      user: payload.userName,
      description: `${label}: waiting for the launcher`,
      // Broadcast to subscribers, so no token here: only the stored payload and the hash hold it.
      summary: {
        addonName: payload.addonName,
        addonVersion: payload.addonVersion,
        identifier: payload.identifier,
      },
      payload: { ...payload },
    });
    return { token, eventId: id };
  }

  /**
   * The launcher claims a pending action by its token: the event goes to in_progress and its payload is answered.
   * The claim is one conditional UPDATE, so two launchers racing for one token cannot both get it.
   */
  async take(token: string, caller: RequestUser) {
    const event = await this.launcherEvent(token, caller);
    const claimed = await sql<Record<string, any>>`
      UPDATE public.events SET status = 'in_progress', description = 'Action taken by the launcher', updated_at = now()
      WHERE id = ${event.id} AND status = 'pending'
      RETURNING id`.execute(this.db);
    if (claimed.rows.length === 0)
      throw new Conflict(`This action was already taken (it is ${event.status})`);
    await this.announce(event.id);
    const payload = event.payload as LauncherPayload;
    return {
      eventId: event.id as string,
      actionIdentifier: payload.identifier,
      args: payload.args ?? [],
      context: payload.context,
      addonName: payload.addonName,
      addonVersion: payload.addonVersion,
      variant: payload.variant,
      userName: payload.userName ?? event.user_name,
    };
  }

  /** The launcher gives up on an action (pending or taken): the event is aborted with the launcher's message. */
  async abort(token: string, caller: RequestUser, message: string): Promise<void> {
    const event = await this.launcherEvent(token, caller);
    const aborted = await sql<Record<string, any>>`
      UPDATE public.events SET status = 'aborted', description = ${message}, updated_at = now()
      WHERE id = ${event.id} AND status IN ('pending', 'in_progress')
      RETURNING id`.execute(this.db);
    if (aborted.rows.length === 0)
      throw new Conflict(`This action has already ended (it is ${event.status})`);
    await this.announce(event.id);
  }

  /** The launcher event of a token, for its owner (or an admin or service); 404 for a token nobody issued. */
  private async launcherEvent(token: string, caller: RequestUser): Promise<Record<string, any>> {
    const event = await this.db
      .selectFrom('public.events')
      .select(['id', 'status', 'user_name', 'payload'])
      .where('hash', '=', token)
      .where('topic', '=', LAUNCHER_TOPIC)
      .executeTakeFirst();
    if (!event) throw new NotFound('Invalid action token');
    if (!sameUser(event.user_name, caller.name) && !caller.isAdmin && !caller.isService) {
      throw new Forbidden('This action was started by another user');
    }
    return event;
  }

  /** Tell subscribers (websocket clients, other processes) that the event's status changed. */
  private async announce(id: string): Promise<void> {
    const stored = await this.events.get(id);
    if (!stored) return;
    const { payload: _payload, retries: _retries, ...message } = stored;
    await this.events.announce(message as EventMessage);
  }
}
