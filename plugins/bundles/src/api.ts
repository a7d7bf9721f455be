import { createServiceRef } from '@pipewright/sdk';

/** A bundle as stored: which addon versions run together, for which variant, with which desktop installers. */
export interface BundleRecord {
  name: string;
  createdAt: Date;
  /** Addon name to version, or null for an addon the bundle switches off. */
  addons: Record<string, string | null>;
  installerVersion: string | null;
  /** Platform (windows, linux, darwin) to dependency package filename. */
  dependencyPackages: Record<string, string | null>;
  addonDevelopment: Record<string, { enabled: boolean; path: string }>;
  isProduction: boolean;
  isStaging: boolean;
  isArchived: boolean;
  isDev: boolean;
  isProject: boolean;
  activeUser: string | null;
}

/** Provided by the bundles addon. */
export interface BundleDirectory {
  /** The bundle of this name, or null. */
  get(name: string): Promise<BundleRecord | null>;
  /**
   * The bundle a settings variant uses: "production", "staging", or the name of a dev bundle. Null when no bundle
   * has that role.
   */
  forVariant(variant: string): Promise<BundleRecord | null>;
  /**
   * Run inside the promote unit of work, after the staging bundle became production: the settings addon copies the
   * staging settings to production here, so a promotion is all or nothing.
   */
  onPromote(hook: (bundle: BundleRecord) => Promise<void>): void;
}

/** The bundles service of the bundles addon. */
export const bundlesRef = createServiceRef<BundleDirectory>({ addon: 'bundles', id: 'bundles' });
