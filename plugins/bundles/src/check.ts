import type { AddonInfo } from '@pipewright/sdk';
import type { BundleIssue } from './schemas.js';

/** What the check looks at: the addon versions, and what a desktop launcher needs to set the bundle up. */
export interface BundleDraft {
  name: string;
  addons: Record<string, string | null>;
  installerVersion: string | null;
  dependencyPackages: Record<string, string | null>;
  isProject: boolean;
}

export const PLATFORMS = ['windows', 'linux', 'darwin'] as const;

/** Project bundle placeholders: not versions of their own. */
const INHERIT = '__inherit__';
const DISABLE = '__disable__';
const isOff = (version: string | null | undefined) => version === null || version === DISABLE;

// The runtime reports an addon whose dependency the current production bundle switches off as broken too, with
// this reason. Such an addon is fine in a bundle that switches the dependency back on, so it is not held against it.
const blockedByCurrentBundle = (addon: AddonInfo) => /which is not enabled$/.test(addon.reason ?? '');

const isBroken = (addon: AddonInfo) => addon.isBroken && !blockedByCurrentBundle(addon);

/**
 * The addons the server cannot do without to change bundles at all: this addon and everything it depends on.
 * A production bundle switching one of them off would lock every administrator out of undoing it.
 */
export function indispensableAddons(self: string, addons: AddonInfo[]): Set<string> {
  const needed = new Set<string>([self]);
  const walk = (name: string) => {
    for (const addon of addons.filter((a) => a.name === name)) {
      for (const dependency of addon.dependsOn) {
        if (!needed.has(dependency)) {
          needed.add(dependency);
          walk(dependency);
        }
      }
    }
  };
  walk(self);
  return needed;
}

/** Addons the bundle switches off that the server needs to keep answering bundle requests. */
export function lockedOut(bundleAddons: Record<string, string | null>, indispensable: Set<string>): string[] {
  return Object.entries(bundleAddons)
    .filter(([name, version]) => isOff(version) && indispensable.has(name))
    .map(([name]) => name);
}

/**
 * Whether the addons of a bundle can run together on this server. Errors: a version that is not installed or is
 * broken, a dependency that is missing or switched off. Warnings: what the desktop launcher would lack, and
 * addons left out of the bundle that stop running because it switches off what they need.
 */
export function checkBundle(
  draft: BundleDraft,
  installed: AddonInfo[],
  indispensable: Set<string>,
): BundleIssue[] {
  const issues: BundleIssue[] = [];
  const issue =
    (severity: BundleIssue['severity']) => (message: string, addon?: string, requiredAddon?: string) =>
      issues.push({
        severity,
        message,
        ...(addon ? { addon } : {}),
        ...(requiredAddon ? { requiredAddon } : {}),
      });
  const error = issue('error');
  const warning = issue('warning');
  const usable = (name: string) => installed.some((a) => a.name === name && !isBroken(a));

  for (const [name, version] of Object.entries(draft.addons)) {
    if (isOff(version)) {
      if (indispensable.has(name)) {
        error(`${name} cannot be switched off: the server needs it to change bundles`, name, name);
      }
      continue;
    }
    if (version === INHERIT) continue;
    const addon = installed.find((a) => a.name === name && a.version === version);
    if (!addon) {
      error(`${name} ${version} is not installed`, name, name);
      continue;
    }
    if (isBroken(addon)) {
      error(`${name} ${version} is broken: ${addon.reason ?? 'unknown reason'}`, name, name);
      continue;
    }
    for (const dependency of addon.dependsOn) {
      const chosen = draft.addons[dependency];
      if (isOff(chosen)) error(`${dependency} is required, but the bundle switches it off`, name, dependency);
      // A dependency the bundle names is checked as its own entry; one it leaves out runs in its newest version.
      else if (chosen === undefined && !usable(dependency))
        error(`${dependency} is required`, name, dependency);
    }
  }

  // Addons the bundle leaves out run in their newest version, unless they need something it switches off.
  const seen = new Set<string>();
  for (const addon of installed) {
    if (addon.name in draft.addons || seen.has(addon.name) || isBroken(addon)) continue;
    seen.add(addon.name);
    for (const dependency of addon.dependsOn.filter((d) => isOff(draft.addons[d]))) {
      warning(
        `${addon.name} needs ${dependency}, which the bundle switches off: ${addon.name} will not run`,
        addon.name,
        dependency,
      );
    }
  }

  // Project bundles take installers and dependency packages from the studio bundle.
  if (!draft.isProject) {
    if (!draft.installerVersion)
      warning(`Bundle ${draft.name} has no installer version: desktop launchers cannot set it up`);
    for (const platform of PLATFORMS) {
      if (!draft.dependencyPackages[platform])
        warning(`Bundle ${draft.name} has no dependency package for ${platform}`);
    }
  }
  return issues;
}

/** The first error as one sentence, for the 400 answer of a create or patch that fails the check. */
export function failureMessage(issues: BundleIssue[]): string | null {
  const first = issues.find((issue) => issue.severity === 'error');
  if (!first) return null;
  return `Failed to validate bundle: ${first.addon ? `${first.addon}: ` : ''}${first.message}`;
}
