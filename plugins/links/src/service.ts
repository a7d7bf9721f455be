import { sql, type RawBuilder } from 'kysely';
import {
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  PROJECT_ENTITY_TYPES,
  ValidationFailed,
  isManagerOrAbove,
  isoTime,
  newId,
  type Database,
  type EventBus,
  type ProjectEntityType,
  type RequestUser,
  type Static,
} from '@pipewright/sdk';
import type { EntityDirectory, FieldChange } from '@pipewright/plugin-entities/api';
import type { FieldHistory } from '@pipewright/plugin-history/api';
import type { LinkQuery, LinkRecord } from './api.js';
import type { ProjectDirectory, ProjectRecord } from '@pipewright/plugin-projects/api';
import { DEFAULT_COLOR, DEFAULT_STYLE, normalise, splitLinkType, type LinkTypeRecord } from './link-types.js';
import type { Link, LinkCreate } from './schemas.js';

type Json = Record<string, unknown>;
type Row = Record<string, any>;
const INVALID_REGEX = '2201B';

function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code !== '23505') return null;
  return `${e.constraint ?? ''} ${e.message ?? ''}`;
}

/**
 * A link made or removed, in the history of both its ends: the field "links", the link (its id, type and other
 * end) the new value when it was made, the old one when it was removed.
 */
function linkChanges(
  what: 'created' | 'deleted',
  id: string,
  linkType: string,
  inputId: string,
  outputId: string,
): FieldChange[] {
  const { input, output } = splitLinkType(linkType);
  const plain = (entityId: string) => entityId.replaceAll('-', '');
  const end = (
    entityType: string,
    entityId: string,
    direction: 'in' | 'out',
    other: string,
    otherType: string,
  ) => {
    const link = { id: plain(id), linkType, direction, entityType: otherType, entityId: plain(other) };
    return {
      entityType: entityType as FieldChange['entityType'],
      entityId: plain(entityId),
      field: 'links',
      oldValue: what === 'deleted' ? link : null,
      newValue: what === 'created' ? link : null,
    };
  };
  return [end(input, inputId, 'out', outputId, output), end(output, outputId, 'in', inputId, input)];
}

