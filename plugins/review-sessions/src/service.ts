import {
  BadRequest,
  Conflict,
  Forbidden,
  isManagerOrAbove,
  NotFound,
  type Database,
  type EventBus,
  type RequestUser,
} from '@pipewright/sdk';
import type { EntityListDirectory } from '@pipewright/plugin-lists/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { SessionActionValue } from './schemas.js';
import { applied, handedTo, started, type Command, type Role, type SessionState } from './state.js';
import type { SessionStore } from './store.js';

const plain = (id: string) => id.replaceAll('-', '');

/**
 * Synced review sessions on lists of versions. Whoever may read the list joins; the first to join drives, and control
 * passes on only when the driver (or a manager) hands it to a member, or to whoever asks once nobody drives. Each
 * change is written with its revision and broadcast as review_session.changed in one unit of work, so every server
 * process and every client hears the same state, and a restart loses nothing.
 */
export class ReviewSessions {
  constructor(
    private readonly db: Database,
    private readonly store: SessionStore,
    private readonly deps: { projects: ProjectDirectory; lists: EntityListDirectory },
    private readonly events: EventBus,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The session as it stands (404 before anyone joined it). */
  async get(caller: RequestUser, projectName: string, listId: string) {
    const { project, list } = await this.list(caller, projectName, listId);
    const row = await this.store.get(project, list.id);
    if (!row) throw new NotFound(`Nobody has started a review session on ${list.label}`);
    return this.present(list.id, row.state, row.revision);
  }

  /** What someone in the session does: take part, hand control on, ask for it, or (the driver) command. */
  async act(caller: RequestUser, projectName: string, listId: string, action: SessionActionValue) {
    switch (action.command) {
      case 'join':
        return this.join(caller, projectName, listId, action.role);
      case 'leave':
        return this.leave(caller, projectName, listId);
      case 'hand':
        return this.handOff(caller, projectName, listId, action.to);
      case 'request':
        return this.requestControl(caller, projectName, listId);
      default:
        return this.command(caller, projectName, listId, action);
    }
  }

  /** Take part: the first to join drives; guests only watch. */
  private async join(
    caller: RequestUser,
    projectName: string,
    listId: string,
    role: Exclude<Role, 'driver'> = 'reviewer',
  ) {
    const { project, list } = await this.list(caller, projectName, listId);
    return this.change(project, list.id, (state) => {
      if (!state) return started(list.items[0] ? plain(list.items[0].entityId) : null, caller.name);
      if (state.members[caller.name] === 'driver') return state;
      const members = { ...state.members, [caller.name]: caller.isGuest ? 'viewer' : role };
      return { ...state, members };
    });
  }

  private async leave(caller: RequestUser, projectName: string, listId: string) {
    const { project, list } = await this.list(caller, projectName, listId);
    return this.change(project, list.id, (state) => {
      if (!state) throw new NotFound(`Nobody has started a review session on ${list.label}`);
      const { [caller.name]: _gone, ...members } = state.members;
      return { ...state, members, driver: state.driver === caller.name ? null : state.driver };
    });
  }

  /** A driver's command: play, pause, seek, what is shown, how. */
  private async command(caller: RequestUser, projectName: string, listId: string, command: Command) {
    const { project, list } = await this.list(caller, projectName, listId);
    if (
      command.command === 'select' &&
      !list.items.some((item) => plain(item.entityId) === plain(command.versionId))
    )
      throw new BadRequest(`Version ${command.versionId} is not in ${list.label}`);
    return this.change(project, list.id, (state) => {
      if (!state) throw new NotFound(`Nobody has started a review session on ${list.label}`);
      if (state.driver !== caller.name)
        throw new Forbidden(
          state.driver ? `${state.driver} drives this session; ask them for control` : 'Take control first',
        );
      const select =
        command.command === 'select' ? { ...command, versionId: plain(command.versionId) } : command;
      return applied(state, select, this.clock());
    });
  }

  /**
   * Control to a member: the driver hands it on, a manager may give it to anyone in the session, and a member may
   * take it while nobody drives.
   */
  private async handOff(caller: RequestUser, projectName: string, listId: string, to: string) {
    const { project, list } = await this.list(caller, projectName, listId);
    return this.change(project, list.id, (state) => {
      if (!state) throw new NotFound(`Nobody has started a review session on ${list.label}`);
      if (!(to in state.members)) throw new BadRequest(`${to} has not joined this session`);
      if (state.members[to] === 'viewer' && to !== caller.name && !isManagerOrAbove(caller))
        throw new Conflict(`${to} joined to watch; they take control themselves if they want it`);
      const free = state.driver === null && to === caller.name;
      if (!free && state.driver !== caller.name && !isManagerOrAbove(caller))
        throw new Forbidden(`Only ${state.driver ?? 'the driver'} or a manager hands control on`);
      return handedTo(state, to);
    });
  }

  /** A member asks the driver for control: the driver's screen offers to hand it over. */
  private async requestControl(caller: RequestUser, projectName: string, listId: string) {
    const { project, list } = await this.list(caller, projectName, listId);
    const row = await this.store.get(project, list.id);
    if (!row || !(caller.name in row.state.members)) throw new BadRequest('Join the session first');
    const session = this.present(list.id, row.state, row.revision);
    await this.events.emit({
      topic: 'review_session.requested',
      project,
      description: `${caller.name} asks for control of the review of ${list.label}`,
      summary: { listId: list.id, from: caller.name, driver: row.state.driver },
      store: false,
    });
    return session;
  }

  serverTime() {
    return { serverTime: this.clock() };
  }

  private async list(caller: RequestUser, projectName: string, listId: string) {
    const project = (await this.deps.projects.require(caller, projectName)).name;
    const list = await this.deps.lists.get(caller, project, listId);
    if (list.entityType !== 'version')
      throw new BadRequest(`A review session plays versions; ${list.label} lists ${list.entityType}s`);
    return { project, list: { ...list, id: plain(list.id) } };
  }

  /** One change of the session, written and broadcast together; changes to one session take turns. */
  private async change(project: string, listId: string, next: (state: SessionState | null) => SessionState) {
    return this.db.transaction().execute(async () => {
      const row = await this.store.lock(project, listId);
      const state = next(row?.state ?? null);
      if (row && state === row.state) return this.present(listId, state, row.revision);
      const revision = (row?.revision ?? 0) + 1;
      await this.store.put(project, listId, state, revision);
      const session = this.present(listId, state, revision);
      await this.events.emit({
        topic: 'review_session.changed',
        project,
        description: `Review session of list ${listId}, revision ${revision}`,
        summary: session,
        store: false,
      });
      return session;
    });
  }

  private present(listId: string, state: SessionState, revision: number) {
    return { listId, revision, serverTime: this.clock(), ...state };
  }
}
