import { sql } from 'kysely';
import {
  BadRequest,
  Conflict,
  Forbidden,
  operationFailure,
  ValidationFailed,
  check,
  insertJsonRows,
  isManagerOrAbove,
  mergePatch,
  pathInScope,
  newId,
  isId,
  type AttributeLibrary,
  type Database,
  type EventBus,
  type EventInput,
  type AttributeAccess,
  type FolderAccessKind,
  type FolderScope,
  type ProjectRecord,
  type RequestUser,
  type Sender,
} from '@pipewright/sdk';
import type { FastifyBaseLogger } from 'fastify';
import { FolderAccess } from '../access.js';
import {
  SPECS,
  TYPE_LABELS,
  camelizeKeys,
  entityNotFound,
  type EntityType,
  type EntityTypeSpec,
} from '../entity-types.js';
import { refreshInherited } from '../inheritance.js';
import { inSubtree } from '../subtree.js';

type Json = Record<string, unknown>;
type Row = Record<string, any>;

export interface Operation {
  id?: string;
  type: 'create' | 'update' | 'delete';
  entityType: EntityType;
  entityId?: string | null;
  data?: Json | null;
  force?: boolean;
}

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

/** A row a committed transaction wrote: before is null for a new row, after null for a deleted one. */
export interface RowChange {
  type: EntityType;
  before: Row | null;
  after: Row | null;
}

/** Everything one batch needs while it runs; events and changes wait here until the transaction commits. */
interface Batch {
  caller: RequestUser;
  project: ProjectRecord;
  schema: string;
  sender: Sender;
  inheritable: string[];
  events: EventInput[];
  changes: RowChange[];
  /** Folders created earlier in this batch: later operations find their parents here instead of re-reading them. */
  created: Map<string, Row>;
  /** Rows waiting to be written together (all-or-nothing batches only). */
  pending: PendingRows | null;
  /** Buffered batches: the index of the operation creating each id the operations give. */
  createdBy?: Map<string, number>;
  /** The buffered rows the database is writing now, if any. */
  writing: Promise<void> | null;
  buffered: boolean;
  /** Index of the operation being applied. */
  current: number;
  /** The caller's folder whitelist per kind of write, read once per batch (null: unrestricted). */
  scopes: Map<FolderAccessKind, FolderScope | null>;
  /** The attributes and fields the caller may change, once read (undefined: not asked yet; null: unrestricted). */
  attributes?: AttributeAccess | null;
}

/**
 * Buffered rows per table, each with the operation that made it. Kept apart so that a client creating each folder
 * followed by its tasks (as most do) still gets one multi-row INSERT per table, not one per operation.
 */
interface PendingRows {
  tables: Map<string, Json[]>;
  size: number;
}

// The order tables are written in: each after the tables its rows reference (a task its folder, a version its
// product and task). A folder may reference a folder: rows of one INSERT are checked when it ends.
const TABLE_ORDER = Object.values(SPECS).map((spec) => spec.table);

/** The database refused a write of buffered rows: which operation's row it was, only running them one by one tells. */
class BufferedWriteRefused extends Error {}

// Rows buffered before they are written: enough to amortise the round trips; on a server the batch prepares the
// next rows while the database writes these.
const FLUSH_ROWS = 500;

// The event topic suffix of each changed field (entity.folder.renamed, entity.task.status_changed, ...).
const CHANGE_TOPICS: Record<string, string> = {
  name: 'renamed',
  status: 'status_changed',
  tags: 'tags_changed',
  attrib: 'attrib_changed',
  data: 'data_changed',
  label: 'label_changed',
  folderType: 'type_changed',
  taskType: 'type_changed',
  productType: 'type_changed',
  thumbnailId: 'thumbnail_changed',
  active: 'active_changed',
  assignees: 'assignees_changed',
  parentId: 'parent_changed',
  folderId: 'folder_changed',
  taskId: 'task_changed',
  productId: 'product_changed',
  versionId: 'version_changed',
  version: 'version_changed',
  author: 'author_changed',
  files: 'files_changed',
  path: 'path_changed',
  traits: 'traits_changed',
};

// Which whitelist guards changing an entity: folders and tasks are updated, published entities are published.
const WRITE_KIND: Record<EntityType, FolderAccessKind> = {
  folder: 'update',
  task: 'update',
  product: 'publish',
  version: 'publish',
  representation: 'publish',
  workfile: 'publish',
};

// ... and creating one: folders and tasks are created, the rest published.
const CREATE_KIND: Record<EntityType, FolderAccessKind> = { ...WRITE_KIND, folder: 'create', task: 'create' };

