import {
  Conflict,
  Forbidden,
  NotFound,
  ValidationFailed,
  isManagerOrAbove,
  newId,
  type Database,
  type EventBus,
  type EventInput,
  type ProjectDirectory,
  type ProjectEntityType,
  type RequestUser,
  type Sender,
  type UserDirectory,
} from '@pipewright/sdk';
import type { AttachedFile, Attachments } from './attachments.js';
import type { EntityContext, EntityReader } from './entity-context.js';
import {
  MAX_BODY_LENGTH,
  extractMentions,
  hasChecklist,
  onlyCheckboxesChanged,
  type Mentions,
} from './markdown.js';
import { activityEvent, inboxMessages } from './notifications.js';
import { ADDRESS_STRENGTH, type ActivityRow, type ActivityStore, type ReferenceInput } from './store.js';

export const ACTIVITY_TYPES = [
  'comment',
  'watch',
  'reviewable',
  'status.change',
  'assignee.add',
  'assignee.remove',
  'version.publish',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Keys of data the server owns: clients cannot set them. */
const SERVER_DATA = ['origin', 'parents', 'author', 'files', 'reactions', 'hasChecklist'];

/** An activity as a client or another addon asks for it. */
export interface NewActivity {
  entityType: ProjectEntityType;
  entityId: string;
  activityType: ActivityType;
  body?: string;
  tags?: string[];
  files?: string[];
  data?: Record<string, unknown>;
  id?: string;
  timestamp?: string;
}

/** A change of an activity as PATCH sends it. */
export interface ActivityPatch {
  body?: string;
  tags?: string[];
  files?: string[];
  appendFiles?: boolean;
  data?: Record<string, unknown>;
}

/** A new activity with everything read that its write needs, so the write touches only its transaction. */
export interface PreparedCreate {
  kind: 'create';
  projectName: string;
  id: string;
  type: string;
  body: string;
  tags: string[];
  data: Record<string, unknown>;
  at: Date;
  context: EntityContext;
  author: string | null;
  mentions: Mentions;
  fileIds: string[];
  /** A server-made activity may be made by two server processes hearing the same event: the second is skipped. */
  onConflict: 'fail' | 'skip';
  /** Make the author a watcher of the entity (people who comment follow the conversation). */
  authorWatches: boolean;
  sender: Sender | null;
}

export interface PreparedUpdate {
  kind: 'update';
  projectName: string;
  id: string;
  caller: RequestUser;
  patch: ActivityPatch;
  mentions: Mentions | null;
  files: AttachedFile[] | null;
  sender: Sender | null;
}

export interface PreparedDelete {
  kind: 'delete';
  projectName: string;
  id: string;
  caller: RequestUser;
  sender: Sender | null;
}

export type PreparedWrite = PreparedCreate | PreparedUpdate | PreparedDelete;

/** What a write did: the activity's id, and the events to send once its transaction has committed. */
export interface WriteResult {
  id: string;
  events: EventInput[];
}

const isAdmin = (caller: RequestUser) => caller.isAdmin || caller.isService;

/** Client data without the keys the server owns. */
function clientData(data: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data ?? {}).filter(([key]) => !SERVER_DATA.includes(key)));
}

function checkBody(body: string, loc: (string | number)[]): void {
  if (body.length > MAX_BODY_LENGTH)
    throw new ValidationFailed([
      {
        loc,
        msg: `The body is longer than ${MAX_BODY_LENGTH} characters`,
        type: 'value_error.any_str.max_length',
      },
    ]);
}

/** Database refusals as the errors clients understand. */
function translate(error: unknown): unknown {
  if ((error as { code?: string }).code === '23505')
    return new Conflict('An activity with this id already exists', 'activity-exists');
  return error;
}

/**
 * Activities of a project: what may be written by whom, prepared outside the write transaction (reads through
 * other addons' services must not wait on it: PGlite has one connection) and then written inside it.
 */
