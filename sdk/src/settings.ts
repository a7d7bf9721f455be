/** Settings values, overrides and schemas: plain JSON objects. */
export type SettingsDocument = Record<string, unknown>;

/** Which level an override map entry comes from. */
export type SettingsLevel = 'studio' | 'project' | 'site';

/** The request a settings schema is built for: enums may depend on the project, the variant and the user. */
export interface SettingsContext {
  projectName: string | null;
  variant: string;
  userName: string | null;
  siteId: string | null;
}

/**
 * How one addon version's settings are computed: its schema, its defaults, and how stored overrides are laid over
 * them and taken out of new values. The settings addon keeps the overrides and asks the model everything else.
 * Pipewright's own addons get a model built from their TypeBox schema; AYON packages one that runs their pydantic
 * models (validators, conversions) in the Python sidecar. Layers are the stored overrides, studio first.
 */
export interface SettingsModel {
  /** The JSON schema the settings editor shows, built for the context (enums resolved for its project). */
  schema(context: SettingsContext): Promise<SettingsDocument>;
  /** The values after each layer: [defaults, defaults + layers[0], ...]. */
  stack(layers: SettingsDocument[]): Promise<SettingsDocument[]>;
  /**
   * The overrides a level stores when it is saved with payload (keys left out keep their value) over the layers
   * below it and its own overrides; pins and unpins mark keys stored or dropped whatever their value. Values the
   * model refuses throw (422 or 400).
   */
  extract(
    layers: SettingsDocument[],
    own: SettingsDocument,
    payload: SettingsDocument,
    marks: { pins?: string[][]; unpins?: string[][] },
  ): Promise<SettingsDocument>;
  /** AYON's override map (keyed by form field id) of the layers, later levels over earlier ones. */
  overrides(layers: { level: SettingsLevel; data: SettingsDocument }[]): Promise<Record<string, unknown>>;
  /** The level's overrides with the current value at path pinned, or null when path is not a setting. */
  pin(layers: SettingsDocument[], own: SettingsDocument, path: string[]): Promise<SettingsDocument | null>;
  /** Overrides stored for another version of the addon, converted for this one (absent: kept as they are). */
  convert?(
    fromVersion: string,
    overrides: SettingsDocument,
    projectName: string | null,
  ): Promise<SettingsDocument>;
}

/** Site settings (one machine's, per user): a separate, flat model. */
export interface SiteSettingsModel {
  /** The JSON schema of the site settings, as the editor shows it. */
  schema(): Promise<SettingsDocument>;
  /** The values of a site: the stored ones completed by the model (defaults for what is missing). */
  values(stored: SettingsDocument): Promise<SettingsDocument>;
  /** What to store when a site is saved with payload (the whole value): checked by the model, or it throws. */
  save(payload: SettingsDocument): Promise<SettingsDocument>;
}
