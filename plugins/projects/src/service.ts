import { sql } from 'kysely';
import {
  Conflict,
  Forbidden,
  NotFound,
  ValidationFailed,
  isManagerOrAbove,
  mergePatch,
  type AnatomyPresets,
  type AttributeLibrary,
  type Database,
  type ProjectChange,
  type ProjectDirectory,
  type ProjectRecord,
  type EventBus,
  type ProjectLayout,
  type ProjectStorage,
  type RequestUser,
  type Sender,
  type Static,
} from '@pipewright/sdk';
import { columns, linkTypeOnWire, takeRenames, uniqueViolation, type ProjectFields } from './columns.js';
import type { Project, ProjectListItem, ProjectListQuery } from './schemas.js';

type Json = Record<string, unknown>;
type Row = Record<string, any>;

const ORDER_COLUMNS = { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' } as const;

const byName = (name: string) => sql<boolean>`lower(name) = ${name.toLowerCase()}`;

type ChangeHook = (project: ProjectRecord, change: ProjectChange) => Promise<void>;

/** Projects: the public.projects row, and the project_<name> schema that holds the project's entities. */
// Every entity request needs its project (statuses, types, attributes): keep records briefly in memory. Writes here
// and change events from other processes (through Redis) drop them at once; the lifetime only bounds a lost message.
const RECORD_LIFETIME_MS = 30_000;

export class ProjectService implements ProjectDirectory {
  private readonly hooks: ChangeHook[] = [];
  private readonly records = new Map<string, { row: Row; record: ProjectRecord; expires: number }>();

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly storage: ProjectStorage,
    private readonly attributes: AttributeLibrary,
    private readonly anatomy: AnatomyPresets,
  ) {}

  onChange(hook: ChangeHook): void {
    this.hooks.push(hook);
  }

  async record(row: Row): Promise<ProjectRecord> {
    const presented = await this.present(row);
    return {
      name: presented.name,
      code: presented.code,
      library: presented.library,
      active: presented.active,
      attrib: presented.attrib,
      folderTypes: presented.folderTypes as ProjectRecord['folderTypes'],
      taskTypes: presented.taskTypes as ProjectRecord['taskTypes'],
      statuses: presented.statuses as ProjectRecord['statuses'],
      tags: presented.tags as ProjectRecord['tags'],
      linkTypes: presented.linkTypes as ProjectRecord['linkTypes'],
      config: presented.config,
      data: presented.data,
      createdAt: presented.createdAt,
      updatedAt: presented.updatedAt,
    };
  }

  /** Managers see every project; other users the projects an access group gives them. */
  canSee(caller: RequestUser, projectName: string): boolean {
    if (isManagerOrAbove(caller)) return true;
    return Object.keys(caller.accessGroups).some((name) => name.toLowerCase() === projectName.toLowerCase());
  }

  async list(
    caller: RequestUser,
    query: Static<typeof ProjectListQuery>,
  ): Promise<{ count: number; projects: Static<typeof ProjectListItem>[] }> {
    let select = this.db.selectFrom('projects');
    if (query.library !== undefined) select = select.where('library', '=', query.library);
    if (query.active !== undefined) select = select.where('active', '=', query.active);
    if (query.name) select = select.where('name', 'ilike', query.name);
    if (!isManagerOrAbove(caller)) {
      const visible = Object.keys(caller.accessGroups).map((name) => name.toLowerCase());
      if (visible.length === 0) return { count: 0, projects: [] };
      select = select.where(sql<string>`lower(name)`, 'in', visible);
    }
    const { count } = await select.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
    let page = select
      .select(['name', 'code', 'active', 'library', 'created_at', 'updated_at'])
      .orderBy(ORDER_COLUMNS[query.order ?? 'name'], query.desc ? 'desc' : 'asc')
      .orderBy('name');
    // As AYON: no length (or 0) lists every project; a negative one too here, where AYON's database refuses it.
    // Past 2^53 a number is no longer exact: such pages are empty anyway.
    if (query.length && query.length > 0) {
      const length = Math.min(query.length, Number.MAX_SAFE_INTEGER);
      page = page.limit(length).offset(Math.min((query.page - 1) * length, Number.MAX_SAFE_INTEGER));
    }
    const rows = await page.execute();
    return {
      count,
      projects: rows.map((row) => ({
        name: row.name,
        code: row.code,
        active: row.active,
        library: row.library,
        createdAt: new Date(row.created_at).toISOString(),
        updatedAt: new Date(row.updated_at).toISOString(),
      })),
    };
  }

  async visibleNames(
    caller: RequestUser,
    filter: { active?: boolean; library?: boolean } = {},
  ): Promise<string[]> {
    let select = this.db.selectFrom('projects').select('name').orderBy('name');
    if (filter.library !== undefined) select = select.where('library', '=', filter.library);
    if (filter.active !== undefined) select = select.where('active', '=', filter.active);
    const names = (await select.execute()).map((row) => row.name as string);
    return names.filter((name) => this.canSee(caller, name));
  }

  async require(caller: RequestUser, name: string): Promise<ProjectRecord> {
    // Users who do not see every project get one answer for "missing" and "not yours": names are not probed.
    if (!isManagerOrAbove(caller) && !this.canSee(caller, name))
      throw new Forbidden(`You have no access to project ${name}`);
    const project = await this.find(name);
    if (!project) throw new NotFound(`Project ${name} not found`);
    return project;
  }

  async find(name: string): Promise<ProjectRecord | null> {
    const key = name.toLowerCase();
    let cached = this.records.get(key);
    if (!cached || cached.expires < Date.now()) {
      const row = await this.db.selectFrom('projects').selectAll().where(byName(name)).executeTakeFirst();
      if (!row) return null;
      cached = { row, record: await this.record(row), expires: Date.now() + RECORD_LIFETIME_MS };
      this.records.set(key, cached);
    }
    return cached.record;
  }

  /** Drop cached project records: one project, or all (attribute defaults changed). */
  forget(name?: string | null): void {
    if (name) this.records.delete(name.toLowerCase());
    else this.records.clear();
  }

  /** The project as the caller may see it: 404 when it does not exist, 403 when the caller has no access. */
  async requireRow(caller: RequestUser, name: string): Promise<Row> {
    if (!this.canSee(caller, name)) throw new Forbidden(`You have no access to project ${name}`);
    const row = await this.db.selectFrom('projects').selectAll().where(byName(name)).executeTakeFirst();
    if (!row) throw new NotFound(`Project ${name} not found`);
    return row;
  }

  async exists(name: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('projects').select('name').where(byName(name)).executeTakeFirst()) !==
      undefined
    );
  }

  /** Create a project row, its schema and its event in one transaction; a half-created project never remains. */
  async create(caller: RequestUser, name: string, given: ProjectFields, sender: Sender): Promise<void> {
    const fields = { ...given, attrib: await this.knownAttrib(given.attrib, ['body', 'attrib']) };
    await this.db.transaction().execute(async (trx) => {
      try {
        await trx
          .insertInto('projects')
          .values({ name, code: fields.code ?? name, ...columns(fields) })
          .execute();
      } catch (error) {
        const clash = uniqueViolation(error);
        if (clash === 'code')
          throw new Conflict(
            `Project code ${fields.code ?? name} is already used by another project`,
            'unique-violation',
          );
        if (clash) throw new Conflict(`Project ${name} already exists`, 'unique-violation');
        throw error;
      }
      await this.storage.create(name);
      await this.announce('entity.project.created', name, caller, sender);
    });
  }

  /** Deploy from an anatomy: its types, statuses, tags, link types, attributes and config become the project's. */
  async deploy(
    caller: RequestUser,
    input: { name: string; code: string; library?: boolean; anatomy?: Json; preset?: string },
    sender: Sender,
  ): Promise<void> {
    let layout: ProjectLayout;
    if (input.anatomy) {
      const { anatomy, problems } = this.anatomy.validate(input.anatomy, ['body', 'anatomy']);
      if (!anatomy) throw new ValidationFailed(problems, 'The anatomy is not valid');
      layout = this.anatomy.toProject(anatomy);
    } else {
      layout = this.anatomy.toProject(await this.anatomy.get(input.preset ?? '_'));
    }
    const fields = { code: input.code, library: input.library ?? false, ...layout };
    await this.create(caller, input.name, fields, sender);
  }

  /** Replace every field of an existing project that the body names (PUT on an existing project). */
  async replace(caller: RequestUser, name: string, given: ProjectFields, sender: Sender): Promise<void> {
    const fields = { ...given, attrib: await this.knownAttrib(given.attrib, ['body', 'attrib']) };
    const row = await this.requireRow(caller, name);
    await this.write(row.name, fields, { caller, sender });
  }

  /** attrib, data and config merge (null removes a key); the other fields replace. */
  async patch(caller: RequestUser, name: string, patch: ProjectFields, sender: Sender): Promise<string> {
    if (!isManagerOrAbove(caller)) throw new Forbidden('Only managers may change a project');
    const row = await this.requireRow(caller, name);
    const given = await this.knownAttrib(patch.attrib, ['body', 'attrib']);
    const attrib = given === undefined ? undefined : mergePatch(row.attrib, given);
    const fields = {
      ...patch,
      attrib,
      data: patch.data === undefined ? undefined : mergePatch(row.data, patch.data),
      config: patch.config === undefined ? undefined : mergePatch(row.config, patch.config),
    };
    await this.write(row.name, fields, { caller, sender, fields: Object.keys(patch) });
    return row.name;
  }

  async setLayout(caller: RequestUser, name: string, document: Json, sender: Sender): Promise<void> {
    const row = await this.requireRow(caller, name);
    const { anatomy, problems } = this.anatomy.validate(document, ['body']);
    if (!anatomy) throw new ValidationFailed(problems, 'The anatomy is not valid');
    await this.write(row.name, this.anatomy.toProject(anatomy), { caller, sender, fields: ['anatomy'] });
  }

  async remove(caller: RequestUser, name: string, sender: Sender): Promise<void> {
    const row = await this.requireRow(caller, name);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('projects').where('name', '=', row.name).execute();
      await this.storage.drop(row.name);
      await this.announce('entity.project.deleted', row.name, caller, sender);
    });
    this.forget(row.name);
  }

  async present(row: Row): Promise<Static<typeof Project>> {
    const defaults = await this.attributes.defaults('project');
    return {
      name: row.name,
      code: row.code,
      library: row.library,
      active: row.active,
      folderTypes: row.folder_types,
      taskTypes: row.task_types,
      linkTypes: (row.link_types as Json[]).map(linkTypeOnWire),
      statuses: row.statuses,
      tags: row.tags,
      config: row.config,
      attrib: { ...defaults, ...row.attrib },
      ownAttrib: Object.keys(row.attrib),
      data: row.data,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  anatomyOf(row: Row): Json {
    return this.anatomy.fromProject(this.layout(row)) as unknown as Json;
  }

  layout(row: Row): ProjectLayout {
    return {
      folderTypes: row.folder_types,
      taskTypes: row.task_types,
      linkTypes: row.link_types,
      statuses: row.statuses,
      tags: row.tags,
      attrib: row.attrib,
      config: row.config,
    };
  }

  /** The roots a site uses on a platform: the project's roots for that platform, overridden by the site's own. */
  async siteRoots(
    projectName: string,
    siteId: string | null,
    platform: 'windows' | 'linux' | 'darwin',
  ): Promise<Record<string, string>> {
    const row = await this.db
      .selectFrom('projects')
      .selectAll()
      .where(byName(projectName))
      .executeTakeFirst();
    if (!row) throw new NotFound(`Project ${projectName} not found`);
    return this.rootsOf(row, siteId, platform);
  }

  async rootsOf(
    row: Row,
    siteId: string | null,
    platform: 'windows' | 'linux' | 'darwin',
  ): Promise<Record<string, string>> {
    const roots = Object.fromEntries(
      Object.entries((row.config.roots ?? {}) as Record<string, Record<string, string>>).map(
        ([root, paths]) => [root, paths[platform] ?? ''],
      ),
    );
    if (!siteId) return roots;
    const custom = await this.db
      .selectFrom('project_site_roots')
      .select('roots')
      .where('project_name', '=', row.name)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    return { ...roots, ...((custom?.roots ?? {}) as Record<string, string>) };
  }

  async setSiteRoots(row: Row, siteId: string, roots: Record<string, string>): Promise<void> {
    const known = Object.keys((row.config.roots ?? {}) as Json);
    const problems = Object.keys(roots)
      .filter((root) => !known.includes(root))
      .map((root) => ({
        loc: ['body', root],
        msg: `project ${row.name} has no root named ${root}`,
        type: 'unknown_root',
      }));
    if (problems.length) throw new ValidationFailed(problems, 'Unknown roots');
    await this.db
      .insertInto('project_site_roots')
      .values({ project_name: row.name, site_id: siteId, roots: JSON.stringify(roots) })
      .onConflict((oc) =>
        oc.columns(['project_name', 'site_id']).doUpdateSet({ roots: JSON.stringify(roots) }),
      )
      .execute();
  }

  /** The event of a change, written by the change's own unit of work. */
  private announce(topic: string, project: string, caller: RequestUser, sender: Sender, summary: Json = {}) {
    return this.events.emit({
      topic,
      project,
      user: caller.name,
      sender: sender.sender,
      senderType: sender.senderType,
      summary: { name: project, ...summary },
      description: `${topic.split('.').pop()} project ${project}`,
    });
  }

  /**
   * Write fields in one transaction with the hooks of dependent addons, so derived data never lags behind, and the
   * change's event (sent even when no field changes, as AYON does).
   */
  private async write(
    name: string,
    fields: ProjectFields,
    by: { caller: RequestUser; sender: Sender; fields?: string[] },
  ): Promise<void> {
    const statuses = takeRenames(fields.statuses);
    const folderTypes = takeRenames(fields.folderTypes);
    const taskTypes = takeRenames(fields.taskTypes);
    const values = columns({
      ...fields,
      statuses: statuses.items,
      folderTypes: folderTypes.items,
      taskTypes: taskTypes.items,
    });
    const change: ProjectChange = {
      attrib: fields.attrib !== undefined,
      renamed: { statuses: statuses.renamed, folderTypes: folderTypes.renamed, taskTypes: taskTypes.renamed },
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        if (Object.keys(values).length) {
          const row = await trx
            .updateTable('projects')
            .set({ ...values, updated_at: sql`now()` })
            .where('name', '=', name)
            .returningAll()
            .executeTakeFirstOrThrow();
          if (this.hooks.length) {
            const project = await this.record(row);
            for (const hook of this.hooks) await hook(project, change);
          }
        }
        const summary = by.fields ? { fields: by.fields } : {};
        await this.announce('entity.project.changed', name, by.caller, by.sender, summary);
      });
      this.forget(name);
    } catch (error) {
      if (uniqueViolation(error) === 'code')
        throw new Conflict('That project code is already used by another project', 'unique-violation');
      throw error;
    }
  }

  /** The attribute values given, checked, without names projects have no attribute for (AYON drops those). */
  private async knownAttrib(attrib: Json | undefined, loc: string[]): Promise<Json | undefined> {
    if (!attrib) return attrib;
    const known = await this.attributes.withoutUnknown('project', attrib);
    const problems = await this.attributes.validate('project', known, loc);
    if (problems.length) throw new ValidationFailed(problems, 'Invalid project attributes');
    return known;
  }
}
