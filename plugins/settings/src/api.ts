import { createServiceRef } from '@pipewright/sdk';

/** Which settings to read: production's by default, a project's when given. */
export interface SettingsScope {
  /** "production", "staging" or the name of a dev bundle. */
  variant?: string;
  /** Read the project's settings (studio values with the project's overrides on top). */
  project?: string;
  /** With a project: one user's machine in it, whose own overrides go on top of the project's. */
  site?: { id: string; user: string };
}

/** Provided by the settings addon: the effective settings of an addon version, as its own code reads them. */
export interface AddonSettings {
  /** The schema defaults with the studio (and project) overrides merged in; null when the addon has no settings. */
  values(addon: string, version: string, scope?: SettingsScope): Promise<Record<string, unknown> | null>;
}

/** The settings service of the settings addon. */
export const settingsRef = createServiceRef<AddonSettings>({ addon: 'settings', id: 'settings' });
