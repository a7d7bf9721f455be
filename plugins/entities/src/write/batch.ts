import type {
  AttributeAccess,
  Database,
  EventInput,
  FolderAccessKind,
  FolderScope,
  RequestUser,
} from '@pipewright/sdk';
import type { AttributeLibrary } from '@pipewright/plugin-attributes/api';
import type { FieldChange } from '../api.js';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import type { FolderAccess } from '../access.js';
import type { EntityType } from '../entity-types.js';

export type Json = Record<string, unknown>;
export type Row = Record<string, any>;

/** A row a committed transaction wrote: before is null for a new row, after null for a deleted one. */
export interface RowChange {
  type: EntityType;
  before: Row | null;
  after: Row | null;
}

/** Other addons' clean-up of what refers to deleted entities, run in the deleting transaction. */
export type DeleteHook = (projectName: string, removed: { type: EntityType; id: string }[]) => Promise<void>;

/**
 * Buffered rows per table, each with the operation that made it. Kept apart so that a client creating each folder
 * followed by its tasks (as most do) still gets one multi-row INSERT per table, not one per operation.
 */
export interface PendingRows {
  tables: Map<string, Json[]>;
  size: number;
}

/**
 * Everything one batch needs while it runs, handed to every write stage; events and changes wait here until the
 * transaction commits. Queries go through db, which the open unit of work turns into its transaction.
 */
export interface Batch {
  db: Database;
  attributes: AttributeLibrary;
  access: FolderAccess;
  deleteHooks: readonly DeleteHook[];
  caller: RequestUser;
  project: ProjectRecord;
  schema: string;
  inheritable: string[];
  events: EventInput[];
  changes: RowChange[];
  /** The fields changed, one by one, for the write hooks (field history). */
  fields: FieldChange[];
  /** Folders created earlier in this batch: later operations find their parents here instead of re-reading them. */
  created: Map<string, Row>;
  /**
   * Rows the batch's updates change, read and locked together when it starts (all-or-nothing batches only): each is
   * taken once, and all are forgotten when a write may have changed others (a move, a rename, inheritance, a delete).
   */
  locked: Map<string, Row>;
  /** Rows waiting to be written together (all-or-nothing batches only). */
  pending: PendingRows | null;
  /** Buffered batches: the index of the operation creating each id the operations give. */
  createdBy?: Map<string, number>;
  /** The buffered rows the database is writing now, if any. */
  writing: Promise<void> | null;
  buffered: boolean;
  /** Index of the operation being applied. */
  current: number;
  /** The caller's folder whitelist per kind of write, read once per batch (null: unrestricted). */
  scopes: Map<FolderAccessKind, FolderScope | null>;
  /** The attributes and fields the caller may change, once read (undefined: not asked yet; null: unrestricted). */
  fieldAccess?: AttributeAccess | null;
}
