import { createServiceRef } from '@pipewright/sdk';
import type { Permissions, RequestUser, UserRecord } from '@pipewright/sdk';
import type { ChangedBy } from './user-event.js';
import type { UserSource } from '@pipewright/plugin-auth/api';

/** The studio section of a user's permissions. */
export type StudioPermissions = Permissions['studio'];

/** Work that carries a user's new name into an addon's own tables, inside the rename's transaction. */
export type UserRenameHook = (oldName: string, newName: string) => Promise<void>;

/** Which users a page of the directory holds, as AYON's GraphQL users field narrows them. */
export interface UserListing {
  /** Only this user, matched without case (a caller who may list nobody else). */
  onlyUser?: string;
  /** A name pattern, matched without case (SQL ILIKE). */
  namePattern?: string;
  names?: string[];
  /** Matched without case. */
  emails?: string[];
  /** The people of any of these projects: managers, administrators, and holders of access groups there. */
  projects?: string[];
  /** Name bounds, exclusive (cursors). */
  after?: string;
  before?: string;
  descending: boolean;
  limit: number;
}

/** A user as a listing page holds them: the record and the preview of their newest API key. */
export type ListedUser = UserRecord & { apiKeyPreview: string | null };

/** Provided by the users addon: the user directory, beyond what auth needs. */
export interface UserDirectory extends UserSource {
  /** Every user by name, optionally only the active or inactive ones. */
  list(filter?: { active?: boolean }): Promise<UserRecord[]>;
  /** A page of users by name as a listing narrows them, filtered and paged in SQL (GraphQL's users field). */
  listPage(listing: UserListing): Promise<ListedUser[]>;
  /**
   * Change a user: attrib and data are merged as JSON merge patches (null removes a key, lists are replaced).
   * Inside a unit of work it joins the transaction, so several users change together or not at all. Its
   * user.updated event names by.fields (by default the patch's keys).
   */
  update(
    name: string,
    patch: { active?: boolean; attrib?: Record<string, unknown>; data?: Record<string, unknown> },
    by?: ChangedBy & { fields?: string[] },
  ): Promise<UserRecord>;
  /** True when at least one active administrator exists (inside a unit of work, as its transaction sees it). */
  hasAdmin(): Promise<boolean>;
  /** 422 at loc when a password breaks the operator's rules (PASSWORD_MIN_LENGTH). */
  requirePassword(password: string, loc: (string | number)[]): void;
  /**
   * What the caller may do studio-wide (AYON's studio permissions: create_projects, list_all_users): everything
   * for managers and above, for others what their default access groups grant (nothing without the access addon).
   */
  studioPermissions(caller: RequestUser): Promise<StudioPermissions>;
  /** Where studio permissions of normal users come from: the access addon registers itself here. */
  setStudioPermissionSource(source: (caller: RequestUser) => Promise<StudioPermissions>): void;
  /**
   * Run `hook` inside every rename's transaction: what names the user elsewhere (assignees, authors, owners,
   * views) follows in the same commit, or nothing does. AYON's rename_user carries the same references.
   */
  onRename(hook: UserRenameHook): void;
  /**
   * Create a user, with its user.created event; inside a unit of work (onboarding, invitations, setup templates)
   * it joins the transaction.
   */
  create(
    user: {
      name: string;
      password?: string;
      attrib?: Record<string, unknown>;
      data?: Record<string, unknown>;
    },
    by?: ChangedBy,
  ): Promise<UserRecord>;
}

/** The users service of the users addon. */
export const usersRef = createServiceRef<UserDirectory>({ addon: 'users', id: 'users' });
