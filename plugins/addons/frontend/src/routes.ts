import type { Api } from './api';

// The server routes this screen uses (addons, bundles and settings addons), with the shapes they answer.

export interface AddonVersionInfo {
  hasSettings: boolean;
  hasSiteSettings: boolean;
  frontendScopes: Record<string, unknown>;
  isBroken: boolean;
  reason: string | null;
}

export interface AddonItem {
  name: string;
  title: string;
  description: string;
  versions: Record<string, AddonVersionInfo>;
  productionVersion: string | null;
  stagingVersion: string | null;
  system: boolean;
}

export const listAddons = (api: Api) =>
  api.get<{ addons: AddonItem[] }>('/api/addons').then((answer) => answer.addons);

export const deleteAddonVersion = (api: Api, name: string, version: string) =>
  api.send<void>('DELETE', `/api/addons/${encodeURIComponent(name)}/${encodeURIComponent(version)}`);

export interface InstallItem {
  id: string;
  description: string;
  addonName: string | null;
  addonVersion: string | null;
  user: string | null;
  status: string;
  createdAt: string;
}

export const listInstalls = (api: Api) =>
  api.get<{ items: InstallItem[] }>('/api/addons/install').then((answer) => answer.items);

/** Send an addon zip; the answer names the addon.install event that reports how the install goes. */
export async function uploadAddon(api: Api, file: File): Promise<string> {
  const response = await fetch('/api/addons/install', {
    method: 'POST',
    headers: {
      ...(api.token ? { authorization: `Bearer ${api.token}` } : {}),
      'content-type': 'application/zip',
    },
    body: file,
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail ?? `The upload failed (${response.status})`);
  return body.eventId as string;
}

/** The event that tracks an install, as GET /api/events/{id} answers it. */
export interface TrackedEvent {
  id: string;
  status: string;
  description: string;
  summary: Record<string, unknown>;
}

export const readEvent = (api: Api, id: string) => api.get<TrackedEvent>(`/api/events/${id}`);

// Bundles

export interface Bundle {
  name: string;
  createdAt: string;
  addons: Record<string, string | null>;
  isProduction: boolean;
  isStaging: boolean;
  isArchived: boolean;
  isDev: boolean;
  isProject: boolean;
}

export interface BundleIssue {
  severity: 'error' | 'warning';
  addon?: string;
  message: string;
}

export const listBundles = (api: Api) =>
  api.get<{ bundles: Bundle[] }>('/api/bundles?archived=true').then((answer) => answer.bundles);

export interface BundleDraft {
  name: string;
  addons: Record<string, string | null>;
  isStaging?: boolean;
  isProduction?: boolean;
}

export const checkBundle = (api: Api, draft: BundleDraft) =>
  api.send<{ success: boolean; issues: BundleIssue[] }>('POST', '/api/bundles/check', draft);

export const createBundle = (api: Api, draft: BundleDraft) => api.send<void>('POST', '/api/bundles', draft);

export const patchBundle = (
  api: Api,
  name: string,
  change: { isStaging?: boolean; isProduction?: boolean; isArchived?: boolean },
) => api.send<void>('PATCH', `/api/bundles/${encodeURIComponent(name)}`, change);

export const promoteBundle = (api: Api, name: string) =>
  api.send<void>('POST', `/api/bundles/${encodeURIComponent(name)}`, { action: 'promote' });

export const deleteBundle = (api: Api, name: string) =>
  api.send<void>('DELETE', `/api/bundles/${encodeURIComponent(name)}`);

// Settings of one addon version, in a variant (production, staging)

export interface OverrideEntry {
  path: string[];
  type?: string;
  value?: unknown;
  level: string;
}

const settingsBase = (name: string, version: string) =>
  `/api/addons/${encodeURIComponent(name)}/${encodeURIComponent(version)}`;

export const readSettingsSchema = (api: Api, name: string, version: string) =>
  api.get<JsonSchema>(`${settingsBase(name, version)}/schema`);

export const readSettings = (api: Api, name: string, version: string, variant: string) =>
  api.get<Record<string, unknown>>(`${settingsBase(name, version)}/settings?variant=${variant}`);

export const readOverrides = (api: Api, name: string, version: string, variant: string) =>
  api.get<Record<string, OverrideEntry>>(`${settingsBase(name, version)}/overrides?variant=${variant}`);

export const saveSettings = (
  api: Api,
  name: string,
  version: string,
  variant: string,
  value: Record<string, unknown>,
) => api.send<void>('POST', `${settingsBase(name, version)}/settings?variant=${variant}`, value);

/** Back to the inherited value (the default) for one field. */
export const removeOverride = (api: Api, name: string, version: string, variant: string, path: string[]) =>
  api.send<void>('POST', `${settingsBase(name, version)}/overrides?variant=${variant}`, {
    action: 'delete',
    path,
  });

export const removeAllOverrides = (api: Api, name: string, version: string, variant: string) =>
  api.send<void>('DELETE', `${settingsBase(name, version)}/overrides?variant=${variant}`);

/** The part of JSON Schema that addon settings schemas (TypeBox) use. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  [keyword: string]: unknown;
}
