import {
  Conflict,
  Forbidden,
  NotFound,
  isManagerOrAbove,
  type Database,
  type EventBus,
  type EventInput,
  type ProjectEntityType,
  type RequestUser,
} from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { Attachments } from './attachments.js';
import type { EntityReader } from './entity-context.js';
import type { ActivityRow, ActivityStore } from './store.js';
import { watchOf, writeCreate } from './write/create.js';
import { writeDelete } from './write/delete.js';
import { prepareActivity, resolveMentions } from './write/prepare.js';
import type {
  ActivityPatch,
  CreateOptions,
  NewActivity,
  PreparedCreate,
  PreparedDelete,
  PreparedUpdate,
  PreparedWrite,
  WriteDeps,
  WriteResult,
} from './write/prepared.js';
import { writeReaction } from './write/reactions.js';
import { checkBody, clientData } from './write/rules.js';
import { writeUpdate } from './write/update.js';
import { rewatch, wantedWatchers, watchedEntities } from './write/watchers.js';

export {
  ACTIVITY_TYPES,
  type ActivityType,
  type NewActivity,
  type PreparedCreate,
  type PreparedWrite,
} from './write/prepared.js';

/** Database refusals as the errors clients understand. */
function translate(error: unknown): unknown {
  if ((error as { code?: string }).code === '23505')
    return new Conflict('An activity with this id already exists', 'activity-exists');
  return error;
}

/**
 * Activities of a project: what may be written by whom, prepared outside the write transaction (reads through
 * other addons' services must not wait on it: PGlite has one connection) and then written inside it, with its
 * events, by the stages in write/.
 */
export class ActivityService {
  private readonly deps: WriteDeps;

  constructor(
    private readonly db: Database,
    private readonly store: ActivityStore,
    private readonly reader: EntityReader,
    private readonly projects: ProjectDirectory,
    private readonly users: UserDirectory,
    attachments: Attachments,
    private readonly events: EventBus,
  ) {
    this.deps = { store, reader, users, attachments };
  }

  // ---------------------------------------------------------------- preparing

  /** The project as the caller may use it (404 missing, 403 not theirs): its canonical name. */
  async project(caller: RequestUser, projectName: string): Promise<string> {
    return (await this.projects.require(caller, projectName)).name;
  }

  /** A client's new activity: only comments, unless the caller is a service; only on entities they can read. */
  async prepareCreate(
    caller: RequestUser,
    projectName: string,
    input: NewActivity,
    loc: (string | number)[] = ['body'],
  ): Promise<PreparedCreate> {
    if (input.activityType !== 'comment' && !caller.isService)
      throw new Forbidden(`Only services create ${input.activityType} activities; people create comments`);
    await this.requireEntity(caller, projectName, input.entityType, input.entityId);
    return this.prepareActivity(projectName, input, {
      author: caller.name,
      onConflict: 'fail',
      authorWatches: !caller.isService,
      loc,
    });
  }

  /** A new activity on an entity, whoever makes it (clients after their checks, the server, other addons). */
  prepareActivity(projectName: string, input: NewActivity, options: CreateOptions): Promise<PreparedCreate> {
    return prepareActivity(this.deps, projectName, input, options);
  }

  /** An edit; whether the caller may make it is decided against the stored activity, inside the write. */
  async prepareUpdate(
    caller: RequestUser,
    projectName: string,
    id: string,
    patch: ActivityPatch,
    options: { createdEarlier?: boolean; loc?: (string | number)[] } = {},
  ): Promise<PreparedUpdate> {
    const loc = options.loc ?? ['body'];
    if (!options.createdEarlier) await this.requireVisible(caller, projectName, id);
    if (patch.body !== undefined) checkBody(patch.body, [...loc, 'body']);
    return {
      kind: 'update',
      projectName,
      id,
      caller,
      patch,
      mentions: patch.body !== undefined ? await resolveMentions(this.deps, projectName, patch.body) : null,
      files: patch.files
        ? await this.deps.attachments.describe(projectName, patch.files, [...loc, 'files'])
        : null,
    };
  }

  async prepareDelete(
    caller: RequestUser,
    projectName: string,
    id: string,
    options: { createdEarlier?: boolean } = {},
  ): Promise<PreparedDelete> {
    if (!options.createdEarlier) await this.requireVisible(caller, projectName, id);
    return { kind: 'delete', projectName, id, caller };
  }

