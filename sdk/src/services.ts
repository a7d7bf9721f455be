import type { FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { User, UserRecord } from './user-view.js';
import type { AccessControl, Permissions } from './access.js';
import type { BundleDirectory } from './bundles.js';
import type { AddonSettings } from './settings.js';
import type { ProjectFiles } from './files.js';
import type { ChangedBy, RequestUser } from './request.js';
import type {
  AnatomyPresets,
  AttributeLibrary,
  EntityDirectory,
  LinkDirectory,
  EntityThumbnails,
  ProjectDirectory,
  TeamDirectory,
} from './project-services.js';

/** Where the auth addon finds users: the extension point the users addon (or an LDAP/SSO addon) fills. */
export interface UserSource {
  /** Look a user up by name, case-insensitively. */
  get(name: string): Promise<UserRecord | null>;
  /** The user whose password this is, if the user may log in with a password. */
  authenticate(name: string, password: string): Promise<UserRecord | null>;
  /** The active user owning this API key, if the key is valid and not expired. */
  findByApiKey(key: string): Promise<UserRecord | null>;
  /** The user as the API shows it to the user themself (presentUser unless the source hides more). */
  present(user: UserRecord): Static<typeof User>;
}

/** The studio section of a user's permissions. */
export type StudioPermissions = Permissions['studio'];

/** Work that carries a user's new name into an addon's own tables, inside the rename's transaction. */
export type UserRenameHook = (oldName: string, newName: string) => Promise<void>;

/** Provided by the users addon: the user directory, beyond what auth needs. */
export interface UserDirectory extends UserSource {
  /** Every user by name, optionally only the active or inactive ones. */
  list(filter?: { active?: boolean }): Promise<UserRecord[]>;
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

/** What login, onboarding and password reset answer: AYON's LoginResponseModel, its unset fields null. */
export interface LoginResponse {
  detail: string;
  error: string | null;
  token: string;
  user: Record<string, unknown>;
  /** Where the web app should go next (a login link may name it). */
  redirectUrl: string | null;
}

/** Information about the client, taken from the request (ip, x-ayon-site-id, x-ayon-platform, ...). */
export type ClientInfo = Record<string, string | null>;

/** Provided by the auth addon: sessions that outlive a process and are shared by all of them. */
export interface AuthService {
  /** Register the source of users; exactly one addon does this. */
  setUserSource(source: UserSource): void;
  /** Open a session for a user, remembering the client that asked, and answer as a successful login does. */
  login(user: UserRecord, request: FastifyRequest): Promise<LoginResponse>;
  /**
   * End every session of a user (deactivated, deleted, password changed), optionally keeping one. Inside a unit
   * of work it joins the transaction, so the sessions end only if the change that ends them commits.
   */
  closeSessions(userName: string, options?: { except?: string | null }): Promise<void>;
  /** Carry a user's sessions over to the user's new name (inside the rename's unit of work). */
  renameSessions(oldName: string, newName: string): Promise<void>;
  /** A user's record or API keys changed: identities the server remembers are looked up again. */
  userChanged(): Promise<void>;
  /** The request identity of a stored user. */
  toRequestUser(user: UserRecord, session: { sessionId: string | null; isApiKey: boolean }): RequestUser;
}

/**
 * Services addons provide to each other, by name. Addons that provide a service of their own can extend this
 * interface by declaration merging, so ctx.use('name') is typed for their dependants.
 */
export interface ServiceMap {
  auth: AuthService;
  users: UserDirectory;
  attributes: AttributeLibrary;
  anatomy: AnatomyPresets;
  projects: ProjectDirectory;
  entities: EntityDirectory;
  links: LinkDirectory;
  access: AccessControl;
  bundles: BundleDirectory;
  settings: AddonSettings;
  teams: TeamDirectory;
  thumbnails: EntityThumbnails;
  files: ProjectFiles;
}
