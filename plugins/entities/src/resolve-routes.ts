import { sql, type RawBuilder } from 'kysely';
import {
  compileFilter,
  Forbidden,
  Id,
  NotFound,
  requireUser,
  Type,
  ValidationFailed,
  QueryFilterSchema,
  type AddonApp,
  type Database,
  type DatabaseTransaction,
  type FieldMap,
  type ProjectRecord,
  type RequestUser,
} from '@pipewright/sdk';
import { camelizeKeys, ENTITY_TYPES, type EntityType } from './entity-types.js';
import { formatTemplate, normalisePath } from './read/file-template.js';
import { inheritance, type Deps } from './routes.js';
import { ProjectParams } from './routes/schemas.js';
import { queryEntities } from './read/query.js';
import { present, selectEntities } from './read/select.js';
import { scopeCondition } from './access.js';
import { formatUri, parseUri, UriError, type ParsedUri, type VersionSelector } from './read/uris.js';

type Row = Record<string, any>;
type Platform = 'windows' | 'linux' | 'darwin';

// AYON answers at most this many entities for one URI, however wide its wildcards.
const MAX_ENTITIES_PER_URI = 1000;
// repreContextFilter is a lookup, not a listing: a generous cap keeps one request from reading a whole project.
const MAX_CONTEXT_MATCHES = 1000;

const NullableId = Type.Union([Id, Type.Null()]);

// ---------------------------------------------------------------------------------------------------------------
// Schemas

const ResolveRequest = Type.Object(
  {
    uris: Type.Array(Type.String({ maxLength: 4096 }), {
      maxItems: 10000,
      description: 'ayon+entity:// or ayon:// URIs',
    }),
    resolveRoots: Type.Boolean({
      default: false,
      description: 'Fill {root[...]} in file paths with the roots of the calling site',
    }),
  },
  { additionalProperties: false },
);
const ResolveQuery = Type.Object(
  { pathOnly: Type.Boolean({ default: false, description: 'Answer only the file path of each entity' }) },
  { additionalProperties: false },
);

const ResolvedEntity = Type.Object({
  projectName: Type.Optional(Type.String()),
  folderId: Type.Optional(NullableId),
  productId: Type.Optional(NullableId),
  versionId: Type.Optional(NullableId),
  representationId: Type.Optional(NullableId),
  taskId: Type.Optional(NullableId),
  workfileId: Type.Optional(NullableId),
  filePath: Type.Union([Type.String(), Type.Null()]),
  target: Type.Optional(Type.Union([...ENTITY_TYPES.map((t) => Type.Literal(t)), Type.Null()])),
});
const ResolvedUri = Type.Object({
  uri: Type.String(),
  entities: Type.Array(ResolvedEntity),
  error: Type.Union([Type.String(), Type.Null()]),
});

const UrisRequest = Type.Object(
  {
    entityType: Type.Union(ENTITY_TYPES.map((t) => Type.Literal(t))),
    ids: Type.Array(Id, { maxItems: 10000, default: [] }),
  },
  { additionalProperties: false },
);
const UrisResponse = Type.Object({ uris: Type.Array(Type.Object({ id: Id, uri: Type.String() })) });

const TasksFoldersQuery = Type.Object(
  {
    filter: Type.Optional(Type.Union([QueryFilterSchema, Type.Null()])),
    search: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  },
  { additionalProperties: false },
);
const TasksFoldersAnswer = Type.Object({ folderIds: Type.Array(Id) });