export class ActivityService {
  constructor(
    private readonly db: Database,
    private readonly store: ActivityStore,
    private readonly reader: EntityReader,
    private readonly projects: ProjectDirectory,
    private readonly users: UserDirectory,
    private readonly attachments: Attachments,
    private readonly events: EventBus,
  ) {}

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
    sender: Sender | null,
    loc: (string | number)[] = ['body'],
  ): Promise<PreparedCreate> {
    if (input.activityType !== 'comment' && !caller.isService)
      throw new Forbidden(`Only services create ${input.activityType} activities; people create comments`);
    if (!(await this.reader.find(projectName, input.entityType, input.entityId, caller)))
      throw new NotFound(`${input.entityType} ${input.entityId} not found`);
    return this.prepareActivity(projectName, input, {
      author: caller.name,
      sender,
      onConflict: 'fail',
      authorWatches: !caller.isService,
      loc,
    });
  }

  /** A new activity on an entity, whoever makes it (clients after their checks, the server, other addons). */
  async prepareActivity(
    projectName: string,
    input: NewActivity,
    options: {
      author: string | null;
      sender: Sender | null;
      onConflict: 'fail' | 'skip';
      authorWatches: boolean;
      loc?: (string | number)[];
    },
  ): Promise<PreparedCreate> {
    const loc = options.loc ?? ['body'];
    const body = input.body ?? '';
    checkBody(body, [...loc, 'body']);
    const context = await this.reader.context(projectName, input.entityType, input.entityId);
    if (!context) throw new NotFound(`${input.entityType} ${input.entityId} not found`);
    const files = input.files
      ? await this.attachments.describe(projectName, input.files, [...loc, 'files'])
      : null;
    const data: Record<string, unknown> = {
      ...clientData(input.data),
      origin: context.origin,
      parents: context.parents,
    };
    if (options.author) data.author = options.author;
    if (files) data.files = files;
    if (input.activityType === 'comment' && hasChecklist(body)) data.hasChecklist = true;
    return {
      kind: 'create',
      projectName,
      id: input.id ?? newId(),
      type: input.activityType,
      body,
      tags: input.tags ?? [],
      data,
      at: input.timestamp ? new Date(input.timestamp) : new Date(),
      context,
      author: options.author,
      mentions: await this.resolveMentions(projectName, body),
      fileIds: files?.map((file) => file.id) ?? [],
      onConflict: options.onConflict,
      authorWatches: options.authorWatches,
      sender: options.sender,
    };
  }

  /** An edit; whether the caller may make it is decided against the stored activity, inside the write. */
  async prepareUpdate(
    caller: RequestUser,
    projectName: string,
    id: string,
    patch: ActivityPatch,
    sender: Sender | null,
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
      mentions: patch.body !== undefined ? await this.resolveMentions(projectName, patch.body) : null,
      files: patch.files
        ? await this.attachments.describe(projectName, patch.files, [...loc, 'files'])
        : null,
      sender,
    };
  }

  async prepareDelete(
    caller: RequestUser,
    projectName: string,
    id: string,
    sender: Sender | null,
    options: { createdEarlier?: boolean } = {},
  ): Promise<PreparedDelete> {
    if (!options.createdEarlier) await this.requireVisible(caller, projectName, id);
    return { kind: 'delete', projectName, id, caller, sender };
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

  /** Mentioned users that exist and mentioned entities that exist in the project. */
  private async resolveMentions(projectName: string, body: string): Promise<Mentions> {
    const found = extractMentions(body);
    const users: string[] = [];
    for (const name of found.users) {
      const user = await this.users.get(name);
      if (user && !users.includes(user.name)) users.push(user.name);
    }
    const entities: Mentions['entities'] = [];
    const types = [...new Set(found.entities.map((entity) => entity.type))];
    for (const type of types) {
      const ids = found.entities.filter((entity) => entity.type === type).map((entity) => entity.id);
      const existing = await this.reader.existing(projectName, type, ids);
      for (const id of ids) if (existing.has(id)) entities.push({ type, id });
    }
    return { users, entities };
  }

  // ---------------------------------------------------------------- writing

  /** Apply one prepared write and its events in a unit of work (the caller's, when it has one). */
  async write(prepared: PreparedWrite): Promise<WriteResult> {
    try {
      return await this.db.transaction().execute(async () => {
        const result =
          prepared.kind === 'create'
            ? await this.writeCreate(prepared)
            : prepared.kind === 'update'
              ? await this.writeUpdate(prepared)
              : await this.writeDelete(prepared);
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

  private async writeCreate(p: PreparedCreate): Promise<WriteResult> {
    const inserted = await this.store.insert(
      p.projectName,
      { id: p.id, type: p.type, body: p.body, tags: p.tags, data: p.data, at: p.at },
      p.onConflict,
    );
    if (!inserted) return { id: p.id, events: [] };
    const origin = p.context.origin;
    const watchers = p.type === 'watch' ? [] : await this.store.watchers(p.projectName, origin.id);
    const references: ReferenceInput[] = [
      { referenceType: 'origin', entityType: origin.type, entityId: origin.id },
    ];
    if (p.author) references.push({ referenceType: 'author', entityType: 'user', entityName: p.author });

    const mentionedIds = new Set<string>();
    for (const entity of p.mentions.entities) {
      if (entity.id === origin.id) continue;
      mentionedIds.add(entity.id);
      references.push({ referenceType: 'mention', entityType: entity.type, entityId: entity.id });
    }
    // Watching an entity concerns only the entity itself: no relations, no one else to tell.
    if (p.type !== 'watch') {
      for (const entity of p.context.relatedEntities) {
        if (entity.id === origin.id || mentionedIds.has(entity.id)) continue;
        if (references.some((ref) => ref.referenceType === 'relation' && ref.entityId === entity.id))
          continue;
        references.push({ referenceType: 'relation', entityType: entity.type, entityId: entity.id });
      }
    }

    // Each user once, for the strongest reason; the author is never told about their own activity.
    const addressed = new Map<
      string,
      { type: 'mention' | 'watching' | 'relation'; data: Record<string, unknown> }
    >();
    const address = (
      name: string,
      type: 'mention' | 'watching' | 'relation',
      data: Record<string, unknown> = {},
    ) => {
      if (name === p.author) return;
      const current = addressed.get(name);
      if (!current || ADDRESS_STRENGTH[type] > ADDRESS_STRENGTH[current.type])
        addressed.set(name, { type, data });
    };
    for (const name of p.mentions.users) address(name, 'mention');
    if (p.type !== 'watch') {
      for (const name of watchers) address(name, 'watching');
      for (const user of p.context.relatedUsers) address(user.name, 'relation', { role: user.role });
    }
    for (const [name, { type, data }] of addressed)
      references.push({ referenceType: type, entityType: 'user', entityName: name, data });

    await this.store.addReferences(p.projectName, p.id, references, p.at);
    await this.attachments.link(p.projectName, p.id, p.fileIds);

    const events = [
      activityEvent('created', p.projectName, p, references, p.author, p.sender),
      ...inboxMessages(
        p.projectName,
        p,
        [...addressed].map(([name, { type }]) => ({ name, referenceType: type })),
        p.author,
      ),
    ];
    if (p.authorWatches && p.author && !watchers.includes(p.author)) {
      const watch = await this.writeCreate(
        this.watchOf(p.context, p.author, p.author, p.sender, p.projectName),
      );
      events.push(...watch.events);
    }
    return { id: p.id, events };
  }

  /** A watch activity: the watcher follows the entity from now on. */
  watchOf(
    context: EntityContext,
    watcher: string,
    author: string | null,
    sender: Sender | null,
    projectName: string,
  ): PreparedCreate {
    const data: Record<string, unknown> = { origin: context.origin, parents: context.parents, watcher };
    if (author) data.author = author;
    return {
      kind: 'create',
      projectName,
      id: newId(),
      type: 'watch',
      body: '',
      tags: [],
      data,
      at: new Date(),
      context,
      author,
      mentions: { users: [], entities: [] },
      fileIds: [],
      onConflict: 'fail',
      authorWatches: false,
      sender,
    };
  }

  private async writeUpdate(p: PreparedUpdate): Promise<WriteResult> {
    const row = await this.store.get(p.projectName, p.id, true);
    if (!row) throw new NotFound(`Activity ${p.id} not found`);
    const owner = row.data.author === p.caller.name;
    let patch = p.patch;
    let files = p.files;
    if (!owner && !isAdmin(p.caller)) {
      // Others may tick the author's checklist, nothing more; other fields they send are ignored, as AYON does.
      if (patch.body !== undefined && !onlyCheckboxesChanged(row.body, patch.body))
        throw new Forbidden('Only the author changes this activity; others may only tick its checkboxes');
      patch = { body: patch.body };
      files = null;
    }
    const body = patch.body ?? row.body;
    const data: Record<string, unknown> = { ...row.data, ...clientData(patch.data) };
    delete data.hasChecklist;
    if (row.activity_type === 'comment' && hasChecklist(body)) data.hasChecklist = true;
    const before = ((row.data.files ?? []) as AttachedFile[]).map((file) => file.id);
    let fileIds = before;
    if (files) {
      const kept = patch.appendFiles
        ? ((row.data.files ?? []) as AttachedFile[]).filter((file) => !files!.some((f) => f.id === file.id))
        : [];
      const list = [...kept, ...files];
      fileIds = list.map((file) => file.id);
      if (list.length) data.files = list;
      else delete data.files;
    }
    await this.store.update(p.projectName, p.id, { body, tags: patch.tags ?? row.tags, data });

    let newlyMentioned: string[] = [];
    if (p.mentions && patch.body !== undefined) {
      const origin = row.data.origin as { id: string };
      const author = row.data.author as string | undefined;
      const users = p.mentions.users.filter((name) => name !== author);
      const entities = p.mentions.entities.filter((entity) => entity.id !== origin.id);
      await this.store.dropMentions(p.projectName, p.id, {
        users,
        entityIds: entities.map((entity) => entity.id),
      });
      newlyMentioned = await this.store.mentionUsers(p.projectName, p.id, users);
      await this.store.mentionEntities(p.projectName, p.id, entities);
    }
    if (files) await this.attachments.link(p.projectName, p.id, fileIds, before);

    const references = await this.store.references(p.projectName, p.id);
    const activity = { id: p.id, type: row.activity_type, body };
    return {
      id: p.id,
      events: [
        activityEvent('updated', p.projectName, activity, references, p.caller.name, p.sender),
        ...inboxMessages(
          p.projectName,
          activity,
          newlyMentioned.map((name) => ({ name, referenceType: 'mention' })),
          (row.data.author as string | undefined) ?? null,
        ),
      ],
    };
  }

  private async writeDelete(p: PreparedDelete): Promise<WriteResult> {
    const row = await this.store.get(p.projectName, p.id, true);
    if (!row) throw new NotFound(`Activity ${p.id} not found`);
    if (row.data.author !== p.caller.name && !isAdmin(p.caller))
      throw new Forbidden('Only the author or an administrator deletes an activity');
    return this.removeActivity(p.projectName, row, p.caller.name, p.sender);
  }

  private async removeActivity(
    projectName: string,
    row: ActivityRow,
    user: string | null,
    sender: Sender | null,
  ): Promise<WriteResult> {
    const references = await this.store.references(projectName, row.id);
    const files = ((row.data.files ?? []) as AttachedFile[]).map((file) => file.id);
    await this.attachments.link(projectName, row.id, [], files);
    await this.store.remove(projectName, [row.id]);
    return {
      id: row.id,
      events: [
        activityEvent(
          'deleted',
          projectName,
          { id: row.id, type: row.activity_type, body: row.body },
          references,
          user,
          sender,
        ),
      ],
    };
  }

  // ---------------------------------------------------------------- reactions

  /** Add or remove the caller's reaction; each user has each reaction at most once. */
  async react(
    caller: RequestUser,
    projectName: string,
    id: string,
    reaction: string,
    action: 'add' | 'remove',
    sender: Sender,
  ): Promise<void> {
    await this.requireVisible(caller, projectName, id);
    const fullName = action === 'add' ? ((await this.users.get(caller.name))?.attrib.fullName ?? null) : null;
    await this.db.transaction().execute(async () => {
      const row = await this.store.get(projectName, id, true);
      if (!row) throw new NotFound(`Activity ${id} not found`);
      const reactions = (row.data.reactions ?? []) as { reaction: string; userName: string }[];
      const mine = (r: { reaction: string; userName: string }) =>
        r.reaction === reaction && r.userName === caller.name;
      let next = reactions;
      if (action === 'add' && !reactions.some(mine))
        next = [
          ...reactions,
          { reaction, userName: caller.name, fullName, timestamp: new Date().toISOString() } as any,
        ];
      if (action === 'remove') next = reactions.filter((r) => !mine(r));
      if (next === reactions || next.length === reactions.length) return;
      await this.store.setData(projectName, id, { ...row.data, reactions: next });
      const references = await this.store.references(projectName, id);
      const activity = { id, type: row.activity_type, body: row.body };
      await this.emit([
        activityEvent('updated', projectName, activity, references, caller.name, sender, false),
      ]);
    });
  }

  // ---------------------------------------------------------------- watchers

  /** Who watches an entity the caller may read. */
  async watchers(
    caller: RequestUser,
    projectName: string,
    type: ProjectEntityType,
    id: string,
  ): Promise<string[]> {
    if (!(await this.reader.find(projectName, type, id, caller)))
      throw new NotFound(`${type} ${id} not found`);
    return this.store.watchers(projectName, id);
  }

  /**
   * Make exactly these users watch an entity the caller may read. A task's versions get the same watchers, as in
   * AYON: who follows the task follows what is published from it.
   */
  async setWatchers(
    caller: RequestUser,
    projectName: string,
    type: ProjectEntityType,
    id: string,
    names: string[],
    sender: Sender,
  ): Promise<void> {
    if (!(await this.reader.find(projectName, type, id, caller)))
      throw new NotFound(`${type} ${id} not found`);
    const wanted: string[] = [];
    const problems = [];
    for (const [index, name] of names.entries()) {
      const user = await this.users.get(name);
      if (!user)
        problems.push({
          loc: ['body', 'watchers', index],
          msg: `User ${name} not found`,
          type: 'value_error.missing',
        });
      else if (!wanted.includes(user.name)) wanted.push(user.name);
    }
    if (problems.length) throw new ValidationFailed(problems);
    const context = await this.reader.context(projectName, type, id);
    if (!context) throw new NotFound(`${type} ${id} not found`);
    const versions: EntityContext[] = [];
    if (type === 'task') {
      for (const version of await this.reader.list(projectName, 'version', { taskIds: [id] }, 1000)) {
        const versionContext = await this.reader.context(projectName, 'version', version.id);
        if (versionContext) versions.push(versionContext);
      }
    }
    await this.db.transaction().execute(async () => {
      const out: EventInput[] = [];
      for (const target of [context, ...versions]) {
        const now = await this.store.watchers(projectName, target.origin.id);
        const removed = now.filter((name) => !wanted.includes(name));
        for (const row of await this.store.watchActivities(projectName, target.origin.id, removed))
          out.push(...(await this.removeActivity(projectName, row, caller.name, sender)).events);
        for (const name of wanted.filter((n) => !now.includes(n)))
          out.push(
            ...(await this.writeCreate(this.watchOf(target, name, caller.name, sender, projectName))).events,
          );
      }
      await this.emit(out);
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
      const watch = this.watchOf(context, userName, userName, null, projectName);
      await this.emit((await this.writeCreate(watch)).events);
    });
  }
}
