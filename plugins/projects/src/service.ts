import {
  Conflict,
  Forbidden,
  NotFound,
  ValidationFailed,
  isManagerOrAbove,
  isoTime,
  mergePatch,
  type Database,
  type EventBus,
  type ProjectRequest,
  type ProjectStorage,
  type RequestUser,
  type Static,
} from '@pipewright/sdk';
import type { AnatomyPresets, ProjectLayout } from '@pipewright/plugin-anatomy/api';
import type { AttributeLibrary } from '@pipewright/plugin-attributes/api';
import type { ProjectDirectory, ProjectRecord } from './api.js';
import { columns, uniqueViolation, type ProjectFields } from './columns.js';
import { projectEvent } from './events.js';
import { layoutOf, presentRow, recordOf } from './present.js';
import { platformRoots, unknownRootProblems, type Platform } from './roots.js';
import type { Project, ProjectListItem, ProjectListQuery } from './schemas.js';
import * as store from './store.js';
import { writeProject, type ChangeHook, type ChangedBy } from './write.js';

type Json = Record<string, unknown>;
type Row = store.Row;

// Every entity request needs its project (statuses, types, attributes): keep records briefly in memory. Writes here
// and change events from other processes (through Redis) drop them at once; the lifetime only bounds a lost message.
const RECORD_LIFETIME_MS = 30_000;

/** Projects: the public.projects row, and the project_<name> schema that holds the project's entities. */
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
    return recordOf(await this.present(row));
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
    let visible: string[] | null = null;
    if (!isManagerOrAbove(caller)) {
      visible = Object.keys(caller.accessGroups).map((name) => name.toLowerCase());
      if (visible.length === 0) return { count: 0, projects: [] };
    }
    const { count, rows } = await store.listRows(this.db, query, visible);
    return {
      count,
      projects: rows.map((row) => ({
        name: row.name,
        code: row.code,
        active: row.active,
        library: row.library,
        createdAt: isoTime(row.created_at),
        updatedAt: isoTime(row.updated_at),
      })),
    };
  }

  async visibleNames(
    caller: RequestUser,
    filter: { active?: boolean; library?: boolean } = {},
  ): Promise<string[]> {
    const names = await store.projectNames(this.db, filter);
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

  requireFor(request: ProjectRequest): Promise<ProjectRecord> {
    return this.require(request.caller, request.params.project_name);
  }

  async find(name: string): Promise<ProjectRecord | null> {
    const key = name.toLowerCase();
    let cached = this.records.get(key);
    if (!cached || cached.expires < Date.now()) {
      const row = await store.findRow(this.db, name);
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
    const row = await store.findRow(this.db, name);
    if (!row) throw new NotFound(`Project ${name} not found`);
    return row;
  }

  async exists(name: string): Promise<boolean> {
    return store.projectExists(this.db, name);
  }

  /** Create a project row, its schema and its event in one transaction; a half-created project never remains. */
  async create(caller: RequestUser, name: string, given: ProjectFields): Promise<void> {
    const fields = { ...given, attrib: await this.knownAttrib(given.attrib, ['body', 'attrib']) };
    await this.db.transaction().execute(async (trx) => {
      try {
        await store.insertRow(trx, { name, code: fields.code ?? name, ...columns(fields) });
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
      await this.events.emit(projectEvent('entity.project.created', name, caller));
    });
  }

  /** Deploy from an anatomy: its types, statuses, tags, link types, attributes and config become the project's. */
  async deploy(
    caller: RequestUser,
    input: { name: string; code: string; library?: boolean; anatomy?: Json; preset?: string },
  ): Promise<void> {
    let layout: ProjectLayout;
    if (input.anatomy) {
      layout = this.anatomy.toProject(this.validAnatomy(input.anatomy, ['body', 'anatomy']));
    } else {
      layout = this.anatomy.toProject(await this.anatomy.get(input.preset ?? '_'));
    }
    const fields = { code: input.code, library: input.library ?? false, ...layout };
    await this.create(caller, input.name, fields);
  }

  /** Replace every field of an existing project that the body names (PUT on an existing project). */
  async replace(caller: RequestUser, name: string, given: ProjectFields): Promise<void> {
    const fields = { ...given, attrib: await this.knownAttrib(given.attrib, ['body', 'attrib']) };
    const row = await this.requireRow(caller, name);
    await this.write(row.name, fields, { caller });
  }

  /** attrib, data and config merge (null removes a key); the other fields replace. */
  async patch(caller: RequestUser, name: string, patch: ProjectFields): Promise<string> {
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
    await this.write(row.name, fields, { caller, fields: Object.keys(patch) });
    return row.name;
  }

  async setLayout(caller: RequestUser, name: string, document: Json): Promise<void> {
    const row = await this.requireRow(caller, name);
    const layout = this.anatomy.toProject(this.validAnatomy(document, ['body']));
    await this.write(row.name, layout, { caller, fields: ['anatomy'] });
  }

  async remove(caller: RequestUser, name: string): Promise<void> {
    const row = await this.requireRow(caller, name);
    await this.db.transaction().execute(async (trx) => {
      await store.deleteRow(trx, row.name);
      await this.storage.drop(row.name);
      await this.events.emit(projectEvent('entity.project.deleted', row.name, caller));
    });
    this.forget(row.name);
  }

  async present(row: Row): Promise<Static<typeof Project>> {
    return presentRow(row, await this.attributes.defaults('project'));
  }

  anatomyOf(row: Row): Json {
    return this.anatomy.fromProject(this.layout(row)) as unknown as Json;
  }

  layout(row: Row): ProjectLayout {
    return layoutOf(row);
  }

  /** The roots a site uses on a platform: the project's roots for that platform, overridden by the site's own. */
  async siteRoots(
    projectName: string,
    siteId: string | null,
    platform: Platform,
  ): Promise<Record<string, string>> {
    const row = await store.findRow(this.db, projectName);
    if (!row) throw new NotFound(`Project ${projectName} not found`);
    return this.rootsOf(row, siteId, platform);
  }

  async rootsOf(row: Row, siteId: string | null, platform: Platform): Promise<Record<string, string>> {
    const roots = platformRoots(row, platform);
    if (!siteId) return roots;
    return { ...roots, ...((await store.siteRootsRow(this.db, row.name, siteId)) ?? {}) };
  }

  async setSiteRoots(row: Row, siteId: string, roots: Record<string, string>): Promise<void> {
    const problems = unknownRootProblems(row, roots);
    if (problems.length) throw new ValidationFailed(problems, 'Unknown roots');
    await store.saveSiteRoots(this.db, row.name, siteId, roots);
  }

  /** Write fields with the hooks and the change's event in one unit of work (write.ts), then drop the record. */
  private async write(name: string, fields: ProjectFields, by: ChangedBy): Promise<void> {
    const deps = {
      db: this.db,
      events: this.events,
      hooks: this.hooks,
      record: (row: Row) => this.record(row),
    };
    await writeProject(deps, name, fields, by);
    this.forget(name);
  }

  /** An anatomy document checked, or ValidationFailed with its problems. */
  private validAnatomy(document: Json, loc: string[]) {
    const { anatomy, problems } = this.anatomy.validate(document, loc);
    if (!anatomy) throw new ValidationFailed(problems, 'The anatomy is not valid');
    return anatomy;
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