const ContextValues = Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 1000 });
const RepreContextRequest = Type.Object(
  {
    names: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 10000 })),
    versionIds: Type.Optional(Type.Array(Id, { maxItems: 10000 })),
    context: Type.Optional(
      Type.Union(
        [
          Type.Record(Type.String(), ContextValues, {
            description: 'Key (a.b for nested) to accepted values, compared exactly',
          }),
          Type.Array(
            Type.Object({ key: Type.String(), values: ContextValues }, { additionalProperties: false }),
            {
              maxItems: 100,
              description: 'AYON clients send [{key, values}]: the values are regular expressions',
            },
          ),
        ],
        { description: 'Conditions on data.context; every key must match' },
      ),
    ),
  },
  { additionalProperties: false },
);
const RepreContextAnswer = Type.Object({
  ids: Type.Array(Id, { description: 'What AYON clients read' }),
  representations: Type.Array(Type.Object({ id: Id }, { additionalProperties: true })),
});

// ---------------------------------------------------------------------------------------------------------------
// Filterable fields

/** Task fields over selectEntities('task') (aliased t): attrib is the effective, inherited one. */
const TASK_FIELDS: FieldMap = (() => {
  const col = (name: string) => sql.ref(`t.${name}`);
  return {
    id: { expr: col('id'), kind: 'uuid' },
    name: { expr: col('name'), kind: 'text' },
    label: { expr: col('label'), kind: 'text' },
    taskType: { expr: col('task_type'), kind: 'text' },
    folderId: { expr: col('folder_id'), kind: 'uuid' },
    thumbnailId: { expr: col('thumbnail_id'), kind: 'uuid' },
    status: { expr: col('status'), kind: 'text' },
    tags: { expr: col('tags'), kind: 'textArray' },
    assignees: { expr: col('assignees'), kind: 'textArray' },
    active: { expr: col('active'), kind: 'boolean' },
    path: { expr: col('full_path'), kind: 'text' },
    attrib: { expr: col('all_attrib'), kind: 'json' },
    data: { expr: col('data'), kind: 'json' },
    createdBy: { expr: col('created_by'), kind: 'text' },
    updatedBy: { expr: col('updated_by'), kind: 'text' },
    createdAt: { expr: col('created_at'), kind: 'timestamp' },
    updatedAt: { expr: col('updated_at'), kind: 'timestamp' },
  };
})();

// ---------------------------------------------------------------------------------------------------------------
// Resolving

interface ProjectScope {
  project: ProjectRecord;
  roots: Record<string, string> | null;
  /** Statuses whose state is done, for version=latestdone. */
  doneStatuses: string[];
  /** The folders (alias f) the caller may read. */
  readable: RawBuilder<boolean>;
}

