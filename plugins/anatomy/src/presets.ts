import { sql } from 'kysely';
import { Value } from '@sinclair/typebox/value';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import {
  Conflict,
  NotFound,
  ValidationFailed,
  type Database,
  type EventBus,
  type Problem,
} from '@pipewright/sdk';
import type { Anatomy, AnatomyPresets, ProjectLayout } from './api.js';
import { builtinAnatomy } from './builtin.js';
import { fromProject, toProject } from './layout.js';
import { AnatomyDocument } from './schemas.js';

const PRESET_CHANGED = 'anatomy.preset.changed';

type Json = Record<string, unknown>;
type Loc = (string | number)[];

/** "_" stands for whichever anatomy is in force: the primary preset, else the built-in. */
export const BUILTIN_NAME = '_';
/** AYON's clients ask for the anatomy in force as "__primary__", and for the built-in one as "__builtin__". */
const PRIMARY_ALIAS = '__primary__';
const BUILTIN_ALIAS = '__builtin__';

/** Names that address an anatomy rather than a stored preset. */
const isReference = (name: string) =>
  name === BUILTIN_NAME || name === PRIMARY_ALIAS || name === BUILTIN_ALIAS;

export interface PresetSummary {
  name: string;
  primary: boolean;
  createdAt?: string;
  updatedAt?: string;
}

// Ajv keyword names, so problems from the service read like the ones the core reports for route schemas.
const KEYWORDS: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.ObjectRequiredProperty]: 'required',
  [ValueErrorType.ObjectAdditionalProperties]: 'additionalProperties',
  [ValueErrorType.StringPattern]: 'pattern',
  [ValueErrorType.StringMinLength]: 'minLength',
  [ValueErrorType.StringMaxLength]: 'maxLength',
  [ValueErrorType.IntegerMinimum]: 'minimum',
  [ValueErrorType.IntegerMaximum]: 'maximum',
  [ValueErrorType.NumberMinimum]: 'minimum',
  [ValueErrorType.NumberMaximum]: 'maximum',
  [ValueErrorType.NumberExclusiveMinimum]: 'exclusiveMinimum',
  [ValueErrorType.Kind]: 'enum',
};

function pathOf(path: string): Loc {
  return path
    .split('/')
    .filter(Boolean)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function toProblem(error: ValueError, loc: Loc): Problem {
  const enumValues = (error.schema as { enum?: string[] }).enum;
  const msg =
    error.type === ValueErrorType.Kind && enumValues
      ? `must be one of ${enumValues.map((v) => `'${v}'`).join(', ')}`
      : error.message.charAt(0).toLowerCase() + error.message.slice(1);
  return { loc: [...loc, ...pathOf(error.path)], msg, type: KEYWORDS[error.type] ?? 'type' };
}

/** Fill the parts a document leaves out from the built-in; templates and attributes are merged key by key. */
function fillFromBuiltin(document: Json): Anatomy {
  const base = builtinAnatomy() as unknown as Json;
  const given = Object.fromEntries(Object.entries(document).filter(([, value]) => value !== undefined));
  return {
    ...base,
    ...given,
    templates: { ...(base.templates as Json), ...((given.templates as Json | undefined) ?? {}) },
    attributes: { ...(base.attributes as Json), ...((given.attributes as Json | undefined) ?? {}) },
  } as unknown as Anatomy;
}

// Names are compared without case: "Approved" and "approved" would look like one status to an artist.
function duplicates<T>(
  items: T[],
  key: (item: T) => string,
  where: (index: number) => Loc,
  what: string,
): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  items.forEach((item, index) => {
    const k = key(item).toLowerCase();
    if (seen.has(k))
      problems.push({
        loc: where(index),
        msg: `${what} '${key(item)}' is defined more than once`,
        type: 'value_error.duplicate',
      });
    seen.add(k);
  });
  return problems;
}

