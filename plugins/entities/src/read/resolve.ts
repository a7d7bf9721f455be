import { sql, type RawBuilder } from 'kysely';
import { Forbidden, NotFound, type Database, type RequestUser } from '@pipewright/sdk';
import type { ProjectDirectory, ProjectRecord } from '@pipewright/plugin-projects/api';
import type { FolderAccess } from '../access.js';
import { formatTemplate, normalisePath } from './file-template.js';
import { readableBy } from './readable.js';
import { parseUri, UriError, type ParsedUri, type VersionSelector } from './uris.js';

type Row = Record<string, any>;
export type Platform = 'windows' | 'linux' | 'darwin';

// AYON answers at most this many entities for one URI, however wide its wildcards.
const MAX_ENTITIES_PER_URI = 1000;

interface ProjectScope {
  project: ProjectRecord;
  roots: Record<string, string> | null;
  /** Statuses whose state is done, for version=latestdone. */
  doneStatuses: string[];
  /** The folders (alias f) the caller may read. */
  readable: RawBuilder<boolean>;
}

export interface ResolveOptions {
  pathOnly: boolean;
  platform: Platform;
  /** Fill {root[...]} in file paths with the roots of this site (null: the caller's default). */
  resolveRoots: boolean;
  siteId: string | null;
}

/** The platform an x-ayon-platform header names; linux when it names none. */
export function platformOf(header: unknown): Platform {
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
  db: Database,
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

  const rows = (await query.execute(db)).rows;
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

/** What resolving reads with. */
export interface ResolveDeps {
  db: Database;
  projects: ProjectDirectory;
  access: FolderAccess;
  schemaName: (project: string) => string;
}

/** The project, or the per-URI error AYON clients see; existence is not told apart from access. */
async function openProject(
  projects: ProjectDirectory,
  caller: RequestUser,
  name: string,
): Promise<ProjectRecord | string> {
  try {
    return await projects.require(caller, name);
  } catch (error) {
    if (error instanceof NotFound || error instanceof Forbidden)
      return `Project ${name} not found or not accessible`;
    throw error;
  }
}

/** POST /api/resolve: each URI's entities (and file paths), or its own error; in the order given. */
export async function resolveUris(
  { db, projects, access, schemaName }: ResolveDeps,
  caller: RequestUser,
  uris: string[],
  options: ResolveOptions,
) {
  const parsed = uris.map((uri) => {
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
    const project = await openProject(projects, caller, item.parsed!.project);
    if (typeof project === 'string') {
      scopes.set(key, project);
      continue;
    }
    const roots = options.resolveRoots
      ? await projects.siteRoots(project.name, options.siteId, options.platform)
      : null;
    const doneStatuses = project.statuses.filter((s) => s.state === 'done').map((s) => s.name);
    const folder = { path: sql.ref('f.path'), id: sql.ref('f.id') };
    scopes.set(key, {
      project,
      roots,
      doneStatuses,
      readable: await readableBy(access, schemaName, caller, project, folder),
    });
  }

  // One snapshot for every URI, so a publish landing mid-request cannot make two answers disagree.
  return db.transaction().execute(async () => {
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
      const entities = await resolveEntities(db, schemaName(scope.project.name), item.parsed, scope, options);
      answers.push({ uri: item.uri, entities, error: null });
    }
    return answers;
  });
}