const JSON_COLUMNS = new Set(['attrib', 'data', 'files', 'traits']);
// The tables' defaults (migrations.ts) of columns a create may leave out, for the rows of a multi-row insert that
// leave out a column other rows give.
const ROW_DEFAULTS = {
  attrib: {},
  data: {},
  tags: [],
  active: true,
  inherited: {},
  assignees: [],
  files: [],
};
// Each type's writable fields and the columns they are stored in.
const FIELD_COLUMNS = Object.fromEntries(
  Object.values(SPECS).map((spec) => [
    spec.type,
    new Map(
      Object.entries({
        ...spec.columns,
        status: 'status',
        tags: 'tags',
        attrib: 'attrib',
        data: 'data',
        active: 'active',
      }),
    ),
  ]),
) as Record<EntityType, Map<string, string>>;
const SPECS_BY_TABLE = Object.fromEntries(
  Object.values(SPECS).map((spec) => [spec.table, spec.type]),
) as Record<string, EntityType>;

/** Database refusals as the errors users understand. */
function translate(error: unknown, type: EntityType, project: string): unknown {
  const e = error as { code?: string; detail?: string; column?: string };
  if (e.code === '23505')
    return new Conflict(
      `A ${type} with this name (or number, or path) already exists here`,
      'unique-violation',
    );
  if (e.code === '23503') {
    // A new row naming a parent that does not exist: the same answer as looking the parent up would give.
    const missing = /^Key \(\w+\)=\(([0-9a-f-]+)\) is not present in table "(\w+)"/.exec(e.detail ?? '');
    const parent = missing && SPECS_BY_TABLE[missing[2]];
    if (parent) return entityNotFound(parent, missing[1].replaceAll('-', ''), project);
    return new Conflict(`The ${type} is still referenced by other entities`, 'foreign-key-violation');
  }
  if (e.code === '23502')
    return new ValidationFailed([
      // PostgreSQL's message names the table; the column alone tells the caller what to send.
      { loc: ['data', ...(e.column ? [e.column] : [])], msg: 'a required value is missing', type: 'missing' },
    ]);
  return error;
}

const subtree = (alias: string, path: unknown) => inSubtree(sql.ref(`${alias}.path`), path);

/** The one path every write of folders, tasks, products, versions, representations and workfiles takes. */
type DeleteHook = (projectName: string, removed: { type: EntityType; id: string }[]) => Promise<void>;

