import { Conflict, type Database, type EventBus, type RequestUser } from '@pipewright/sdk';
import type { ProjectChange, ProjectRecord } from './api.js';
import { columns, takeRenames, uniqueViolation, type ProjectFields } from './columns.js';
import { projectEvent } from './events.js';
import { updateRow, type Row } from './store.js';

// Changing an existing project: its columns, the hooks of dependent addons and the change's event, in one unit of
// work, so derived data never lags behind.

/** An addon's hook, run inside the unit of work that changes a project. */
export type ChangeHook = (project: ProjectRecord, change: ProjectChange) => Promise<void>;

/** What a write needs of the service. */
export interface WriteDeps {
  db: Database;
  events: EventBus;
  hooks: ChangeHook[];
  record: (row: Row) => Promise<ProjectRecord>;
}

/** Who changes the project, and which fields the event names (none for a whole replacement). */
export interface ChangedBy {
  caller: RequestUser;
  fields?: string[];
}

/** The columns to write, and the change the hooks are told of (renames taken out of the items). */
function planWrite(fields: ProjectFields): { values: Record<string, unknown>; change: ProjectChange } {
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
  return { values, change };
}

/**
 * Write fields in one transaction with the hooks of dependent addons, and the change's event (sent even when no
 * field changes, as AYON does).
 */
export async function writeProject(
  deps: WriteDeps,
  name: string,
  fields: ProjectFields,
  by: ChangedBy,
): Promise<void> {
  const { values, change } = planWrite(fields);
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (Object.keys(values).length) {
        const row = await updateRow(trx, name, values);
        if (deps.hooks.length) {
          const project = await deps.record(row);
          for (const hook of deps.hooks) await hook(project, change);
        }
      }
      const summary = by.fields ? { fields: by.fields } : {};
      await deps.events.emit(projectEvent('entity.project.changed', name, by.caller, summary));
    });
  } catch (error) {
    if (uniqueViolation(error) === 'code')
      throw new Conflict('That project code is already used by another project', 'unique-violation');
    throw error;
  }
}
