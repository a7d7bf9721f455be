import type { PipewrightClient, ResponseData } from '@pipewright/sdk/client';
import { callRoute } from '@pipewright/sdk/ui';
import { inlineReferences, type JsonSchema } from './schema-refs';

// The server routes this screen uses (addons, bundles and settings addons), through the session's typed client.

export type AddonItem = ResponseData<'get', '/api/addons'>['addons'][number];
export type AddonVersionInfo = AddonItem['versions'][string];

export const listAddons = (client: PipewrightClient) =>
  client.GET('/api/addons').then((answer) => answer.addons);

const versionPath = (name: string, version: string) => ({
  path: { addon_name: name, addon_version: version },
});

export const deleteAddonVersion = (client: PipewrightClient, name: string, version: string) =>
  client.DELETE('/api/addons/{addon_name}/{addon_version}', { params: versionPath(name, version) });

/**
 * Send an addon zip; the answer names the addon.install event that reports how the install goes. The route takes
 * the zip as the raw body, which the typed call cannot send, so it goes through callRoute.
 */
export const uploadAddon = (client: PipewrightClient, file: File) =>
  callRoute<{ eventId: string }>(client, '/api/addons/install', {
    method: 'POST',
    body: file,
    contentType: 'application/zip',
  }).then((answer) => answer.eventId);

/** The event that tracks an install, as GET /api/events/{id} answers it. */
export type TrackedEvent = ResponseData<'get', '/api/events/{event_id}'>;

export const readEvent = (client: PipewrightClient, id: string) =>
  client.GET('/api/events/{event_id}', { params: { path: { event_id: id } } });

// Bundles

export type Bundle = ResponseData<'get', '/api/bundles'>['bundles'][number];
export type BundleIssue = ResponseData<'post', '/api/bundles/check'>['issues'][number];

export const listBundles = (client: PipewrightClient) =>
  client.GET('/api/bundles', { params: { query: { archived: true } } }).then((answer) => answer.bundles);

export interface BundleDraft {
  name: string;
  addons: Record<string, string | null>;
  isStaging?: boolean;
  isProduction?: boolean;
}

export const checkBundle = (client: PipewrightClient, draft: BundleDraft) =>
  client.POST('/api/bundles/check', { body: draft });

export const createBundle = (client: PipewrightClient, draft: BundleDraft) =>
  client.POST('/api/bundles', { body: draft });

const bundlePath = (name: string) => ({ params: { path: { bundle_name: name } } });

export const patchBundle = (
  client: PipewrightClient,
  name: string,
  change: { isStaging?: boolean; isProduction?: boolean; isArchived?: boolean },
) => client.PATCH('/api/bundles/{bundle_name}', { ...bundlePath(name), body: change });

export const promoteBundle = (client: PipewrightClient, name: string) =>
  client.POST('/api/bundles/{bundle_name}', { ...bundlePath(name), body: { action: 'promote' } });

export const deleteBundle = (client: PipewrightClient, name: string) =>
  client.DELETE('/api/bundles/{bundle_name}', bundlePath(name));

// Settings of one addon version, in a variant (production, staging)

export type OverrideEntry = ResponseData<'get', '/api/addons/{addon_name}/{addon_version}/overrides'>[string];

/** One addon version's settings in one variant: where its routes are and what they take. */
const inVariant = (name: string, version: string, variant: string) => ({
  params: { ...versionPath(name, version), query: { variant } },
});

export const readSettingsSchema = (client: PipewrightClient, name: string, version: string) =>
  client
    .GET('/api/addons/{addon_name}/{addon_version}/schema', { params: versionPath(name, version) })
    .then((schema) => inlineReferences(schema as JsonSchema));

export const readSettings = (client: PipewrightClient, name: string, version: string, variant: string) =>
  client.GET('/api/addons/{addon_name}/{addon_version}/settings', inVariant(name, version, variant));

export const readOverrides = (client: PipewrightClient, name: string, version: string, variant: string) =>
  client.GET('/api/addons/{addon_name}/{addon_version}/overrides', inVariant(name, version, variant));

export const saveSettings = (
  client: PipewrightClient,
  name: string,
  version: string,
  variant: string,
  value: Record<string, unknown>,
) =>
  client.POST('/api/addons/{addon_name}/{addon_version}/settings', {
    ...inVariant(name, version, variant),
    body: value,
  });

/** Back to the inherited value (the default) for one field. */
export const removeOverride = (
  client: PipewrightClient,
  name: string,
  version: string,
  variant: string,
  path: string[],
) =>
  client.POST('/api/addons/{addon_name}/{addon_version}/overrides', {
    ...inVariant(name, version, variant),
    body: { action: 'delete', path },
  });

export const removeAllOverrides = (
  client: PipewrightClient,
  name: string,
  version: string,
  variant: string,
) => client.DELETE('/api/addons/{addon_name}/{addon_version}/overrides', inVariant(name, version, variant));
