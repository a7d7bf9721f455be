import { createServiceRef, type RequestUser } from '@pipewright/sdk';
import type { FieldChange } from '@pipewright/plugin-entities/api';

/**
 * Provided by the history addon, for changes of an entity that do not pass through the entities write path (its
 * links): recorded as the entities addon's own are.
 */
export interface FieldHistory {
  /** Record changes inside the open unit of work of the write they belong to: a rollback takes them back too. */
  record(projectName: string, caller: RequestUser, changes: readonly FieldChange[]): Promise<void>;
}

/** The field history service of the history addon. */
export const historyRef = createServiceRef<FieldHistory>({ addon: 'history', id: 'history' });