function duplicateProblems(anatomy: Anatomy, loc: Loc): Problem[] {
  const at = (part: string, field?: string) => (index: number) =>
    field ? [...loc, part, index, field] : [...loc, part, index];
  return [
    ...duplicates(anatomy.roots, (r) => r.name, at('roots', 'name'), 'root'),
    ...duplicates(anatomy.folder_types, (t) => t.name, at('folder_types', 'name'), 'folder type'),
    ...duplicates(anatomy.task_types, (t) => t.name, at('task_types', 'name'), 'task type'),
    ...duplicates(anatomy.statuses, (s) => s.name, at('statuses', 'name'), 'status'),
    ...duplicates(anatomy.tags, (t) => t.name, at('tags', 'name'), 'tag'),
    ...duplicates(
      anatomy.link_types,
      (l) => `${l.link_type}|${l.input_type}|${l.output_type}`,
      at('link_types'),
      'link type',
    ),
  ];
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
const iso = (value: unknown) =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

/** Refuse "_" where a stored preset's name is meant: it always addresses the anatomy in force. */
export function requireStoredName(name: string, loc: Loc): void {
  if (isReference(name)) {
    throw new ValidationFailed(
      [
        {
          loc,
          msg: `'${name}' is reserved: it refers to an anatomy and cannot name a stored preset`,
          type: 'value_error.reserved',
        },
      ],
      `'${name}' is reserved: it refers to an anatomy`,
    );
  }
}

/** Stored anatomy presets and the translation between an anatomy and a project's fields. */
export class AnatomyPresetService implements AnatomyPresets {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
  ) {}

  async get(name: string): Promise<Anatomy> {
    if (name === BUILTIN_ALIAS) return builtinAnatomy();
    if (name === PRIMARY_ALIAS) name = BUILTIN_NAME;
    const row =
      name === BUILTIN_NAME
        ? await this.db
            .selectFrom('anatomy_presets')
            .select('data')
            .where('is_primary', '=', true)
            .executeTakeFirst()
        : await this.db
            .selectFrom('anatomy_presets')
            .select('data')
            .where('name', '=', name)
            .executeTakeFirst();
    if (row) return fillFromBuiltin(row.data as Json);
    if (name === BUILTIN_NAME) return builtinAnatomy();
    throw new NotFound(`Anatomy preset ${name} not found`);
  }

  validate(document: unknown, loc: Loc): { anatomy: Anatomy | null; problems: Problem[] } {
    // Defaults are applied to a copy so the caller's document is never changed behind its back.
    const candidate = Value.Default(AnatomyDocument, structuredClone(document));
    const schemaProblems = [...Value.Errors(AnatomyDocument, candidate)].map((error) =>
      toProblem(error, loc),
    );
    if (schemaProblems.length) return { anatomy: null, problems: schemaProblems };
    const anatomy = fillFromBuiltin(candidate as Json);
    const problems = duplicateProblems(anatomy, loc);
    return problems.length ? { anatomy: null, problems } : { anatomy, problems };
  }

  /** The filled anatomy of a document, or ValidationFailed with every problem under loc. */
  require(document: unknown, loc: Loc): Anatomy {
    const { anatomy, problems } = this.validate(document, loc);
    if (!anatomy) throw new ValidationFailed(problems, 'Invalid anatomy');
    return anatomy;
  }

  toProject(anatomy: Anatomy): ProjectLayout {
    return toProject(anatomy);
  }

  fromProject(project: ProjectLayout): Anatomy {
    return fromProject(project);
  }

  /** The built-in first, then stored presets by name. */
  async list(): Promise<PresetSummary[]> {
    const rows = await this.db
      .selectFrom('anatomy_presets')
      .select(['name', 'is_primary', 'created_at', 'updated_at'])
      .orderBy('name')
      .execute();
    const stored = rows.map((row) => ({
      name: row.name as string,
      primary: row.is_primary as boolean,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
    }));
    return [{ name: BUILTIN_NAME, primary: !stored.some((p) => p.primary) }, ...stored];
  }

  /** Create or replace a preset. A replaced preset keeps its primary flag. */
  async put(name: string, anatomy: Anatomy, actor: string): Promise<void> {
    await this.db.transaction().execute(async () => {
      const row = await this.db
        .insertInto('anatomy_presets')
        .values({ name, data: JSON.stringify(anatomy) })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet({ data: JSON.stringify(anatomy), updated_at: sql`now()` }),
        )
        // xmax is non-zero only for a row the upsert updated: the one trustworthy way to tell insert from update.
        .returning(sql<boolean>`xmax <> 0`.as('replaced'))
        .executeTakeFirstOrThrow();
      await this.changed(name, row.replaced ? 'updated' : 'created', actor);
    });
  }

  /** Make a preset the one "_" serves; "_" itself means "serve the built-in", so it clears the flag everywhere. */
  async setPrimary(name: string, actor: string): Promise<void> {
    const primary = isReference(name) ? BUILTIN_NAME : name;
    try {
      await this.db.transaction().execute(async (trx) => {
        if (primary !== BUILTIN_NAME) await this.requireExists(primary);
        await trx
          .updateTable('anatomy_presets')
          .set({ is_primary: false })
          .where('is_primary', '=', true)
          .where('name', '<>', primary)
          .execute();
        if (primary !== BUILTIN_NAME)
          await trx
            .updateTable('anatomy_presets')
            .set({ is_primary: true })
            .where('name', '=', primary)
            .execute();
        await this.changed(name, 'primary-set', actor);
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new Conflict(
          'Another preset was made primary at the same moment; try again',
          'primary-conflict',
        );
      throw error;
    }
  }

  /** Stop serving a preset as "_" (a no-op when it is not primary); for "_" any primary preset is unset. */
  async unsetPrimary(name: string, actor: string): Promise<void> {
    await this.db.transaction().execute(async () => {
      const unset = this.db.updateTable('anatomy_presets').set({ is_primary: false });
      if (isReference(name)) await unset.where('is_primary', '=', true).execute();
      else {
        const result = await unset.where('name', '=', name).executeTakeFirst();
        if (result.numUpdatedRows === 0n) throw new NotFound(`Anatomy preset ${name} not found`);
      }
      await this.changed(name, 'primary-unset', actor);
    });
  }

  async rename(name: string, newName: string, actor: string): Promise<void> {
    try {
      await this.db.transaction().execute(async () => {
        const result = await this.db
          .updateTable('anatomy_presets')
          .set({ name: newName, updated_at: sql`now()` })
          .where('name', '=', name)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) throw new NotFound(`Anatomy preset ${name} not found`);
        await this.changed(newName, 'renamed', actor, { oldName: name });
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new Conflict(`An anatomy preset named ${newName} already exists`, 'preset-exists');
      throw error;
    }
  }

  async remove(name: string, actor: string): Promise<void> {
    await this.db.transaction().execute(async () => {
      const result = await this.db.deleteFrom('anatomy_presets').where('name', '=', name).executeTakeFirst();
      if (result.numDeletedRows === 0n) throw new NotFound(`Anatomy preset ${name} not found`);
      await this.changed(name, 'deleted', actor);
    });
  }

  /**
   * The event of a preset's change, in the change's unit of work. Clients cache anatomies (the web app's status
   * pickers, the launcher's templates): one topic tells them to reload.
   */
  private changed(presetName: string, action: string, actor: string, summary: Record<string, unknown> = {}) {
    return this.events.emit({
      topic: PRESET_CHANGED,
      user: actor,
      description: `Anatomy preset ${presetName}: ${action}`,
      summary: { presetName, action, ...summary },
    });
  }

  private async requireExists(name: string): Promise<void> {
    const row = await this.db
      .selectFrom('anatomy_presets')
      .select('name')
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) throw new NotFound(`Anatomy preset ${name} not found`);
  }
}
