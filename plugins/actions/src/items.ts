import type { ActionIcon, ActionManifest, AddonInfo } from '@pipewright/sdk';
import type { ActionItem } from './schemas.js';

// An action as the client lists it: the manifest with its defaults filled in and its addon named.

/** The listed item of an action an addon offers, found as a simple or a dynamic one. */
export function item(
  action: ActionManifest,
  addon: AddonInfo,
  variant: string,
  mode: 'simple' | 'dynamic',
): ActionItem {
  return {
    identifier: action.identifier,
    label: action.label,
    groupLabel: action.groupLabel ?? null,
    category: action.category ?? 'General',
    order: action.order ?? 100,
    icon: action.icon ? withAddonUrl(action.icon, addon) : null,
    featured: action.featured ?? false,
    adminOnly: action.adminOnly ?? false,
    managerOnly: action.managerOnly ?? false,
    configFields: action.configFields ?? null,
    addonName: addon.name,
    addonVersion: addon.version,
    variant,
    mode,
  };
}

/** An icon's URL may name its addon's own files as {addon_url} (as AYON's actions do): filled in for the client. */
function withAddonUrl(icon: ActionIcon, addon: AddonInfo): ActionIcon {
  if (!icon.url?.includes('{addon_url}')) return icon;
  return { ...icon, url: icon.url.replaceAll('{addon_url}', `/addons/${addon.name}/${addon.version}`) };
}

/** In menu order: by order, then by label. */
export function sortActions(actions: ActionItem[]): ActionItem[] {
  return actions.sort((a, b) => a.order - b.order || a.label.localeCompare(b.label));
}
