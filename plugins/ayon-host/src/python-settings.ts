import type { SettingsDocument, SettingsModel, SiteSettingsModel } from '@pipewright/sdk';
import { TIMEOUTS, type AyonHost } from './host.js';
import { SERVER } from './origin.js';
import { RecentResults } from './recent-results.js';

// An AYON package's settings, computed by its own pydantic models in the sidecar: the schema post-processed for the
// request (enums resolved for its project and variant), defaults from get_default_settings(), overrides laid over
// them and taken out again by AYON's rules, validators and conversions run. The settings addon keeps the overrides.
// Values follow from the stored overrides alone, so the latest stacks are kept: reading settings, which every
// launcher and pipeline start does, asks the sidecar only when the overrides changed.

/** How many stacks of stored overrides are kept per addon version (studio, each project, each variant...). */
const KEPT_STACKS = 200;

export function pythonSettingsModel(host: AyonHost, name: string, version: string): SettingsModel {
  const call = <T>(method: string, params: Record<string, unknown>) =>
    host.call<T>(name, version, method, params, SERVER, TIMEOUTS.settings);
  const stacks = new RecentResults<SettingsDocument[]>(KEPT_STACKS);
  return {
    schema: (context) => call<SettingsDocument>('schema', { context, site: false }),
    stack: (layers) => stacks.get(layers, () => call<SettingsDocument[]>('stack', { layers })),
    extract: (layers, own, payload, marks) =>
      call<SettingsDocument>('extract', {
        layers,
        own,
        payload,
        pins: marks.pins ?? null,
        unpins: marks.unpins ?? null,
      }),
    overrides: (layers) => call<Record<string, unknown>>('overrides', { layers }),
    pin: (layers, own, path) => call<SettingsDocument | null>('pin', { layers, own, path }),
    convert: (fromVersion, overrides, projectName) =>
      call<SettingsDocument>('convert', { fromVersion, overrides, projectName }),
  };
}

export function pythonSiteSettingsModel(host: AyonHost, name: string, version: string): SiteSettingsModel {
  const call = <T>(method: string, params: Record<string, unknown>) =>
    host.call<T>(name, version, method, params, SERVER, TIMEOUTS.settings);
  const noContext = { projectName: null, variant: 'production', userName: null, siteId: null };
  return {
    schema: () => call<SettingsDocument>('schema', { context: noContext, site: true }),
    values: (stored) => call<SettingsDocument>('siteSettings', { data: stored }),
    // AYON keeps a site's settings whole, as the model made them.
    save: (payload) => call<SettingsDocument>('siteSettings', { data: payload }),
  };
}
