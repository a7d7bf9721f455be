import { sql } from 'kysely';
import {
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  ValidationFailed,
  isManagerOrAbove,
  mergePatch,
  newId,
  type Database,
  type RequestUser,
} from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { FolderCreate, FolderPatch, ListFolder } from './schemas.js';

interface FolderRow {
  id: string;
  label: string;
  parent_id: string | null;
  position: number;
  owner: string | null;
  access: Record<string, number>;
  data: Record<string, unknown>;
}

function present(row: FolderRow): ListFolder {
  return {
    id: row.id,
    label: row.label,
    parentId: row.parent_id,
    position: row.position,
    owner: row.owner,
    access: row.access,
    data: row.data,
  };
}

function clash(error: unknown, label: string | undefined, id: string): Conflict | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code !== '23505') return null;
  if (`${e.constraint ?? ''} ${e.message ?? ''}`.includes('label'))
    return new Conflict(`A list folder labelled ${label} already exists there`, 'unique-violation');
  return new Conflict(`A list folder with id ${id} already exists`, 'unique-violation');
}

/** Drop keys set to null: the folder data model has only optional fields, and null means "not set". */
const withoutNulls = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null && value !== undefined));

/**
 * Folders arrange a project's lists in a tree, for the web app's sidebar. As in AYON, anyone on the project may
 * create folders and set their order; only the folder's owner or a manager may change or delete one.
 */
export class ListFolderService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectDirectory,
    private readonly schemaName: (projectName: string) => string,
  ) {}

  private in(projectName: string) {
    return this.db.withSchema(this.schemaName(projectName));
  }

  /** True when the project has this folder (inside a unit of work, as its transaction sees it). */
  async exists(projectName: string, id: string): Promise<boolean> {
    const row = await this.in(projectName)
      .selectFrom('entity_list_folders')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every list folder of the project, siblings by position then label. */
  async list(caller: RequestUser, projectName: string): Promise<{ folders: ListFolder[] }> {
    const project = await this.projects.require(caller, projectName);
    const rows = (await this.in(project.name)
      .selectFrom('entity_list_folders')
      .selectAll()
      .orderBy('parent_id')
      .orderBy('position')
      .orderBy('label')
      .execute()) as FolderRow[];
    return { folders: rows.map(present) };
  }

  /** Create a folder owned by the caller; answers its id. */
  async create(caller: RequestUser, projectName: string, body: FolderCreate): Promise<string> {
    const project = await this.projects.require(caller, projectName);
    const id = body.id ?? newId();
    if (body.parentId && !(await this.exists(project.name, body.parentId)))
      throw new NotFound(`List folder ${body.parentId} not found in project ${project.name}`);
    try {
      await this.in(project.name)
        .insertInto('entity_list_folders')
        .values({
          id,
          label: body.label,
          parent_id: body.parentId ?? null,
          owner: caller.name,
          access: JSON.stringify(body.access ?? {}),
          data: JSON.stringify(withoutNulls(body.data ?? {})),
        })
        .execute();
    } catch (error) {
      throw clash(error, body.label, id) ?? error;
    }
    return id;
  }

  /** Change a folder (its owner or a manager): data merges, access replaces, parentId moves it. */
  async patch(caller: RequestUser, projectName: string, id: string, body: FolderPatch): Promise<void> {
    const project = await this.projects.require(caller, projectName);
    const row = await this.ownFolder(caller, project.name, id, 'change');
    const parentId = body.parentId === undefined ? row.parent_id : body.parentId;
    if (parentId && parentId !== row.parent_id) await this.checkNewParent(project.name, id, parentId);
    const data = body.data ? withoutNulls(mergePatch(row.data, body.data)) : row.data;
    try {
      await this.in(project.name)
        .updateTable('entity_list_folders')
        .set({
          label: body.label ?? row.label,
          parent_id: parentId,
          access: JSON.stringify(body.access === undefined ? row.access : (body.access ?? {})),
          data: JSON.stringify(data),
        })
        .where('id', '=', id)
        .execute();
    } catch (error) {
      throw clash(error, body.label ?? row.label, id) ?? error;
    }
  }

  /** Delete a folder with its subfolders; the lists inside stay, outside any folder. */
  async remove(caller: RequestUser, projectName: string, id: string): Promise<void> {
    const project = await this.projects.require(caller, projectName);
    await this.ownFolder(caller, project.name, id, 'delete');
    await this.in(project.name).deleteFrom('entity_list_folders').where('id', '=', id).execute();
  }

  /** Positions follow the order given (AYON sorts siblings by position); one transaction. */
  async order(caller: RequestUser, projectName: string, order: string[]): Promise<void> {
    const project = await this.projects.require(caller, projectName);
    const known = new Set(
      (
        await this.in(project.name)
          .selectFrom('entity_list_folders')
          .select('id')
          .where('id', 'in', order)
          .execute()
      ).map((row) => row.id as string),
    );
    const problems = order
      .map((folderId, i) => ({ folderId, i }))
      .filter(({ folderId }) => !known.has(folderId))
      .map(({ folderId, i }) => ({
        loc: ['body', 'order', i],
        msg: `list folder ${folderId} not found in project ${project.name}`,
        type: 'value_error.not_found',
      }));
    if (problems.length) throw new ValidationFailed(problems, `Validation error: ${problems[0].msg}`);
    const table = sql.table(`${this.schemaName(project.name)}.entity_list_folders`);
    await sql`
      UPDATE ${table} f SET position = (v.ord - 1)::int
      FROM unnest(${order}::uuid[]) WITH ORDINALITY AS v(id, ord)
      WHERE f.id = v.id`.execute(this.db);
  }

  private async ownFolder(
    caller: RequestUser,
    projectName: string,
    id: string,
    verb: string,
  ): Promise<FolderRow> {
    const row = (await this.in(projectName)
      .selectFrom('entity_list_folders')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()) as FolderRow | undefined;
    if (!row) throw new NotFound(`List folder ${id} not found in project ${projectName}`);
    if (!isManagerOrAbove(caller) && row.owner?.toLowerCase() !== caller.name.toLowerCase())
      throw new Forbidden(`Only the owner of the folder or a manager may ${verb} it`);
    return row;
  }

  /** The new parent exists and is not the folder itself or one of its descendants (which would make a loop). */
  private async checkNewParent(projectName: string, id: string, parentId: string): Promise<void> {
    const table = sql.table(`${this.schemaName(projectName)}.entity_list_folders`);
    const { rows } = await sql<{ id: string }>`
      WITH RECURSIVE up AS (
        SELECT id, parent_id FROM ${table} WHERE id = ${parentId}
        UNION ALL
        SELECT f.id, f.parent_id FROM ${table} f JOIN up ON f.id = up.parent_id
      )
      SELECT id FROM up`.execute(this.db);
    if (rows.length === 0) throw new NotFound(`List folder ${parentId} not found in project ${projectName}`);
    if (rows.some((row) => row.id === id))
      throw new BadRequest('A list folder cannot be moved inside itself');
  }
}
