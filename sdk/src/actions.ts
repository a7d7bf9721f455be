import type { RequestUser } from './request.js';

// Actions are what a user can run from a context in the web app or the desktop launcher: "open in Nuke" on a
// task, "sync to tracker" on a project. Addons contribute them through the `actions` member of their definition;
// the actions addon lists them, runs them and keeps the launcher hand-over (take/abort) in the event log.

/** Entity types an action context can name: 'project' for project-wide actions (AYON's ActionEntityType). */
export type ActionEntityType =
  'project' | 'folder' | 'task' | 'product' | 'version' | 'representation' | 'workfile' | 'list';

/** Where an action is asked for: the project and entities selected in a client, and a submitted form. */
export interface ActionContext {
  projectName: string | null;
  entityType: ActionEntityType | null;
  entityIds: string[] | null;
  /** Folder types, task types or product types of the selected entities. */
  entitySubtypes: string[] | null;
  /** Values of a form the action asked for earlier (a "form" response), when the client resubmits. */
  formData: Record<string, unknown> | null;
}

/** A Material Symbols icon by name, or an image by URL. */
export interface ActionIcon {
  type: 'material-symbols' | 'url';
  name?: string | null;
  color?: string | null;
  /** May name the addon's own files as {addon_url} (/addons/{name}/{version}), filled in when listed. */
  url?: string | null;
}

/** What every action declares about itself; defaults are filled in by the actions addon. */
export interface ActionManifest {
  /** Unique within the addon. */
  identifier: string;
  label: string;
  /** Actions sharing a group label are shown together under it. */
  groupLabel?: string | null;
  /** Default "General". */
  category?: string;
  /** Lower comes first; default 100. */
  order?: number;
  icon?: ActionIcon | null;
  featured?: boolean;
  adminOnly?: boolean;
  managerOnly?: boolean;
  /** Form fields of the per-user settings of this action (stored through POST /api/actions/config). */
  configFields?: Record<string, unknown>[] | null;
}

/** An action shown wherever the context matches its entity type, subtypes and selection size. */
export interface SimpleActionManifest extends ActionManifest {
  /** The context's entity type must be this one (null or absent: only contexts without an entity type). */
  entityType?: ActionEntityType | null;
  /** When set, at least one of the context's subtypes must be listed here. */
  entitySubtypes?: string[] | null;
  /** Whether the action applies to more than one selected entity; default false. */
  allowMultiselection?: boolean;
}

/** An action an addon decides on for each context, at the time the context is asked about. */
export type DynamicActionManifest = ActionManifest;

/** How a client should follow up after an action ran. */
export type ActionResponseType = 'form' | 'launcher' | 'navigate' | 'query' | 'redirect' | 'simple';

/** What executing an action answers. */
export interface ActionResponse {
  type: ActionResponseType;
  success: boolean;
  message: string | null;
  /** Type-specific: {uri} for navigate and launcher, {uri, newTab} for redirect, {query} for query, the form for form. */
  payload: Record<string, unknown> | null;
  /** Launcher responses repeat the launcher URI here for older clients. */
  uri?: string | null;
}

/** Who asks for actions, and for which settings variant. */
export interface ActionLookup {
  user: RequestUser;
  /** production, staging or a dev bundle name. */
  variant: string;
  projectName: string | null;
}

/** Everything an addon's execute() receives about the action being run. */
export interface ActionExecutor {
  identifier: string;
  addonName: string;
  addonVersion: string;
  variant: string;
  user: RequestUser;
  context: ActionContext;
  /** Base URL of this server as the client reached it (scheme and host). */
  serverUrl: string;
  /** The caller's stored settings of this action in the context's project; {} when none were saved. */
  getConfig(): Promise<Record<string, unknown>>;
  /**
   * Hand the action to the caller's desktop launcher: stores a pending action.launcher event keyed by a fresh
   * 64-hex token and answers a launcher response whose URI carries the token (the launcher then takes it).
   */
  launcher(args: string[], options?: { message?: string }): Promise<ActionResponse>;
}

type MaybePromise<T> = T | Promise<T>;

/** The actions an addon contributes (the `actions` member of its definition). */
export interface AddonActions {
  /** Actions the server filters against each context itself: a fixed list, or one computed per project and variant. */
  simple?: SimpleActionManifest[] | ((lookup: ActionLookup) => MaybePromise<SimpleActionManifest[]>);
  /** Actions the addon decides on for a given context. */
  dynamic?(context: ActionContext, lookup: ActionLookup): MaybePromise<DynamicActionManifest[]>;
  /** Run one of this addon's actions (simple or dynamic); throw a typed error to refuse. */
  execute(executor: ActionExecutor): MaybePromise<ActionResponse>;
  /**
   * Keep the per-user settings of the addon's actions itself (AYON packages key them their own way): read them
   * when value is null, else save value first; answers the settings. Absent: the actions addon keeps them per
   * user, action and project.
   */
  config?(request: ActionConfigRequest): MaybePromise<Record<string, unknown>>;
}

/** POST /api/actions/config, for an addon that keeps its actions' settings itself. */
export interface ActionConfigRequest {
  identifier: string;
  variant: string;
  context: ActionContext;
  user: RequestUser;
  value: Record<string, unknown> | null;
}

/** A form the client shows before running the action again with formData. */
export interface ActionForm {
  title: string;
  /** Settings-style field descriptions: {type, name, label, value, ...}. */
  fields: Record<string, unknown>[];
  submitLabel?: string;
  submitIcon?: string;
  cancelLabel?: string;
  cancelIcon?: string;
  showCancelButton?: boolean;
  showSubmitButton?: boolean;
}

const respond = (
  type: ActionResponseType,
  payload: Record<string, unknown> | null,
  message: string | null,
  success = true,
): ActionResponse => ({ type, success, message, payload });

/** Builders for the answers of execute() other than the launcher one (see ActionExecutor.launcher). */
export const actionResponse = {
  /** Done: show the message (as an error when success is false). */
  simple: (message: string | null = null, success = true) => respond('simple', null, message, success),
  /** Move the web app to another page of itself (a path or ayon+entity URI). */
  navigate: (uri: string, message: string | null = null) => respond('navigate', { uri }, message),
  /** Open an external URL, in a new tab when asked. */
  redirect: (uri: string, options: { newTab?: boolean; message?: string } = {}) =>
    respond('redirect', { uri, newTab: options.newTab ?? false }, options.message ?? null),
  /** Set query parameters of the current web app page. */
  query: (query: Record<string, unknown>, message: string | null = null) =>
    respond('query', { query }, message),
  /** Ask the user to fill in a form; the client runs the action again with the values in context.formData. */
  form: (form: ActionForm, message: string | null = null) =>
    respond(
      'form',
      {
        title: form.title,
        fields: form.fields,
        submitLabel: form.submitLabel ?? 'Submit',
        submitIcon: form.submitIcon ?? null,
        cancelLabel: form.cancelLabel ?? 'Cancel',
        cancelIcon: form.cancelIcon ?? null,
        showCancelButton: form.showCancelButton ?? true,
        showSubmitButton: form.showSubmitButton ?? true,
      },
      message,
    ),
};