interface ResolveOptions {
  pathOnly: boolean;
  platform: Platform;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function platformOf(header: unknown): Platform {
  return header === 'windows' || header === 'darwin' || header === 'linux' ? header : 'linux';
}

function versionCondition(
  version: VersionSelector,
  t: (name: string) => RawBuilder<unknown>,
  doneStatuses: string[],
): RawBuilder<boolean> | null {
  switch (version.kind) {
    case 'any':
      return null;
    case 'number':
      return sql<boolean>`v.version = ${version.number}`;
    case 'hero':
      return sql<boolean>`v.version < 0`;
    case 'latest':
      // Newest regular version of each product on its own, never the hero.
      return sql<boolean>`v.version = (SELECT max(x.version) FROM ${t('versions')} x WHERE x.product_id = v.product_id AND x.version >= 0)`;
    case 'latestdone':
      if (doneStatuses.length === 0) return sql<boolean>`FALSE`;
      return sql<boolean>`v.version = (SELECT max(x.version) FROM ${t('versions')} x WHERE x.product_id = v.product_id AND x.version >= 0 AND x.status = ANY(${doneStatuses}::text[]))`;
  }
}

/** The entities one parsed URI names, at most MAX_ENTITIES_PER_URI of them, in a stable order. */
async function resolveEntities(
  trx: DatabaseTransaction,
  schema: string,
  uri: ParsedUri,
  scope: ProjectScope,
  options: ResolveOptions,
) {
  if (!uri.target) return [];
  const t = (name: string) => sql.table(`${schema}.${name}`);
  const where: RawBuilder<boolean>[] = [scope.readable];
  if (uri.path !== null && uri.path !== '*') where.push(sql<boolean>`f.path = ${uri.path}`);
  const named = (ref: string, name: string | null) => {
    if (name !== null && name !== '*') where.push(sql<boolean>`${sql.ref(ref)} = ${name}`);
  };

  let query: RawBuilder<Row>;
  const limit = sql`LIMIT ${MAX_ENTITIES_PER_URI}`;
  if (uri.target === 'task' || uri.target === 'workfile') {
    // Task group: a workfile without a task name looks in every task of the folder.
    const withWorkfile = uri.target === 'workfile';
    named('k.name', uri.task);
    if (withWorkfile && uri.workfile !== '*')
      where.push(sql<boolean>`regexp_replace(w.path, '^.*[/\\\\]', '') = ${uri.workfile}`);
    query = sql<Row>`
      SELECT f.id AS folder_id, k.id AS task_id, ${withWorkfile ? sql`w.id` : sql`NULL::uuid`} AS workfile_id
      FROM ${t('folders')} f JOIN ${t('tasks')} k ON k.folder_id = f.id
        ${withWorkfile ? sql`JOIN ${t('workfiles')} w ON w.task_id = k.id` : sql``}
      ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
      ORDER BY f.path, k.name ${withWorkfile ? sql`, w.path` : sql``}
      ${limit}`;
  } else {
    // Product group: join as deep as the target; levels left out in between match anything.
    const depth = { folder: 0, product: 1, version: 2, representation: 3 }[uri.target];
    named('p.name', uri.product);
    if (uri.version) {
      const condition = versionCondition(uri.version, t, scope.doneStatuses);
      if (condition) where.push(condition);
    }
    named('r.name', uri.representation);
    query = sql<Row>`
      SELECT f.id AS folder_id,
        ${depth >= 1 ? sql`p.id` : sql`NULL::uuid`} AS product_id,
        ${depth >= 2 ? sql`v.id` : sql`NULL::uuid`} AS version_id,
        ${depth >= 3 ? sql`r.id AS representation_id, r.attrib->>'template' AS template, r.files->0->>'path' AS first_file, r.data->'context' AS context` : sql`NULL::uuid AS representation_id`}
      FROM ${t('folders')} f
        ${depth >= 1 ? sql`JOIN ${t('products')} p ON p.folder_id = f.id` : sql``}
        ${depth >= 2 ? sql`JOIN ${t('versions')} v ON v.product_id = p.id` : sql``}
        ${depth >= 3 ? sql`JOIN ${t('representations')} r ON r.version_id = v.id` : sql``}
      ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
      ORDER BY f.path ${depth >= 1 ? sql`, p.name` : sql``} ${depth >= 2 ? sql`, v.version` : sql``} ${depth >= 3 ? sql`, r.name` : sql``}
      ${limit}`;
  }

  const rows = (await query.execute(trx)).rows;
  return rows.map((row) => {
    const filePath =
      uri.target === 'representation' ? representationPath(row, scope.roots, options.platform) : null;
    if (options.pathOnly) return { filePath };
    return {
      projectName: scope.project.name,
      folderId: row.folder_id ?? null,
      productId: row.product_id ?? null,
      versionId: row.version_id ?? null,
      representationId: row.representation_id ?? null,
      taskId: row.task_id ?? null,
      workfileId: row.workfile_id ?? null,
      filePath,
      target: uri.target,
    };
  });
}

/**
 * Where a representation lives: its template attribute (or, lacking one, its first file's path) filled with
 * data.context, and with the site's roots when they were asked for.
 */
function representationPath(
  row: Row,
  roots: Record<string, string> | null,
  platform: Platform,
): string | null {
  const template: string | null = row.template || row.first_file || null;
  if (!template) return null;
  const context =
    row.context && typeof row.context === 'object' && !Array.isArray(row.context) ? { ...row.context } : {};
  // Without roots, {root[...]} stays in the path for the client to fill; the context may not supply it either.
  if (roots) context.root = roots;
  else delete context.root;
  return normalisePath(formatTemplate(template, context), platform);
}

// ---------------------------------------------------------------------------------------------------------------
// Routes

/** POST /api/resolve, /api/projects/{p}/uris, /tasksFolders and /repreContextFilter. */
export function resolveRoutes({ db, projects, attributes, processor, schemaName }: Deps) {
  /** SQL: the entity (whose folder has this path and id) is one the caller may read; true when unrestricted. */
  const readable = async (
    caller: RequestUser,
    project: ProjectRecord,
    folder: { path: RawBuilder<unknown>; id: RawBuilder<unknown> },
  ) => {
    const scope = await processor.access.scope(caller, project.name, 'read');
    return scope
      ? scopeCondition(schemaName(project.name), scope, caller.name, folder, false)
      : sql<boolean>`true`;
  };
  const camelizeBody = async (request: { body: unknown }) => {
    if (request.body && typeof request.body === 'object' && !Array.isArray(request.body))
      request.body = camelizeKeys(request.body as Record<string, unknown>);
  };

  /** The project, or the per-URI error AYON clients see; existence is not told apart from access. */
  async function openProject(caller: RequestUser, name: string): Promise<ProjectRecord | string> {
    try {
      return await projects.require(caller, name);
    } catch (error) {
      if (error instanceof NotFound || error instanceof Forbidden)
        return `Project ${name} not found or not accessible`;
      throw error;
    }
  }

  return async (app: AddonApp) => {
    app.post(
      '/api/resolve',
      {
        preValidation: camelizeBody,
        schema: {
          summary: 'Resolve ayon+entity:// URIs to entities and file paths; problems are reported per URI',
          querystring: ResolveQuery,
          body: ResolveRequest,
          response: { 200: Type.Array(ResolvedUri) },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const siteHeader = request.headers['x-ayon-site-id'];
        const siteId = typeof siteHeader === 'string' && siteHeader ? siteHeader : null;
        const options: ResolveOptions = {
          pathOnly: request.query.pathOnly,
          platform: platformOf(request.headers['x-ayon-platform']),
        };

        const parsed = request.body.uris.map((uri) => {
          try {
            return { uri, parsed: parseUri(uri) };
          } catch (error) {
            if (error instanceof UriError) return { uri, error: error.message };
            throw error;
          }
        });

        // Each project once, before the read transaction: looking it up takes a connection of its own.
        const scopes = new Map<string, ProjectScope | string>();
        for (const item of parsed) {
          const key = item.parsed?.project.toLowerCase();
          if (!key || scopes.has(key)) continue;
          const project = await openProject(caller, item.parsed!.project);
          if (typeof project === 'string') {
            scopes.set(key, project);
            continue;
          }
          const roots = request.body.resolveRoots
            ? await projects.siteRoots(project.name, siteId, options.platform)
            : null;
          const doneStatuses = project.statuses.filter((s) => s.state === 'done').map((s) => s.name);
          const folder = { path: sql.ref('f.path'), id: sql.ref('f.id') };
          scopes.set(key, {
            project,
            roots,
            doneStatuses,
            readable: await readable(caller, project, folder),
          });
        }

        // One snapshot for every URI, so a publish landing mid-request cannot make two answers disagree.
        return db.transaction().execute(async (trx) => {
          const answers = [];
          for (const item of parsed) {
            if (!item.parsed) {
              answers.push({ uri: item.uri, entities: [], error: item.error ?? 'Invalid URI' });
              continue;
            }
            const scope = scopes.get(item.parsed.project.toLowerCase())!;
            if (typeof scope === 'string') {
              answers.push({ uri: item.uri, entities: [], error: scope });
              continue;
            }
            const entities = await resolveEntities(
              trx,
              schemaName(scope.project.name),
              item.parsed,
              scope,
              options,
            );
            answers.push({ uri: item.uri, entities, error: null });
          }
          return answers;
        });
      },
    );

    app.post(
      '/api/projects/:project_name/uris',
      {
        preValidation: camelizeBody,
        schema: {
          summary: 'The ayon+entity:// URI of each entity; unknown ids are left out',
          params: ProjectParams,
          body: UrisRequest,
          response: { 200: UrisResponse },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const project = await projects.require(caller, request.params.project_name);
        const { entityType, ids } = request.body;
        if (ids.length === 0) return { uris: [] };
        // Entities the caller may not read are left out, as unknown ids are.
        const [inheritable, base] = await inheritance(attributes, project);
        const scope = await processor.access.scope(caller, project.name, 'read');
        const visible = scope
          ? (
              await queryEntities(
                db,
                schemaName(project.name),
                entityType,
                { ids, limit: ids.length, caller },
                inheritable,
                base,
                { scope, attributes: null },
              )
            ).items.map((item) => item.entity.id as string)
          : ids;
        const rows = visible.length ? await uriRows(db, schemaName(project.name), entityType, visible) : [];
        const byId = new Map(
          rows.map((row) => [
            row.id as string,
            formatUri({
              project: project.name,
              path: row.folder_path,
              product: row.product ?? null,
              version: row.version ?? null,
              representation: row.representation ?? null,
              task: row.task ?? null,
              workfile: row.workfile ?? null,
            }),
          ]),
        );
        // In the order asked, each id once.
        const uris = [...new Set(ids)].filter((id) => byId.has(id)).map((id) => ({ id, uri: byId.get(id)! }));
        return { uris };
      },
    );

    app.post(
      '/api/projects/:project_name/tasksFolders',
      {
        schema: {
          summary: 'Ids of the folders holding tasks that match a filter over task fields and a search text',
          params: ProjectParams,
          body: TasksFoldersQuery,
          response: { 200: TasksFoldersAnswer },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const project = await projects.require(caller, request.params.project_name);
        const where = [
          compileFilter(request.body.filter, TASK_FIELDS),
          await readable(caller, project, { path: sql.ref('t.access_path'), id: sql.ref('t.access_folder') }),
        ];
        const search = request.body.search?.trim();
        if (search) {
          // Plain text, not a pattern: the search's own % and _ match themselves.
          const pattern = `%${escapeLike(search)}%`;
          where.push(
            sql<boolean>`(t.name ILIKE ${pattern} OR t.label ILIKE ${pattern} OR t.task_type ILIKE ${pattern} OR t.full_path ILIKE ${pattern})`,
          );
        }
        const [inheritable, base] = await inheritance(attributes, project);
        const rows = await sql<{ folder_id: string }>`
          SELECT DISTINCT t.folder_id
          FROM (${selectEntities(db, schemaName(project.name), 'task', inheritable, base)}) t
          WHERE ${sql.join(where, sql` AND `)}
          ORDER BY t.folder_id`.execute(db);
        return { folderIds: rows.rows.map((row) => row.folder_id) };
      },
    );

    app.post(
      '/api/projects/:project_name/repreContextFilter',
      {
        preValidation: camelizeBody,
        schema: {
          summary: 'Representations by name, version and values in data.context (at most 1000)',
          params: ProjectParams,
          body: RepreContextRequest,
          response: { 200: RepreContextAnswer },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const project = await projects.require(caller, request.params.project_name);
        const { names, versionIds, context } = request.body;
        const where: RawBuilder<boolean>[] = [
          await readable(caller, project, { path: sql.ref('f.path'), id: sql.ref('f.id') }),
        ];
        // An empty list restricts nothing, as in AYON (its client answers [] itself before asking).
        if (names?.length) where.push(sql<boolean>`r.name = ANY(${names}::text[])`);
        if (versionIds?.length) where.push(sql<boolean>`r.version_id = ANY(${versionIds}::uuid[])`);
        const problems: { loc: (string | number)[]; msg: string; type: string }[] = [];
        const contextCondition = (
          key: string,
          values: string[],
          regex: boolean,
          loc: (string | number)[],
        ) => {
          const path = key.split('.');
          if (path.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) {
            problems.push({ loc, msg: `invalid context key '${key}'`, type: 'value_error' });
            return;
          }
          const value = sql`(r.data->'context') #>> ${path}::text[]`;
          if (values.length === 0) return;
          where.push(
            regex
              ? sql<boolean>`${value} ~ ANY(${values}::text[])`
              : sql<boolean>`${value} = ANY(${values}::text[])`,
          );
        };
        if (Array.isArray(context))
          context.forEach((item, i) =>
            contextCondition(item.key, item.values, true, ['body', 'context', i, 'key']),
          );
        else if (context)
          for (const [key, values] of Object.entries(context))
            contextCondition(key, values, false, ['body', 'context', key]);
        if (problems.length) throw new ValidationFailed(problems);

        let rows: Row[];
        try {
          rows = (
            await sql<Row>`
              ${selectEntities(db, schemaName(project.name), 'representation', [])}
              ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
              ORDER BY r.creation_order
              LIMIT ${MAX_CONTEXT_MATCHES}`.execute(db)
          ).rows;
        } catch (error) {
          // A pattern PostgreSQL cannot compile is the caller's mistake, not ours.
          if ((error as { code?: string }).code === '2201B') {
            throw new ValidationFailed([
              { loc: ['body', 'context'], msg: (error as Error).message, type: 'invalid_regex' },
            ]);
          }
          throw error;
        }
        const representations = rows.map((row) => present('representation', row) as { id: string });
        return { ids: representations.map((r) => r.id), representations };
      },
    );
  };
}

/** What the formatter needs about each entity: its folder path and the names below it. */
async function uriRows(db: Database, schema: string, type: EntityType, ids: string[]): Promise<Row[]> {
  const t = (name: string) => sql.table(`${schema}.${name}`);
  const list = sql`${ids}::uuid[]`;
  switch (type) {
    case 'folder':
      return (
        await sql<Row>`SELECT f.id, f.path AS folder_path FROM ${t('folders')} f WHERE f.id = ANY(${list})`.execute(
          db,
        )
      ).rows;
    case 'task':
      return (
        await sql<Row>`SELECT k.id, f.path AS folder_path, k.name AS task FROM ${t('tasks')} k JOIN ${t('folders')} f ON f.id = k.folder_id WHERE k.id = ANY(${list})`.execute(
          db,
        )
      ).rows;
    case 'workfile':
      return (
        await sql<Row>`
          SELECT w.id, f.path AS folder_path, k.name AS task, regexp_replace(w.path, '^.*[/\\\\]', '') AS workfile
          FROM ${t('workfiles')} w JOIN ${t('tasks')} k ON k.id = w.task_id JOIN ${t('folders')} f ON f.id = k.folder_id
          WHERE w.id = ANY(${list})`.execute(db)
      ).rows;
    case 'product':
      return (
        await sql<Row>`SELECT p.id, f.path AS folder_path, p.name AS product FROM ${t('products')} p JOIN ${t('folders')} f ON f.id = p.folder_id WHERE p.id = ANY(${list})`.execute(
          db,
        )
      ).rows;
    case 'version':
      return (
        await sql<Row>`
          SELECT v.id, f.path AS folder_path, p.name AS product, v.version
          FROM ${t('versions')} v JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} f ON f.id = p.folder_id
          WHERE v.id = ANY(${list})`.execute(db)
      ).rows;
    case 'representation':
      return (
        await sql<Row>`
          SELECT r.id, f.path AS folder_path, p.name AS product, v.version, r.name AS representation
          FROM ${t('representations')} r JOIN ${t('versions')} v ON v.id = r.version_id
            JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} f ON f.id = p.folder_id
          WHERE r.id = ANY(${list})`.execute(db)
      ).rows;
  }
}