/** Links between entities of one project, and the link types the project declares. */
export class LinkService {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly projects: ProjectDirectory,
    private readonly entities: EntityDirectory,
    private readonly history: FieldHistory,
    private readonly schemaName: (project: string) => string,
  ) {}

  private links(project: string) {
    return this.db.withSchema(this.schemaName(project));
  }

  async listTypes(caller: RequestUser, projectName: string): Promise<LinkTypeRecord[]> {
    const project = await this.projects.require(caller, projectName);
    return project.linkTypes.map(normalise);
  }

  /** Create the link type, or replace the data of an existing one; it keeps its place in the list. */
  async saveType(caller: RequestUser, projectName: string, name: string, data: Json): Promise<void> {
    const project = await this.requireManaged(caller, projectName);
    const { type, input, output } = splitLinkType(name);
    const item: LinkTypeRecord = {
      name,
      link_type: type,
      input_type: input,
      output_type: output,
      data: { ...data, color: data.color ?? DEFAULT_COLOR, style: data.style ?? DEFAULT_STYLE },
    };
    const current = project.linkTypes.map(normalise);
    const at = current.findIndex((existing) => existing.name === name);
    const linkTypes =
      at === -1 ? [...current, item] : current.map((existing, index) => (index === at ? item : existing));
    await this.projects.patch(caller, project.name, { linkTypes });
  }

  /**
   * Remove a link type. Its links go in the same transaction as the project change, through the project change
   * hook (see dropUntypedLinks), so a failed change leaves both in place.
   */
  async deleteType(caller: RequestUser, projectName: string, name: string): Promise<void> {
    const project = await this.requireManaged(caller, projectName);
    const current = project.linkTypes.map(normalise);
    if (!current.some((item) => item.name === name))
      throw new NotFound(`Link type ${name} not found in project ${project.name}`);
    const linkTypes = current.filter((item) => item.name !== name);
    await this.projects.patch(caller, project.name, { linkTypes });
  }

  async create(caller: RequestUser, projectName: string, body: Static<typeof LinkCreate>): Promise<string> {
    const project = await this.projects.require(caller, projectName);
    // linkType wins over the older "link".
    const linkType = body.linkType ?? body.link;
    // AYON answers a missing, malformed or undeclared link type with 400.
    if (!linkType) throw new BadRequest('Link type is not specified', 'missing-link-type');
    const { type, input, output } = splitLinkType(linkType);
    if (!project.linkTypes.some((item) => normalise(item).name === linkType))
      throw new BadRequest(
        `Unsupported link type: project ${project.name} has no ${linkType}`,
        'unknown-link-type',
      );
    if (input === output && body.input === body.output)
      throw new BadRequest('Cannot link an entity to itself', 'self-link');
    await this.requireEntity(caller, project, input, body.input, 'input', linkType);
    await this.requireEntity(caller, project, output, body.output, 'output', linkType);

    const id = body.id ?? newId();
    try {
      await this.db.transaction().execute(async () => {
        await this.links(project.name)
          .insertInto('links')
          .values({
            id,
            name: body.name ?? null,
            link_type: linkType,
            input_id: body.input,
            output_id: body.output,
            author: caller.name,
            data: JSON.stringify(body.data ?? {}),
          })
          .execute();
        await this.emit('link.created', project.name, caller, id, linkType, body.input, body.output);
        await this.history.record(
          project.name,
          caller,
          linkChanges('created', id, linkType, body.input, body.output),
        );
      });
    } catch (error) {
      const clash = uniqueViolation(error);
      if (clash === null) throw error;
      if (clash.includes('pkey'))
        throw new Conflict(`A link with id ${id} already exists`, 'unique-violation');
      throw new Conflict(
        `This ${type} link between ${input} ${body.input} and ${output} ${body.output} already exists`,
        'unique-violation',
      );
    }
    return id;
  }

  /** Links for readers that checked access already (GraphQL): see LinkDirectory.query. */
  /** See LinkDirectory.presence: "in" means the entity is some link's output, "out" some link's input. */
  presence(projectName: string, mode: 'none' | 'in' | 'out' | 'any' | 'both') {
    const links = sql.table(`${this.schemaName(projectName)}.links`);
    return (id: RawBuilder<unknown>): RawBuilder<boolean> => {
      const asOutput = sql<boolean>`EXISTS (SELECT 1 FROM ${links} l WHERE l.output_id = ${id})`;
      const asInput = sql<boolean>`EXISTS (SELECT 1 FROM ${links} l WHERE l.input_id = ${id})`;
      switch (mode) {
        case 'in':
          return asOutput;
        case 'out':
          return asInput;
        case 'any':
          return sql<boolean>`(${asOutput} OR ${asInput})`;
        case 'both':
          return sql<boolean>`(${asOutput} AND ${asInput})`;
        case 'none':
          return sql<boolean>`NOT (${asOutput} OR ${asInput})`;
      }
    };
  }

  /** Full names of the link types the project's links use. */
  async usedTypes(projectName: string): Promise<string[]> {
    const project = await this.projects.find(projectName);
    if (!project) throw new NotFound(`Project ${projectName} not found`);
    const rows = await this.links(project.name)
      .selectFrom('links')
      .select('link_type')
      .distinct()
      .orderBy('link_type')
      .execute();
    return rows.map((row) => row.link_type as string);
  }

  async query(projectName: string, query: LinkQuery): Promise<LinkRecord[]> {
    const project = await this.projects.find(projectName);
    if (!project) throw new NotFound(`Project ${projectName} not found`);
    let select = this.links(project.name).selectFrom('links').selectAll().orderBy('creation_order');
    const ids = query.entityIds;
    if (ids) {
      if (ids.length === 0) return [];
      // One array parameter, however many ids (PostgreSQL binds at most 65,535 parameters to a statement).
      const list = sql`${ids}::uuid[]`;
      select = select.where(
        query.direction === 'in'
          ? sql<boolean>`output_id = ANY(${list})`
          : query.direction === 'out'
            ? sql<boolean>`input_id = ANY(${list})`
            : sql<boolean>`(input_id = ANY(${list}) OR output_id = ANY(${list}))`,
      );
    }
    // A link type is named in full ("reference|version|version") or by its bare type ("reference").
    const types = query.linkTypes;
    if (types?.length)
      select = select.where(
        sql<boolean>`(link_type = ANY(${types}::text[]) OR split_part(link_type, '|', 1) = ANY(${types}::text[]))`,
      );
    if (query.names?.length) select = select.where(sql<boolean>`name = ANY(${query.names}::text[])`);
    if (query.nameEx !== undefined) select = select.where(sql<boolean>`name ~ ${query.nameEx}`);
    const rows = await select.execute().catch((error) => {
      if ((error as { code?: string }).code === INVALID_REGEX)
        throw new ValidationFailed([
          { loc: ['nameEx'], msg: 'not a valid regular expression', type: 'value_error.regex' },
        ]);
      throw error;
    });
    return rows.map((row) => {
      const { type, input, output } = splitLinkType(row.link_type);
      return {
        id: row.id,
        name: row.name,
        linkType: type,
        inputId: row.input_id,
        inputType: input,
        outputId: row.output_id,
        outputType: output,
        author: row.author,
        data: row.data,
        createdAt: isoTime(row.created_at),
      };
    });
  }

  async get(caller: RequestUser, projectName: string, id: string): Promise<Static<typeof Link>> {
    const project = await this.projects.require(caller, projectName);
    const row = await this.find(project.name, id);
    // A link between entities the caller may not read is as missing as they are.
    const { input, output } = splitLinkType(row.link_type);
    const ends = await Promise.all([
      this.entities.get(project.name, input, row.input_id, caller),
      this.entities.get(project.name, output, row.output_id, caller),
    ]);
    if (ends.includes(null)) throw new NotFound(`Link ${id} not found in project ${project.name}`);
    return {
      id: row.id,
      name: row.name,
      linkType: row.link_type,
      input: row.input_id,
      output: row.output_id,
      author: row.author,
      data: row.data,
      createdAt: isoTime(row.created_at),
    };
  }

  /** Normal users remove only the links they made; managers any. */
  async remove(caller: RequestUser, projectName: string, id: string): Promise<void> {
    const project = await this.projects.require(caller, projectName);
    const row = await this.find(project.name, id);
    if (row.author !== caller.name && !isManagerOrAbove(caller))
      throw new Forbidden('You may delete only the links you created');
    const { link_type: linkType, input_id: inputId, output_id: outputId } = row;
    await this.db.transaction().execute(async () => {
      await this.links(project.name).deleteFrom('links').where('id', '=', id).execute();
      await this.emit('link.deleted', project.name, caller, id, linkType, inputId, outputId);
      await this.history.record(
        project.name,
        caller,
        linkChanges('deleted', id, linkType, inputId, outputId),
      );
    });
  }

  /** Entity delete hook: the entity's links go with it, in its unit of work. */
  async dropEntityLinks(projectName: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.links(projectName)
      .deleteFrom('links')
      .where(sql<boolean>`(input_id = ANY(${ids}::uuid[]) OR output_id = ANY(${ids}::uuid[]))`)
      .execute();
  }

  /**
   * Project change hook: links whose type the project no longer declares are removed with the change, whichever
   * route made it (our DELETE, PATCH /api/projects, a new anatomy).
   */
  async dropUntypedLinks(project: ProjectRecord): Promise<void> {
    const names = project.linkTypes.map((item) => normalise(item).name);
    await this.links(project.name)
      .deleteFrom('links')
      .where(sql<boolean>`NOT (link_type = ANY(${names}::text[]))`)
      .execute();
  }

  private async requireManaged(caller: RequestUser, projectName: string): Promise<ProjectRecord> {
    const project = await this.projects.require(caller, projectName);
    if (!isManagerOrAbove(caller)) throw new Forbidden('Only managers may change link types');
    return project;
  }

  private async find(projectName: string, id: string): Promise<Row> {
    const row = await this.links(projectName)
      .selectFrom('links')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFound(`Link ${id} not found in project ${projectName}`);
    return row;
  }

  /**
   * 404 when the id names no entity at all; 422 when it names an entity of another type, which is a mistake in
   * the request rather than something missing. The other types are only looked at on that failure path.
   */
  private async requireEntity(
    caller: RequestUser,
    project: ProjectRecord,
    type: ProjectEntityType,
    id: string,
    field: 'input' | 'output',
    linkType: string,
  ): Promise<void> {
    if (await this.entities.get(project.name, type, id, caller)) return;
    for (const other of PROJECT_ENTITY_TYPES) {
      if (other === type || !(await this.entities.get(project.name, other, id, caller))) continue;
      throw new ValidationFailed([
        {
          loc: ['body', field],
          msg: `${field} ${id} is a ${other}, but link type ${linkType} joins a ${type}`,
          type: 'entity_type_mismatch',
        },
      ]);
    }
    throw new NotFound(
      `${field === 'input' ? 'Input' : 'Output'} ${type} ${id} not found in project ${project.name}`,
    );
  }

  /** The event of a link's change, in the change's unit of work. */
  private async emit(
    topic: string,
    project: string,
    caller: RequestUser,
    id: string,
    linkType: string,
    inputId: string,
    outputId: string,
  ) {
    const { type, input, output } = splitLinkType(linkType);
    // AYON clients read linkType (the short name), inputType/outputType and inputId/outputId from the summary;
    // input and output repeat the ids under the names the link itself uses.
    const summary = {
      id,
      linkType: type,
      inputType: input,
      outputType: output,
      inputId,
      outputId,
      input: inputId,
      output: outputId,
    };
    const verb = topic === 'link.created' ? 'Created' : 'Deleted';
    await this.events.emit({
      topic,
      project,
      user: caller.name,
      summary,
      description: `${verb} ${type} link between ${input} ${inputId} and ${output} ${outputId}`,
    });
  }
}
