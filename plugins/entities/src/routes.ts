import { sql, type RawBuilder } from 'kysely';
import {
  CreatedResponse,
  Id,
  NoContent,
  PipewrightError,
  requireUser,
  Type,
  type AddonApp,
  type AttributeLibrary,
  type Database,
  type ProjectDirectory,
  type ProjectRecord,
  type FolderScope,
  type EntityPage,
  type EntityQuery,
  type RequestUser,
  type Static,
  Utf8Writer,
} from '@pipewright/sdk';
import { hideAttributes, scopeCondition } from './access.js';
import { projectBase } from './inheritance.js';
import { SPECS, entityNotFound, type EntityType } from './entity-types.js';
import type { BackgroundOperations } from './write/background.js';
import type { HierarchyCache } from './read/hierarchy-cache.js';
import { FIELD, FolderTree, RECORD, TASK, taskMembers, type TreeFilter } from './read/hierarchy.js';
import type { EntityProcessor } from './write/processor.js';
import { checkBatch, readOperation } from './write/input.js';
import { queryEntities } from './read/query.js';
import { loadEntity } from './read/select.js';
import {
  AssignRequest,
  BackgroundStarted,
  BackgroundStatus,
  EntityResponse,
  FolderList,
  FolderListQuery,
  ForceQuery,
  HierarchyQuery,
  OperationsRequest,
  OperationsResponse,
  ProjectParams,
} from './routes/schemas.js';

/** What reads need to compute inherited attributes: the keys that inherit, and the project's values for them. */
export async function inheritance(
  attributes: AttributeLibrary,
  project: ProjectRecord,
): Promise<[string[], Record<string, unknown>]> {
  const keys = await attributes.inheritable('folder');
  return [keys, projectBase(project.attrib, keys)];
}

/** A page of entities as query.caller may read them: rows and attributes outside their access are left out. */
export async function readEntities(
  { db, attributes, processor, schemaName }: Pick<Deps, 'db' | 'attributes' | 'processor' | 'schemaName'>,
  project: ProjectRecord,
  type: EntityType,
  query: EntityQuery,
): Promise<EntityPage> {
  const access = await processor.access.read(query.caller, project.name);
  return queryEntities(
    db,
    schemaName(project.name),
    type,
    query,
    ...(await inheritance(attributes, project)),
    access,
  );
}

export interface Deps {
  db: Database;
  projects: ProjectDirectory;
  attributes: AttributeLibrary;
  processor: EntityProcessor;
  background: BackgroundOperations;
  hierarchyCache: HierarchyCache;
  schemaName: (project: string) => string;
}

