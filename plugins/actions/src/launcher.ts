import { randomBytes } from 'node:crypto';
import {
  Conflict,
  Forbidden,
  NotFound,
  type ActionContext,
  type EventBus,
  type RequestUser,
  type StoredEvent,
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
  constructor(private readonly events: EventBus) {}

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
   * The claim is conditional on the event still pending, so two launchers racing for one token cannot both get it.
   */
  async take(token: string, caller: RequestUser) {
    const event = await this.launcherEvent(token, caller);
    const claimed = await this.events.update(
      event.id,
      { status: 'in_progress', description: 'Action taken by the launcher' },
      { ifStatus: ['pending'] },
    );
    if (!claimed) throw new Conflict(`This action was already taken (it is ${event.status})`);
    const payload = event.payload as unknown as LauncherPayload;
    return {
      eventId: event.id,
      actionIdentifier: payload.identifier,
      args: payload.args ?? [],
      context: payload.context,
      addonName: payload.addonName,
      addonVersion: payload.addonVersion,
      variant: payload.variant,
      userName: payload.userName ?? event.user,
    };
  }

  /** The launcher gives up on an action (pending or taken): the event is aborted with the launcher's message. */
  async abort(token: string, caller: RequestUser, message: string): Promise<void> {
    const event = await this.launcherEvent(token, caller);
    const aborted = await this.events.update(
      event.id,
      { status: 'aborted', description: message },
      { ifStatus: ['pending', 'in_progress'] },
    );
    if (!aborted) throw new Conflict(`This action has already ended (it is ${event.status})`);
  }

  /** The launcher event of a token, for its owner (or an admin or service); 404 for a token nobody issued. */
  private async launcherEvent(token: string, caller: RequestUser): Promise<StoredEvent> {
    const [event] = await this.events.find({ topics: [LAUNCHER_TOPIC], hash: token });
    if (!event) throw new NotFound('Invalid action token');
    if (!sameUser(event.user, caller.name) && !caller.isAdmin && !caller.isService) {
      throw new Forbidden('This action was started by another user');
    }
    return event;
  }
}
