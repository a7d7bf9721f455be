import type { IncomingMessage, ServerResponse, Server } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TObject } from '@sinclair/typebox';
import type { Kysely, Transaction } from 'kysely';
import type { AddonActions } from './actions.js';
import type { EventBus } from './events.js';
import { createServiceRef, type ServiceRef, type ServiceRefs, type ServicesOf } from './service-ref.js';
import type { SettingsModel, SiteSettingsModel } from './settings.js';

/** The Fastify instance an addon registers its routes on, with TypeBox typing of request and reply. */
export type AddonApp = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The database handle addons receive: a Kysely instance over PGlite or a PostgreSQL server. */
export type Database = Kysely<any>;
export type DatabaseTransaction = Transaction<any>;

/**
 * A forward-only migration. Studio migrations run in the public schema; project migrations run once in
 * every project_<name> schema with search_path set to that schema (then public), so plain table names work.
 */
export interface Migration {
  name: string;
  /** Apply the change; runs once, inside the migration's transaction. */
  up(db: DatabaseTransaction): Promise<unknown>;
}

/** A Module Federation remote an addon's UI exposes, served under /addons/{name}/{version}/frontend/. */
export interface FrontendScope {
  /** Who sees it: everyone by default. */
  access?: 'admin' | 'manager' | 'user';
  /** Shown in the sidebar of its scope. */
  sidebar?: string;
  [option: string]: unknown;
}

/** A background process the addon wants run by a service host (described here, never started by the server). */
export interface AddonServiceDescription {
  image?: string;
  env?: Record<string, string>;
  [field: string]: unknown;
}

/** Everything an addon declares about itself. */
export interface AddonDefinition<D extends ServiceRefs = ServiceRefs> {
  /** Lowercase identifier, also the URL segment: letters, digits, underscore, hyphen. */
  name: string;
  /** Semantic version of this addon build. */
  version: string;
  title: string;
  description?: string;
  /**
   * The services this addon uses, by the name setup receives each under. The addons that provide them are set up
   * first, and this addon answers only while they run.
   */
  deps?: D;
  migrations?: { studio?: Migration[]; project?: Migration[] };
  /**
   * TypeBox schemas with defaults; overrides are merged by the settings addon. An addon whose settings are computed
   * by code of its own (AYON packages' pydantic models) gives that code as model and siteModel, and the schemas as
   * they stand without a project (what lists read: which levels the fields offer).
   */
  settings?: { studio?: TObject; site?: TObject; model?: SettingsModel; siteModel?: SiteSettingsModel };
  /** Scope name (project, settings, dashboard, ...) to its options. */
  frontendScopes?: Record<string, FrontendScope>;
  /** Module Federation remote name to the modules it exposes (./Component, ...). */
  frontendModules?: Record<string, string[]>;
  services?: Record<string, AddonServiceDescription>;
  /** Actions users can run from a context (listed and executed by the actions addon). */
  actions?: AddonActions;
  /**
   * AYON's kinds: 'pipeline' addons bring client code the launcher installs (private/client.zip), 'server' addons
   * run on the server only. Default: 'server'.
   */
  addonType?: 'server' | 'pipeline';
  /** Whether a project may pin its own version of the addon (AYON's project bundles). Default: false. */
  projectCanOverrideAddonVersion?: boolean;
  /** Registers routes, provides services, subscribes to events; receives the services named in deps. */
  setup?(ctx: AddonContext, deps: ServicesOf<D>): void | Promise<void>;
}

/** A loaded addon as the server knows it. */
export interface AddonInfo {
  name: string;
  version: string;
  title: string;
  description: string;
  /** Internal areas of the server itself (plugins/), as opposed to installed addons. */
  internal: boolean;
  /** Folder holding the addon's package (frontend/, public/, private/ are looked up under it). */
  directory: string;
  /** The addons that provide the services its deps name. */
  dependsOn: string[];
  frontendScopes: Record<string, FrontendScope>;
  frontendModules: Record<string, string[]>;
  services: Record<string, AddonServiceDescription>;
  hasSettings: boolean;
  hasSiteSettings: boolean;
  /** The settings schemas with their defaults (studio and project settings, site settings). */
  settingsSchema: TObject | null;
  siteSettingsSchema: TObject | null;
  /** The addon's own settings code, when its settings are not computed from the schema alone. */
  settingsModel: SettingsModel | null;
  siteSettingsModel: SiteSettingsModel | null;
  addonType: 'server' | 'pipeline';
  projectCanOverrideAddonVersion: boolean;
  isBroken: boolean;
  reason: string | null;
  /** Its routes answer: set up, not switched off by the production bundle, and its dependencies are enabled. */
  enabled: boolean;
  /** The version production uses: the one the production bundle names, else the newest enabled one. */
  production: boolean;
  /** The actions the addon contributes; absent when it has none or is broken. */
  actions?: AddonActions;
}

/**
 * The addons the server runs, changed while it runs: installed addon versions are loaded and unloaded without a
 * restart, and the production bundle switches addons on and off as soon as it changes.
 */