  /**
   * The activity, when it exists and the caller may read the entity it belongs to; 404 otherwise, so activities
   * on entities outside a user's reach cannot be probed.
   */
  async requireVisible(caller: RequestUser, projectName: string, id: string): Promise<ActivityRow> {
    const row = await this.store.get(projectName, id);
    const origin = row?.data.origin as { type?: ProjectEntityType; id?: string } | undefined;
    const visible =
      row &&
      (isManagerOrAbove(caller) ||
        (origin?.type && origin.id && (await this.reader.find(projectName, origin.type, origin.id, caller))));
    if (!row || !visible) throw new NotFound(`Activity ${id} not found`);
    return row;
  }

  /** 404 unless the caller may read the entity. */
  private async requireEntity(caller: RequestUser, projectName: string, type: ProjectEntityType, id: string) {
    if (!(await this.reader.find(projectName, type, id, caller)))
      throw new NotFound(`${type} ${id} not found`);
  }

  // ---------------------------------------------------------------- writing

  /** Apply one prepared write and its events in a unit of work (the caller's, when it has one). */
  async write(prepared: PreparedWrite): Promise<WriteResult> {
    try {
      return await this.db.transaction().execute(async () => {
        const result =
          prepared.kind === 'create'
            ? await writeCreate(this.deps, prepared)
            : prepared.kind === 'update'
              ? await writeUpdate(this.deps, prepared)
              : await writeDelete(this.deps, prepared);
        await this.emit(result.events);
        return result;
      });
    } catch (error) {
      throw translate(error);
    }
  }

  /** Events of a write, in its unit of work. */
  private async emit(events: EventInput[]): Promise<void> {
    if (events.length) await this.events.emitMany(events);
  }

  /** Add or remove the caller's reaction; each user has each reaction at most once. */
  async react(
    caller: RequestUser,
    projectName: string,
    id: string,
    reaction: string,
    action: 'add' | 'remove',
  ): Promise<void> {
    await this.requireVisible(caller, projectName, id);
    const fullName = action === 'add' ? ((await this.users.get(caller.name))?.attrib.fullName ?? null) : null;
    const change = { reaction, action, userName: caller.name, fullName };
    await this.db.transaction().execute(async () => {
      await this.emit(await writeReaction(this.deps, projectName, id, change));
    });
  }

  /** Merge client keys into an activity's data inside a transaction (keys the server owns are ignored). */
  mergeData(
    projectName: string,
    id: string,
    data: Record<string, unknown>,
    touch: boolean,
  ): Promise<boolean> {
    return this.store.mergeData(projectName, id, clientData(data), touch);
  }

  // ---------------------------------------------------------------- watchers

  /** Who watches an entity the caller may read. */
  async watchers(
    caller: RequestUser,
    projectName: string,
    type: ProjectEntityType,
    id: string,
  ): Promise<string[]> {
    await this.requireEntity(caller, projectName, type, id);
    return this.store.watchers(projectName, id);
  }

  /** Make exactly these users watch an entity the caller may read (and a task's versions: see watchedEntities). */
  async setWatchers(
    caller: RequestUser,
    projectName: string,
    type: ProjectEntityType,
    id: string,
    names: string[],
  ): Promise<void> {
    await this.requireEntity(caller, projectName, type, id);
    const wanted = await wantedWatchers(this.deps, names);
    const targets = await watchedEntities(this.deps, projectName, type, id);
    await this.db.transaction().execute(async () => {
      const out: EventInput[] = [];
      for (const target of targets)
        out.push(...(await rewatch(this.deps, projectName, target, wanted, { user: caller.name })));
      await this.emit(out);
    });
  }

  /** Make one user watch an entity, if they do not already (another addon's uploader, a commenter). */
  async ensureWatching(
    projectName: string,
    type: ProjectEntityType,
    id: string,
    userName: string,
  ): Promise<void> {
    const context = await this.reader.context(projectName, type, id);
    if (!context) throw new NotFound(`${type} ${id} not found`);
    await this.db.transaction().execute(async () => {
      if ((await this.store.watchers(projectName, id)).includes(userName)) return;
      const watch = watchOf(context, userName, userName, projectName);
      await this.emit((await writeCreate(this.deps, watch)).events);
    });
  }
}