/** POST, GET, PATCH and DELETE for each of the six entity types, all writes through the processor. */
export function entityRoutes({ db, projects, attributes, processor, background, schemaName }: Deps) {
  return async (app: AddonApp) => {
    for (const spec of Object.values(SPECS)) {
      const idParam = `${spec.type}_id`;
      const ItemParams = Type.Object({ project_name: ProjectParams.properties.project_name, [idParam]: Id });
      const label = spec.type;
      // Bodies are read once: the server's body validator accepts AYON's snake_case names (parent_id, ...) and
      // checks them against the type's schema, so the fields reach the processor as `checked`.

      app.post(
        `/api/projects/:project_name/${spec.plural}`,
        {
          schema: {
            summary: `Create a ${label}`,
            params: ProjectParams,
            body: spec.create,
            response: { 201: CreatedResponse },
          },
        },
        async (request, reply) => {
          const caller = requireUser(request);
          const project = await projects.require(caller, request.params.project_name);
          const id = await processor.runOne(
            caller,
            project,
            {
              type: 'create',
              entityType: spec.type,
              data: { checked: request.body as Record<string, unknown> },
            },
            request.sender,
          );
          return reply.code(201).send({ id });
        },
      );

      app.get(
        `/api/projects/:project_name/${spec.plural}/:${idParam}`,
        { schema: { summary: `One ${label}`, params: ItemParams, response: { 200: EntityResponse } } },
        async (request) => {
          const params = request.params as Record<string, string>;
          const caller = requireUser(request);
          const project = await projects.require(caller, params.project_name);
          // What the caller may not read answers exactly as what does not exist.
          const query = { ids: [params[idParam]], limit: 1, caller };
          const page = await readEntities(
            { db, attributes, processor, schemaName },
            project,
            spec.type,
            query,
          );
          if (!page.items.length) throw entityNotFound(spec.type, params[idParam], project.name);
          return page.items[0].entity as { id: string };
        },
      );

      app.patch(
        `/api/projects/:project_name/${spec.plural}/:${idParam}`,
        {
          schema: {
            summary: `Change a ${label}: attrib and data merge, null removes a key`,
            params: ItemParams,
            querystring: ForceQuery,
            body: spec.update,
            response: { 204: NoContent },
          },
        },
        async (request, reply) => {
          const params = request.params as Record<string, string>;
          const caller = requireUser(request);
          const project = await projects.require(caller, params.project_name);
          const data = request.body as Record<string, unknown>;
          await processor.runOne(
            caller,
            project,
            {
              type: 'update',
              entityType: spec.type,
              entityId: params[idParam],
              data: { checked: data },
              force: request.query.force,
            },
            request.sender,
          );
          return reply.code(204).send(null);
        },
      );

      app.delete(
        `/api/projects/:project_name/${spec.plural}/:${idParam}`,
        {
          schema: {
            summary: `Delete a ${label}`,
            params: ItemParams,
            querystring: ForceQuery,
            response: { 204: NoContent },
          },
        },
        async (request, reply) => {
          const params = request.params as Record<string, string>;
          const caller = requireUser(request);
          const project = await projects.require(caller, params.project_name);
          await processor.runOne(
            caller,
            project,
            { type: 'delete', entityType: spec.type, entityId: params[idParam], force: request.query.force },
            request.sender,
          );
          return reply.code(204).send(null);
        },
      );
    }

    app.post(
      '/api/projects/:project_name/operations',
      {
        schema: {
          summary:
            'Create, update and delete entities in one request; answered 200 with a result per operation',
          params: ProjectParams,
          body: OperationsRequest,
          response: { 200: OperationsResponse },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const project = await projects.require(caller, request.params.project_name);
        const result = await processor.run(caller, project, request.body.operations, {
          canFail: request.body.canFail,
          sender: request.sender,
          waitForEvents: request.body.waitForEvents,
        });
        // raiseOnError: the first failure is the answer itself instead of a 200 listing it.
        const failure = request.body.raiseOnError && result.operations.find((op) => !op.success);
        if (failure)
          throw new PipewrightError(
            failure.status,
            failure.detail ?? 'Operation failed',
            failure.errorCode ?? 'error',
          );
        // Written as JSON bytes already (OperationsResponse's shape): Fastify sends a Buffer as it is.
        const body: unknown = operationsAnswer(result);
        return reply.type('application/json; charset=utf-8').send(body as Static<typeof OperationsResponse>);
      },
    );

    app.post(
      '/api/projects/:project_name/operations/background',
      {
        schema: {
          summary: 'Run operations after answering; poll the returned id',
          params: ProjectParams,
          body: OperationsRequest,
          response: { 200: BackgroundStarted },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const project = await projects.require(caller, request.params.project_name);
        // Refuse malformed batches now, not minutes later in a poll.
        checkBatch(request.body.operations);
        return {
          id: await background.start(caller, project, request.body.operations, {
            canFail: request.body.canFail,
            sender: request.sender,
          }),
        };
      },
    );

    app.get(
      '/api/projects/:project_name/operations/background/:task_id',
      {
        schema: {
          summary:
            'Status of background operations: pending, in_progress (with progress), completed (with the result)',
          params: Type.Object({ project_name: ProjectParams.properties.project_name, task_id: Id }),
          response: { 200: BackgroundStatus },
        },
      },
      async (request) => {
        const project = await projects.require(requireUser(request), request.params.project_name);
        return background.status(project, request.params.task_id) as any;
      },
    );

    app.post(
      '/api/projects/:project_name/tasks/:task_id/assign',
      {
        schema: {
          summary: 'Add, remove or set the users assigned to a task',
          params: Type.Object({ project_name: ProjectParams.properties.project_name, task_id: Id }),
          body: AssignRequest,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const project = await projects.require(caller, request.params.project_name);
        const task = await loadEntity(db, schemaName(project.name), 'task', request.params.task_id, []);
        if (!task) throw entityNotFound('task', request.params.task_id, project.name);
        const { users, mode } = request.body;
        const current: string[] = task.assignees;
        const assignees =
          mode === 'set'
            ? users
            : mode === 'add'
              ? [...new Set([...current, ...users])]
              : current.filter((u) => !users.includes(u));
        await processor.runOne(
          caller,
          project,
          readOperation({ type: 'update', entityType: 'task', entityId: task.id, data: { assignees } }),
          request.sender,
        );
        return reply.code(204).send(null);
      },
    );
  };
}

// Ids as 32 hex digits, as the API spells them (and cheaper than uuid's own text form).
const hex = (column: string) => sql`encode(uuid_send(${sql.ref(column)}), 'hex')`;

// Tree order: each folder followed by its subtree, siblings by name byte by byte (the same order on every server,
// whatever its locale, and far cheaper to sort than a linguistic collation). That is the order of the paths with
// their slashes read as the lowest character: "a/b" before "a-b", which plain path order puts first.
const treeOrder = sql`replace(f.path, '/', chr(1)) COLLATE "C"`;

/** The flat folder list and the folder hierarchy: read in one query each, for project trees of any size. */
export function folderTreeRoutes({
  db,
  projects,
  attributes,
  processor,
  hierarchyCache: cache,
  schemaName,
}: Deps) {
  /**
   * The active folders the caller may read (with their ancestors, so the tree stays whole) as one text value: a
   * record per folder, in tree order (treeOrder), of the given fields and then the folder's task names (TASK
   * between them, unsorted); FIELD and RECORD separate the rest. One value instead of a row per folder is what
   * keeps large trees fast: rows, not SQL, are the cost (on PGlite above all), and building each folder's JSON in
   * SQL costs more than building it here.
   */
  async function folderRecords(
    caller: RequestUser,
    project: ProjectRecord,
    readScope: FolderScope | null,
    fields: RawBuilder<unknown>[],
  ): Promise<string> {
    const schema = schemaName(project.name);
    const t = (name: string) => sql.table(`${schema}.${name}`);
    // Users whose groups hide sibling tasks see only their own task names.
    const ownTasks = readScope?.ownTasksOnly ? sql`WHERE ${caller.name} = ANY(assignees)` : sql``;
    const readable = readScope
      ? scopeCondition(schema, readScope, caller.name, { path: sql.ref('f.path'), id: sql.ref('f.id') }, true)
      : sql`true`;
    // Tasks arrive ordered by folder so that they group without a hash table (which spills to disk at this size).
    const { rows } = await sql<{ records: string | null }>`
      SELECT string_agg(concat_ws(chr(31), ${sql.join(fields)}, coalesce(k.names, '')), chr(30) ORDER BY ${treeOrder})
        AS records
      FROM ${t('folders')} f LEFT JOIN (
        SELECT folder_id, string_agg(name, chr(29)) AS names
        FROM (SELECT folder_id, name FROM ${t('tasks')} ${ownTasks} ORDER BY folder_id) sorted
        GROUP BY folder_id
      ) k ON k.folder_id = f.id
      WHERE f.active AND ${readable}`.execute(db);
    return rows[0]?.records ?? '';
  }

  return async (app: AddonApp) => {
    app.get(
      '/api/projects/:project_name/folders',
      {
        schema: {
          summary: 'Every active folder of the project, flat, with paths and task names',
          params: ProjectParams,
          querystring: FolderListQuery,
          response: { 200: FolderList },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const project = await projects.require(caller, request.params.project_name);
        const [, base] = await inheritance(attributes, project);
        const access = await processor.access.read(caller, project.name);
        const withAttrib = request.query.attrib;
        const records = await folderRecords(caller, project, access.scope, [
          hex('f.id'),
          sql`coalesce(${hex('f.parent_id')}, '')`,
          sql`f.path`,
          sql`coalesce(to_json(f.label)::text, 'null')`,
          sql`f.folder_type`,
          sql`f.status`,
          sql`to_json(f.tags)::text`,
          sql`to_char(f.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
          ...(withAttrib
            ? [
                sql`(${JSON.stringify(base)}::jsonb || f.inherited || f.attrib)::text`,
                sql`to_json(ARRAY(SELECT jsonb_object_keys(f.attrib)))::text`,
              ]
            : []),
        ]);
        // Written as JSON bytes already (FolderList's shape): Fastify sends a Buffer as it is.
        const body: unknown = folderListBody(records, withAttrib, access.attributes);
        return reply.type('application/json; charset=utf-8').send(body as Static<typeof FolderList>);
      },
    );

    app.get(
      '/api/projects/:project_name/hierarchy',
      {
        schema: {
          summary: 'The folder tree; search and types keep matching folders and their ancestors',
          params: ProjectParams,
          querystring: HierarchyQuery,
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const project = await projects.require(caller, request.params.project_name);
        const readScope = await processor.access.scope(caller, project.name, 'read');
        const types = request.query.types
          ?.split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        const search = request.query.search?.toLowerCase() || undefined;
        const filter: TreeFilter | undefined = types?.length || search ? { types, search } : undefined;
        const read = async () =>
          FolderTree.fromRecords(
            await folderRecords(caller, project, readScope, [
              hex('f.id'),
              sql`f.path`,
              sql`coalesce(to_json(f.label)::text, 'null')`,
              sql`f.status`,
              sql`f.folder_type`,
            ]),
          );
        // The tree as everyone who sees all of it gets it is kept, and so is its whole answer, as bytes (encoded
        // once, not again for every request: sending one of 100,000 folders gets about three times faster).
        const tree = readScope ? await read() : await cache.get(project.name, read);
        const body = filter || readScope ? tree.write(project.name, filter) : tree.answer(project.name);
        return reply.type('application/json; charset=utf-8').send(body);
      },
    );
  };
}

/** Remembers the JSON written for each key: statuses, folder types and sets of task names repeat across thousands. */
function jsonOnce(): (key: string, write: (key: string) => string) => string {
  const written = new Map<string, string>();
  return (key, write) => {
    let text = written.get(key);
    if (text === undefined) written.set(key, (text = write(key)));
    return text;
  };
}

/** hasTasks and taskNames from folderRecords' names: sorted byte by byte (names are ASCII). */
const taskFields = (names: string): string => taskMembers(names ? names.split(TASK).sort() : []);

/** The flat list answer from folderRecords; attributes narrowed to the caller's read list when there is one. */
function folderListBody(records: string, withAttrib: boolean, visible: string[] | null): Buffer {
  const list = records ? records.split(RECORD).map((record) => record.split(FIELD)) : [];
  // Whether a folder has children: whether any listed folder names it as parent.
  const parents = new Set(list.map((fields) => fields[1]));
  const json = jsonOnce();
  const out = new Utf8Writer(records.length * 2);
  out.write(`{"detail":"${list.length} folders","folders":[`);
  list.forEach((fields, index) => {
    const tasks = json(fields.pop()!, taskFields);
    const [id, parentId, path, labelJson, folderType, status, tagsJson, updatedAt, attribJson, ownJson] =
      fields;
    const names = path.split('/');
    let attrib = '';
    if (withAttrib) {
      const shown = visible
        ? hideAttributes({ attrib: JSON.parse(attribJson), ownAttrib: JSON.parse(ownJson) }, visible)
        : null;
      attrib = shown
        ? `,"attrib":${JSON.stringify(shown.attrib)},"ownAttrib":${JSON.stringify(shown.ownAttrib)}`
        : `,"attrib":${attribJson},"ownAttrib":${ownJson}`;
    }
    out.write(
      `${index ? ',' : ''}{"id":"${id}","path":${JSON.stringify(`/${path}`)},"parentId":${parentId ? `"${parentId}"` : 'null'},` +
        `"parents":${JSON.stringify(names.slice(0, -1))},"name":${JSON.stringify(names[names.length - 1])},` +
        `"label":${labelJson},"folderType":${JSON.stringify(folderType)},"hasChildren":${parents.has(id)},${tasks},` +
        `"status":${JSON.stringify(status)},` +
        `"tags":${tagsJson},"updatedAt":"${updatedAt}"${attrib}}`,
    );
  });
  out.write(']}');
  return out.result();
}

/**
 * The answer to a batch of operations as JSON bytes. The processor builds every result with exactly the schema's
 * fields; V8's JSON.stringify, a hundred results at a time, writes a thousand of them several times faster, and
 * with far less garbage, than a compiled serializer.
 */
function operationsAnswer(answer: Static<typeof OperationsResponse>): Buffer {
  const out = new Utf8Writer(answer.operations.length * 160);
  out.write('{"operations":');
  out.writeJsonArray(answer.operations);
  out.write(`,"success":${answer.success}}`);
  return out.result();
}
