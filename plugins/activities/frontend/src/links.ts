import type { EntityLabel } from './activity';

// Where the activity screens send people: the overview of the entities addon shows a folder or a task when its
// address names one (?folder= or ?task=), and the web app switches to the project named by ?project=. This is the
// only thing these screens know about another addon, and an address is all they share.

const OVERVIEW_PATH = '/addon/entities/overview_remote';

/** Entity types the overview can show. */
const IN_OVERVIEW = new Set(['folder', 'task']);

/** The overview's address for a folder or task of a project, or null for what it does not show. */
export function overviewLink(project: string, type: string, id: string): string | null {
  if (!IN_OVERVIEW.has(type)) return null;
  return `${OVERVIEW_PATH}?${new URLSearchParams({ project, [type]: id })}`;
}

/** The nearest entity the overview can show for an activity: its own, else the folder it lives in. */
export function openableEntity(origin: EntityLabel | null, parents: EntityLabel[]): EntityLabel | null {
  if (origin && IN_OVERVIEW.has(origin.type)) return origin;
  return [...parents].reverse().find((parent) => IN_OVERVIEW.has(parent.type)) ?? null;
}

/**
 * Go to a page of the web app without reloading it: the address changes and popstate announces it, which is how
 * the shell and every screen learn of a change of address (they cannot import the shell's router).
 */
export function go(path: string): void {
  if (path === location.pathname + location.search) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