export class EntityProcessor {
  private readonly deleteHooks: DeleteHook[] = [];
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
    operations: Operation[],
    options: {
      canFail: boolean;
      sender: Sender;
      /** AYON's waitForEvents: accepted, and always so here (a batch's events commit with its rows). */
      waitForEvents?: boolean;
      onProgress?: (done: number, total: number) => Promise<void>;
    },
  ) {
    const results: OperationResult[] = [];
    const progress = async () => options.onProgress?.(results.length, operations.length);
    this.checkBatch(operations);
    const batch = () => this.newBatch(caller, project, options.sender);
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
    return {
      operations: results,
      success: results.length === operations.length && results.every((r) => r.success),
    };
  }

  /**
   * All operations in one transaction; the first failure rolls it back and ends the results. False when a write of
   * buffered rows was refused (the results are then incomplete).
   */
  private async together(
    context: Batch,
    buffered: boolean,
    operations: Operation[],
    results: OperationResult[],
    progress: () => Promise<void>,
  ): Promise<boolean> {
    context.buffered = buffered;
    const rollback = new Error('rollback');
    try {
      await this.transact(context, async () => {
        if (buffered) await this.prefetchParents(context, operations);
        for (const [index, operation] of operations.entries()) {
          context.current = index;
          try {
            results.push(this.succeeded(operation, await this.apply(context, operation)));
            await progress();
          } catch (error) {
            if (error instanceof BufferedWriteRefused) throw error;
            // Rows of earlier operations still being written may be refused: that failure came first.
            await this.settle(context);
            results.push(this.failed(context.project, operation, error));
            throw rollback;
          }
        }
        await this.flush(context);
      });
    } catch (error) {
      if (error instanceof BufferedWriteRefused) return false;
      if (error !== rollback) throw error;
    }
    return true;
  }

  /** One operation, raising its error: the single-entity REST routes. */
  async runOne(
    caller: RequestUser,
    project: ProjectRecord,
    operation: Operation,
    sender: Sender,
  ): Promise<string> {
    this.checkBatch([operation]);
    const context = await this.newBatch(caller, project, sender);
    const { entityId } = await this.transact(context, () => this.apply(context, operation));
    return entityId;
  }

  /** The state one transaction of operations carries. */
  private async newBatch(caller: RequestUser, project: ProjectRecord, sender: Sender): Promise<Batch> {
    return {
      caller,
      project,
      schema: this.schemaName(project.name),
      sender,
      inheritable: await this.attributes.inheritable('folder'),
      events: [],
      changes: [],
      created: new Map(),
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

  /** Other addons clean up what refers to an entity (links, ...) in the transaction that deletes it. */
  onDelete(hook: DeleteHook): void {
    this.deleteHooks.push(hook);
  }

  /** Keep derived data right after a project's attributes change, and carry renamed statuses and types over. */
  async onProjectChange(
    project: ProjectRecord,
    change: { attrib: boolean; renamed: Record<string, Record<string, string>> },
  ) {
    const schema = this.schemaName(project.name);
    for (const [column, renames] of [
      ['status', change.renamed.statuses],
      ['folder_type', change.renamed.folderTypes],
      ['task_type', change.renamed.taskTypes],
    ] as const) {
      const tables =
        column === 'status'
          ? Object.values(SPECS).map((s) => s.table)
          : [column === 'folder_type' ? 'folders' : 'tasks'];
      for (const [from, to] of Object.entries(renames ?? {})) {
        for (const table of tables)
          await sql`UPDATE ${sql.table(`${schema}.${table}`)} SET ${sql.ref(column)} = ${to} WHERE ${sql.ref(column)} = ${from}`.execute(
            this.db,
          );
      }
    }
    // Project attribute values are overlaid when entities are read: nothing stored depends on them.
  }

  /** Refuse a batch that cannot be run as a whole: updates or deletes without an id, one entity changed twice. */
  checkBatch(operations: Operation[]): void {
    const touched = new Set<string>();
    operations.forEach((operation, index) => {
      if (operation.type !== 'create' && !operation.entityId)
        throw new BadRequest(`Operation ${index}: ${operation.type} needs an entityId`, 'missing-entity-id');
      if (operation.type !== 'delete' && !operation.data)
        throw new BadRequest(`Operation ${index}: ${operation.type} needs data`, 'missing-data');
      if (operation.type === 'create') return;
      const key = `${operation.entityType}:${operation.entityId}`;
      if (touched.has(key))
        throw new BadRequest(
          `Operation ${index}: ${operation.entityType} ${operation.entityId} is changed twice in one request`,
          'duplicate-entity',
        );
      touched.add(key);
    });
  }

  private succeeded(operation: Operation, done: { entityId: string; status: number }): OperationResult {
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

  private failed(project: ProjectRecord, operation: Operation, raw: unknown): OperationResult {
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
   * so an answered batch always has its events and a rolled-back one has none. Listeners of the committed rows
   * hear of them right after the commit.
   */
  private async transact<T>(batch: Batch, work: () => Promise<T>): Promise<T> {
    const result = await this.db.transaction().execute(async () => {
      const done = await work();
      if (batch.events.length) await this.bus.emitMany(batch.events);
      return done;
    });
    if (batch.changes.length)
      for (const listener of this.commitListeners) listener(batch.project.name, batch.changes);
    return result;
  }

  private async apply(batch: Batch, operation: Operation): Promise<{ entityId: string; status: number }> {
    const spec = SPECS[operation.entityType];
    // Updates and deletes read and lock rows: everything created before them must be written first.
    if (operation.type !== 'create') await this.flush(batch);
    try {
      if (operation.type === 'create')
        return { entityId: await this.create(batch, spec, operation), status: 201 };
      if (operation.type === 'update') await this.update(batch, spec, operation);
      else await this.remove(batch, spec, operation);
      return { entityId: operation.entityId!, status: 204 };
    } catch (error) {
      throw translate(error, spec.type, batch.project.name);
    }
  }

  /** The folders the caller may write this way, or null when nothing restricts them; asked once per batch. */
  private async scope(batch: Batch, kind: FolderAccessKind): Promise<FolderScope | null> {
    if (!batch.scopes.has(kind))
      batch.scopes.set(kind, await this.access.scope(batch.caller, batch.project.name, kind));
    return batch.scopes.get(kind)!;
  }

  /** Refuse a write outside the caller's whitelist for it; the message names nothing the caller cannot see. */
  private async allow(
    batch: Batch,
    kind: FolderAccessKind,
    folder: () => Promise<{ path: string; id: string | null }>,
  ): Promise<void> {
    const scope = await this.scope(batch, kind);
    if (!scope) return;
    const { path, id } = await folder();
    if (pathInScope(scope, path)) return;
    if (scope.assigned && id) {
      await this.flush(batch); // tasks created earlier in this batch count
      const tasks = sql.table(`${batch.schema}.tasks`);
      const assigned =
        await sql`SELECT 1 FROM ${tasks} WHERE folder_id = ${id} AND ${batch.caller.name} = ANY(assignees) LIMIT 1`.execute(
          this.db,
        );
      if (assigned.rows.length) return;
    }
    throw new Forbidden(`You have no ${kind} access here`);
  }

  /** Refuse changes to attributes and fields the caller's groups do not let them write (thumbnails always). */
  private async allowFields(batch: Batch, data: Json): Promise<void> {
    if (batch.attributes === undefined)
      batch.attributes = await this.access.attributes(batch.caller, batch.project.name);
    const write = batch.attributes?.write;
    if (!write) return;
    // Groups name fields as AYON stores them (parent_id) or as the wire spells them (parentId).
    const listed = (field: string) =>
      write.fields.includes(field) ||
      write.fields.includes(field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
    const refused = [
      ...Object.keys(data).filter((field) => field !== 'attrib' && field !== 'thumbnailId' && !listed(field)),
      ...Object.keys((data.attrib ?? {}) as Json)
        .filter((key) => !write.attributes.includes(key))
        .map((key) => `attrib.${key}`),
    ];
    if (refused.length) throw new Forbidden(`You may not change ${refused.join(', ')}`);
  }

  /** The path and id of the folder an entity lives in (a folder's own). */
  private async folderOf(batch: Batch, type: EntityType, row: Row): Promise<{ path: string; id: string }> {
    switch (type) {
      case 'folder':
        return { path: row.path, id: row.id };
      case 'task':
      case 'product':
        return this.folderOf(batch, 'folder', await this.row(batch, 'folder', row.folder_id));
      case 'version':
        return this.folderOf(batch, 'product', await this.row(batch, 'product', row.product_id));
      case 'representation':
        return this.folderOf(batch, 'version', await this.row(batch, 'version', row.version_id));
      case 'workfile':
        return this.folderOf(batch, 'task', await this.row(batch, 'task', row.task_id));
    }
  }

  private table(batch: Batch, spec: EntityTypeSpec) {
    return sql.table(`${batch.schema}.${spec.table}`);
  }

  private async row(batch: Batch, type: EntityType, id: string, lock = false): Promise<Row> {
    const spec = SPECS[type];
    const known = !lock && batch.created.get(`${type}:${id}`);
    if (known) return known;
    await this.settle(batch);
    const found = (
      await sql<Row>`SELECT * FROM ${this.table(batch, spec)} WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(
        this.db,
      )
    ).rows[0];
    if (!found) throw entityNotFound(type, id, batch.project.name);
    return found;
  }

  /** Schema and attribute checks; problems are reported under data (operations) as AYON does. */
  private async validate(spec: EntityTypeSpec, data: Json, mode: 'create' | 'update'): Promise<void> {
    const problems = check(mode === 'create' ? spec.create : spec.update, data, ['data']);
    if (data.attrib && typeof data.attrib === 'object')
      problems.push(...(await this.attributes.validate(spec.type, data.attrib as Json, ['data', 'attrib'])));
    if (problems.length) throw new ValidationFailed(problems, `Invalid ${spec.type} data`);
  }

  /** A status must be one of the project's; new entities get the first whose scope covers their type. */
  private status(batch: Batch, type: EntityType, wanted: unknown): string {
    const statuses = batch.project.statuses;
    if (wanted !== undefined) {
      if (!statuses.some((s) => s.name === wanted)) {
        throw new ValidationFailed([
          {
            loc: ['data', 'status'],
            msg: `project ${batch.project.name} has no status "${String(wanted)}"`,
            type: 'unknown_status',
          },
        ]);
      }
      return String(wanted);
    }
    const first = statuses.find((s) => !s.scope || s.scope.includes(type)) ?? statuses[0];
    if (!first)
      throw new ValidationFailed([
        {
          loc: ['data', 'status'],
          msg: `project ${batch.project.name} defines no statuses`,
          type: 'unknown_status',
        },
      ]);
    return first.name;
  }

  /** folderType and taskType must be defined by the project; new entities default to the first one. */
  private kind(batch: Batch, spec: EntityTypeSpec, wanted: unknown): string | undefined {
    const field = spec.typeField;
    if (!field?.list) return wanted as string | undefined;
    const list = batch.project[field.list];
    if (wanted === undefined) {
      if (!list[0])
        throw new ValidationFailed([
          {
            loc: ['data', field.field],
            msg: `project ${batch.project.name} defines no ${field.list}`,
            type: 'unknown_type',
          },
        ]);
      return list[0].name;
    }
    if (!list.some((t) => t.name === wanted)) {
      throw new ValidationFailed([
        {
          loc: ['data', field.field],
          msg: `project ${batch.project.name} has no ${field.field} "${String(wanted)}"`,
          type: 'unknown_type',
        },
      ]);
    }
    return String(wanted);
  }

  /** The table columns of the fields given, values as JSON (objects for jsonb, arrays for text[]), added to into. */
  private columns(spec: EntityTypeSpec, data: Json, into: Json = {}): Json {
    const columns = FIELD_COLUMNS[spec.type];
    // The fields sent are few; the fields a type has are many.
    for (const field in data) {
      const column = columns.get(field);
      if (column !== undefined && data[field] !== undefined) into[column] = data[field];
    }
    return into;
  }

  private async create(batch: Batch, spec: EntityTypeSpec, operation: Operation): Promise<string> {
    const data = camelizeKeys(operation.data ?? {});
    await this.validate(spec, data, 'create');
    const id = (data.id as string | undefined) ?? operation.entityId ?? newId();
    data.status = this.status(batch, spec.type, data.status);
    if (spec.typeField) data[spec.typeField.field] = this.kind(batch, spec, data[spec.typeField.field]);
    const values = this.columns(spec, data, {
      id,
      created_by: batch.caller.name,
      updated_by: batch.caller.name,
    });
    let parentId: string | null = null;

    if (spec.type === 'folder') {
      parentId = (data.parentId as string | null | undefined) ?? null;
      const parent = parentId ? await this.row(batch, 'folder', parentId) : null;
      values.path = parent ? `${parent.path}/${data.name}` : String(data.name);
      await this.allow(batch, 'create', async () => ({ path: values.path as string, id: parentId }));
      const inherited = parent ? { ...parent.inherited, ...pick(parent.attrib, batch.inheritable) } : {};
      values.inherited = inherited;
    } else {
      parentId = data[spec.parent!.field] as string;
      // Buffered rows are written table by table, so the database would take a parent this batch creates only in
      // a later operation; operations apply in order, and then the parent does not exist yet.
      if ((batch.createdBy?.get(parentId) ?? -1) > batch.current)
        throw entityNotFound(spec.parent!.type, parentId, batch.project.name);
      const kind = CREATE_KIND[spec.type];
      // A caller free to write anywhere needs nothing of the parent: its foreign key refuses a missing one (404).
      if (await this.scope(batch, kind)) {
        const parent = await this.row(batch, spec.parent!.type, parentId);
        await this.allow(batch, kind, () => this.folderOf(batch, spec.parent!.type, parent));
      }
      if (spec.type === 'version') {
        if (data.taskId) await this.row(batch, 'task', data.taskId as string);
        if (data.author === undefined) values.author = batch.caller.name;
        else if (data.author !== batch.caller.name && !batch.caller.isAdmin && !batch.caller.isService) {
          throw new Forbidden('Only administrators may publish a version on behalf of another author');
        }
      }
    }
    await this.insert(batch, spec.table, values);
    // What children created later in this batch need of their parent (tasks only need it to exist).
    batch.created.set(`${spec.type}:${id}`, {
      id,
      name: data.name,
      path: values.path,
      inherited: values.inherited ?? {},
      attrib: data.attrib ?? {},
      ...(spec.type !== 'folder' ? { [spec.columns[spec.parent!.field]]: parentId } : {}),
    });
    batch.changes.push({ type: spec.type, before: null, after: values });
    batch.events.push(this.event(batch, spec.type, 'created', values, { entityId: id, parentId }));
    return id;
  }

  private async update(batch: Batch, spec: EntityTypeSpec, operation: Operation): Promise<void> {
    const id = operation.entityId!;
    // A rename or move changes the paths of cached descendants too: forget them all.
    batch.created.clear();
    const current = await this.row(batch, spec.type, id, true);
    await this.allow(batch, WRITE_KIND[spec.type], () => this.folderOf(batch, spec.type, current));
    const data = camelizeKeys(operation.data ?? {});
    await this.validate(spec, data, 'update');
    await this.allowFields(batch, data);
    if (data.status !== undefined) data.status = this.status(batch, spec.type, data.status);
    if (spec.typeField && data[spec.typeField.field] !== undefined)
      data[spec.typeField.field] = this.kind(batch, spec, data[spec.typeField.field]);
    if (data.attrib !== undefined) data.attrib = mergePatch(current.attrib, data.attrib as Json);
    if (data.data !== undefined) data.data = mergePatch(current.data, data.data as Json);
    if (
      spec.type === 'version' &&
      data.author !== undefined &&
      data.author !== current.author &&
      !batch.caller.isAdmin &&
      !batch.caller.isService
    ) {
      throw new Forbidden('Only administrators may change the author of a version');
    }
    const changed = Object.keys(data).filter((field) => {
      const column = field in spec.columns ? spec.columns[field] : field;
      return JSON.stringify(normalise(current[column])) !== JSON.stringify(normalise(data[field]));
    });
    if (changed.length === 0) return;

    let newPath: string | null = null;
    if (spec.type === 'folder' && changed.some((f) => ['name', 'folderType', 'parentId'].includes(f))) {
      if (!operation.force && (await this.folderHasVersions(batch, current.path))) {
        throw new Conflict(
          `Folder ${current.name} holds published versions: it cannot be renamed, retyped or moved (unless forced)`,
          'folder-locked',
        );
      }
      if (operation.force && !isManagerOrAbove(batch.caller))
        throw new Forbidden('Only managers may force changes to a folder with versions');
      if (changed.includes('name') || changed.includes('parentId')) {
        const parentId = data.parentId !== undefined ? (data.parentId as string | null) : current.parent_id;
        const parent = parentId ? await this.row(batch, 'folder', parentId) : null;
        if (parent && (parent.id === id || parent.path.startsWith(`${current.path}/`))) {
          throw new BadRequest(
            `Folder ${current.name} cannot move into itself or one of its subfolders`,
            'folder-cycle',
          );
        }
        const name = (data.name as string | undefined) ?? current.name;
        newPath = parent ? `${parent.path}/${name}` : name;
        await this.allow(batch, 'update', async () => ({ path: newPath!, id: parent?.id ?? null }));
      }
    }
    if (spec.type === 'version' && data.taskId) await this.row(batch, 'task', data.taskId as string);
    if (spec.parent && spec.type !== 'folder' && data[spec.parent.field] !== undefined)
      await this.row(batch, spec.parent.type, data[spec.parent.field] as string);

    const values = this.columns(spec, Object.fromEntries(changed.map((f) => [f, data[f]])));
    // The driver would send arrays as PostgreSQL arrays: jsonb values go as JSON text.
    for (const column of Object.keys(values))
      if (JSON_COLUMNS.has(column) && values[column] !== null)
        values[column] = JSON.stringify(values[column]);
    await this.db
      .withSchema(batch.schema)
      .updateTable(spec.table)
      .set({ ...values, updated_by: batch.caller.name, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
    if (newPath !== null) {
      const folders = this.table(batch, spec);
      await sql`UPDATE ${folders} f SET path = ${newPath} || substr(f.path, ${current.path.length + 1}) WHERE ${subtree('f', current.path)}`.execute(
        this.db,
      );
    }
    if (spec.type === 'folder' && (changed.includes('attrib') || changed.includes('parentId'))) {
      await refreshInherited(this.db, batch.schema, batch.inheritable, id);
    }
    const parentField = spec.parent?.field;
    const parentId = parentField
      ? ((data[parentField] as string | undefined) ?? current[spec.columns[parentField]])
      : null;
    const after = { ...current, ...values };
    batch.changes.push({ type: spec.type, before: current, after });
    const topics = new Set(changed.map((field) => CHANGE_TOPICS[field]).filter(Boolean));
    for (const topic of topics) {
      const fields = changed.filter((f) => CHANGE_TOPICS[f] === topic);
      const single = fields.length === 1 ? fields[0]! : null;
      const event = this.event(batch, spec.type, topic, after, {
        entityId: id,
        parentId,
        value: single ? data[single] : undefined,
      });
      // The stored payload keeps what it was, as AYON's does: the activity feed says "from ... to ...".
      if (single) {
        const column = single in spec.columns ? spec.columns[single] : single;
        event.payload = { oldValue: normalise(current[column]), newValue: data[single] };
      }
      batch.events.push(event);
    }
  }

  private async remove(batch: Batch, spec: EntityTypeSpec, operation: Operation): Promise<void> {
    const id = operation.entityId!;
    // A rename or move changes the paths of cached descendants too: forget them all.
    batch.created.clear();
    const current = await this.row(batch, spec.type, id, true);
    await this.allow(batch, 'delete', () => this.folderOf(batch, spec.type, current));
    // Before anything is removed, so the hooks see everything the delete takes along; a refusal below rolls back.
    if (this.deleteHooks.length) {
      const removed = await this.cascade(batch, spec.type, id);
      for (const hook of this.deleteHooks) await hook(batch.project.name, removed);
    }
    if (spec.type === 'folder') {
      const folders = sql.table(`${batch.schema}.folders`);
      const products = sql.table(`${batch.schema}.products`);
      const held = await sql<{ n: number }>`
        SELECT count(*) AS n FROM ${products} p JOIN ${folders} f ON f.id = p.folder_id WHERE ${subtree('f', current.path)}`.execute(
        this.db,
      );
      if (held.rows[0].n > 0) {
        if (!operation.force) {
          throw new Conflict(
            `Folder ${current.name} holds ${held.rows[0].n} product(s) below it; delete with force to remove them too`,
            'delete-folder-with-products',
          );
        }
        if (!isManagerOrAbove(batch.caller))
          throw new Forbidden('Only managers may force-delete a folder with products');
        await sql`DELETE FROM ${products} p USING ${folders} f WHERE f.id = p.folder_id AND ${subtree('f', current.path)}`.execute(
          this.db,
        );
      }
    }
    await sql`DELETE FROM ${this.table(batch, spec)} WHERE id = ${id}`.execute(this.db);
    batch.changes.push({ type: spec.type, before: current, after: null });
    const parentField = spec.parent?.field;
    batch.events.push(
      this.event(batch, spec.type, 'deleted', current, {
        entityId: id,
        parentId: parentField ? current[spec.columns[parentField]] : null,
      }),
    );
  }

  /**
   * Read every parent the batch's creates name (and that the batch does not create itself) with one query per type,
   * instead of one query per operation: a batch of a thousand tasks then costs one SELECT of their folders.
   */
  private async prefetchParents(batch: Batch, operations: Operation[]): Promise<void> {
    const creating = new Map<string, number>();
    for (const [index, o] of operations.entries()) {
      const id = o.type === 'create' ? (o.entityId ?? o.data?.id) : undefined;
      if (typeof id === 'string') creating.set(id, index);
    }
    batch.createdBy = creating;
    // Only new folders, and entities the caller may create in some folders only, read their parents (see create).
    const readsParent = new Map<EntityType, boolean>([['folder', true]]);
    for (const operation of operations) {
      const type = operation.entityType;
      if (operation.type === 'create' && !readsParent.has(type))
        readsParent.set(type, (await this.scope(batch, CREATE_KIND[type])) !== null);
    }
    const wanted = new Map<EntityType, Set<string>>();
    for (const operation of operations) {
      if (operation.type !== 'create' || !operation.data) continue;
      const spec = SPECS[operation.entityType];
      const parent = readsParent.get(spec.type) ? spec.parent : undefined;
      if (!parent && spec.type !== 'version') continue;
      const data = camelizeKeys(operation.data);
      const references: [EntityType, unknown][] = parent ? [[parent.type, data[parent.field]]] : [];
      if (spec.type === 'version') references.push(['task', data.taskId]);
      for (const [type, id] of references) {
        if (typeof id !== 'string' || !isId(id) || creating.has(id)) continue;
        if (!wanted.has(type)) wanted.set(type, new Set());
        wanted.get(type)!.add(id);
      }
    }
    for (const [type, ids] of wanted) {
      // What creates read of a parent: a folder's path and what it passes down, else the link to its own parent.
      const spec = SPECS[type];
      const columns =
        type === 'folder'
          ? ['id', 'name', 'path', 'inherited', 'attrib', 'parent_id']
          : ['id', spec.columns[spec.parent!.field]];
      const rows =
        await sql<Row>`SELECT ${sql.join(columns.map((c) => sql.ref(c)))} FROM ${sql.table(`${batch.schema}.${spec.table}`)} WHERE id = ANY(${[...ids]}::uuid[])`.execute(
          this.db,
        );
      for (const row of rows.rows) batch.created.set(`${type}:${row.id}`, row);
    }
  }

  /** Write a new row now, or add it to the batch's buffer for one multi-row INSERT. */
  private async insert(batch: Batch, table: string, values: Json): Promise<void> {
    if (!batch.buffered) {
      await this.insertRows(batch, table, [values]);
      return;
    }
    batch.pending ??= { tables: new Map(), size: 0 };
    let rows = batch.pending.tables.get(table);
    if (!rows) batch.pending.tables.set(table, (rows = []));
    rows.push(values);
    if (++batch.pending.size >= FLUSH_ROWS) await this.flush(batch, false);
  }

  private insertRows(batch: Batch, table: string, rows: Json[]) {
    return insertJsonRows(this.db, `${batch.schema}.${table}`, rows, { defaults: ROW_DEFAULTS });
  }

  /**
   * Write the buffered rows with one INSERT per table. Without wait, the batch goes on preparing rows while the
   * database writes these (at most one write in flight: settle() before anything else reads or writes in the
   * transaction).
   */
  private async flush(batch: Batch, wait = true): Promise<void> {
    await this.settle(batch);
    const pending = batch.pending;
    if (!pending) return;
    batch.pending = null;
    const written = this.write(batch, pending);
    if (wait) return written;
    batch.writing = written;
    written.catch(() => undefined); // reported when settled
  }

  /** Wait for the rows in flight; a refusal surfaces here. */
  private async settle(batch: Batch): Promise<void> {
    const writing = batch.writing;
    batch.writing = null;
    await writing;
  }

  /** A multi-row INSERT per table, in the order their rows refer to each other. */
  private async write(batch: Batch, pending: PendingRows) {
    try {
      for (const table of TABLE_ORDER) {
        const rows = pending.tables.get(table);
        if (rows) await this.insertRows(batch, table, rows);
      }
    } catch {
      throw new BufferedWriteRefused();
    }
  }

  /** The entity and everything its delete takes with it, found before the rows are gone. */
  private async cascade(
    batch: Batch,
    type: EntityType,
    id: string,
  ): Promise<{ type: EntityType; id: string }[]> {
    const t = (name: string) => sql.table(`${batch.schema}.${name}`);
    let folders: string[] = [];
    let tasks: string[] = [];
    let products: string[] = [];
    let versions: string[] = [];
    const ids = async (query: ReturnType<typeof sql>) =>
      ((await query.execute(this.db)).rows as { id: string }[]).map((row) => row.id);
    if (type === 'folder') {
      const top = await this.row(batch, 'folder', id);
      folders = await ids(sql`SELECT f.id FROM ${t('folders')} f WHERE ${subtree('f', top.path)}`);
      tasks = await ids(sql`SELECT id FROM ${t('tasks')} WHERE folder_id = ANY(${folders}::uuid[])`);
      products = await ids(sql`SELECT id FROM ${t('products')} WHERE folder_id = ANY(${folders}::uuid[])`);
    }
    if (type === 'task') tasks = [id];
    if (type === 'product') products = [id];
    if (products.length)
      versions = await ids(sql`SELECT id FROM ${t('versions')} WHERE product_id = ANY(${products}::uuid[])`);
    if (type === 'version') versions = [id];
    const representations = versions.length
      ? await ids(sql`SELECT id FROM ${t('representations')} WHERE version_id = ANY(${versions}::uuid[])`)
      : type === 'representation'
        ? [id]
        : [];
    const workfiles = tasks.length
      ? await ids(sql`SELECT id FROM ${t('workfiles')} WHERE task_id = ANY(${tasks}::uuid[])`)
      : type === 'workfile'
        ? [id]
        : [];
    const tag = (kind: EntityType, list: string[]) => list.map((entityId) => ({ type: kind, id: entityId }));
    return [
      ...tag('folder', folders),
      ...tag('task', tasks),
      ...tag('product', products),
      ...tag('version', versions),
      ...tag('representation', representations),
      ...tag('workfile', workfiles),
    ];
  }

  private async folderHasVersions(batch: Batch, path: string): Promise<boolean> {
    const t = (name: string) => sql.table(`${batch.schema}.${name}`);
    const found = await sql`
      SELECT 1 FROM ${t('versions')} v JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} f ON f.id = p.folder_id
      WHERE ${subtree('f', path)} LIMIT 1`.execute(this.db);
    return found.rows.length > 0;
  }

  /** An event about the entity whose row (its columns as stored, or as written now) is given. */
  private event(batch: Batch, type: EntityType, action: string, row: Json, summary: Json): EventInput {
    for (const key in summary) if (summary[key] === undefined) delete summary[key];
    return {
      topic: `entity.${type}.${action}`,
      project: batch.project.name,
      user: batch.caller.name,
      sender: batch.sender.sender,
      senderType: batch.sender.senderType,
      summary,
      description: `${TYPE_LABELS[type]} ${entityName(type, row)} ${action.replace('_', ' ')}`,
    };
  }
}

/** What people call an entity: its name; v003 (or HERO) for a version; the file name for a workfile. */
function entityName(type: EntityType, row: Json): string {
  if (type === 'version') {
    const version = Number(row.version);
    return version < 0 ? 'HERO' : `v${String(version).padStart(3, '0')}`;
  }
  if (type === 'workfile') return String(row.path ?? '').replace(/^.*[\\/]/, '');
  return String(row.name);
}

function pick(values: Json, keys: string[]): Json {
  const picked: Json = {};
  for (const key in values) if (keys.includes(key)) picked[key] = values[key];
  return picked;
}

/** Compare stored and sent values alike (dates, nulls and undefined as null). */
function normalise(value: unknown): unknown {
  return value === undefined ? null : value;
}