export interface AddonRuntime {
  /** Every addon the server knows (running, switched off, broken), each version separately. */
  list(): AddonInfo[];
  /** Read the production bundle again and apply it: addons it switches off answer 404 from now on. */
  applyProductionBundle(): Promise<void>;
  /**
   * Import the addon package in this folder and set it up, mounted under /api/addons/{name}/{version}/. An addon
   * whose import or setup fails is answered broken, with the reason; the server keeps running.
   */
  load(directory: string): Promise<AddonInfo>;
  /** Stop an installed addon version and forget it; false when no such installed version is loaded. */
  unload(name: string, version: string): Promise<boolean>;
  /**
   * Read installed packages of another format than Pipewright's own (AYON packages: package.py and Python server
   * code) with this reader from now on; the readers added first are asked first.
   */
  addPackageReader(reader: PackageReader): void;
}

/**
 * Turns a package folder of some other format into an addon definition, or answers null when the folder is not of
 * its format. Throwing marks the package broken with the error's message.
 */
export type PackageReader = (directory: string) => Promise<AddonDefinition | null>;

/** Project schemas: every project's data lives in its own PostgreSQL schema. */
export interface ProjectStorage {
  /** The schema name for a project (project_<lowercase name>). */
  schemaName(projectName: string): string;
  /** Create the schema and run every active addon's project migrations in it, in the caller's unit of work. */
  create(projectName: string): Promise<void>;
  /** Drop the schema and everything in it, in the caller's unit of work. */
  drop(projectName: string): Promise<void>;
}

/**
 * Hook that runs on every request of the server before the route, whichever addon owns the route. It answers a
 * promise only when it has something to wait for: a hook that returns at once spares every request a turn.
 */
export type RequestHook = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

/** Facts about the running server that addons report (GET /api/info, ...). */
export interface ServerIdentity {
  /** The AYON API version the server speaks. */
  apiVersion: string;
  startedAt: Date;
  /** Shown on the login page; set by the operator. */
  loginMessage: string | null;
  /** Where mail the server writes goes (password resets, ...); null when the operator configured no mail server. */
  mail: MailSettings | null;
  /** The origin people reach the server at (PUBLIC_URL), for links the server hands out; null when not set. */
  publicUrl: string | null;
  /** Shortest password the server accepts (PASSWORD_MIN_LENGTH; 0 for no minimum). */
  passwordMinLength: number;
  /** Limits on one GraphQL query (GRAPHQL_MAX_COST, GRAPHQL_MAX_ALIASES). */
  graphql: { maxCost: number; maxAliases: number };
  /** The Python interpreter that runs AYON packages' server code (ADDON_PYTHON). */
  addonPython: string;
}

/** The operator's outgoing mail server (SMTP_URL, MAIL_FROM). */
export interface MailSettings {
  /** smtp:// or smtps:// URL, with the account's user and password in it when the server needs them. */
  smtpUrl: string;
  /** Sender address of the mail, such as "Studio <pipeline@studio.example>". */
  from: string;
}

/** What setup(ctx) receives. */
export interface AddonContext {
  readonly addon: AddonInfo;
  readonly server: ServerIdentity;
  /** Internal addons register absolute /api/... paths; installed addons are mounted under /api/addons/{name}/{version}. */
  readonly app: AddonApp;
  readonly db: Database;
  /** Which database runs underneath, and how many pooled connections are free (enroll sheds load below 3). */
  readonly storage: { kind: 'pglite' | 'postgres'; idleConnections(): number };
  readonly events: EventBus;
  readonly log: FastifyBaseLogger;
  readonly projects: ProjectStorage;
  /** Directory where the server keeps files (thumbnails, uploads, installed addons, ...). */
  readonly dataDir: string;
  /** Every addon the server knows, in setup order (the same list as runtime.list()). */
  readonly addons: () => AddonInfo[];
  /** Load, unload and switch addons while the server runs (used by the addons and bundles areas). */
  readonly runtime: AddonRuntime;
  /** Offer a service to addons that name its reference in their deps; the reference must be this addon's. */
  provide<T>(ref: ServiceRef<T>, service: T): void;
  /** Run a hook on every request of the server (used by auth to resolve the caller). */
  addRequestHook(hook: RequestHook): void;
  /** Run when the server shuts down. */
  onClose(fn: () => Promise<void> | void): void;
}

/**
 * A dependency on an addon as a whole, for an addon that uses no service of it (one that extends its screens, say):
 * the core provides it for every addon it sets up, and it resolves to that addon's info.
 */
export function addonRef(name: string): ServiceRef<AddonInfo> {
  return createServiceRef<AddonInfo>({ addon: name, id: `addon:${name}` });
}

/** Declares an addon; the default export of every addon package. */
export function defineAddon<D extends ServiceRefs = Record<string, never>>(
  definition: AddonDefinition<D>,
): AddonDefinition<D> {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(definition.name)) {
    throw new Error(
      `Addon name "${definition.name}" must be lowercase letters, digits, underscore or hyphen`,
    );
  }
  if (!/^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/.test(definition.version)) {
    throw new Error(`Addon ${definition.name}: version "${definition.version}" is not semver`);
  }
  return definition;
}
