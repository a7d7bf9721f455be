// Where a list's items open: versions in the review screen of the reviewables addon (?version=), folders and
// tasks in the overview of the entities addon (?folder=, ?task=); ?project= makes the web app switch to the
// project. An address is all these screens share.

const REVIEW_PATH = '/addon/reviewables/reviewables_screens';
const OVERVIEW_PATH = '/addon/entities/overview_remote';

/** Where an item opens; a version opens in review with its list (?list=), which the review screen shows. */
export function itemLink(project: string, type: string, entityId: string, listId: string): string | null {
  if (type === 'version')
    return `${REVIEW_PATH}?${new URLSearchParams({ project, version: entityId, list: listId })}`;
  if (type === 'folder' || type === 'task')
    return `${OVERVIEW_PATH}?${new URLSearchParams({ project, [type]: entityId })}`;
  return null;
}

/**
 * Go to another page of the web app without reloading it: popstate is how the shell and every screen hear of a
 * change of address (they cannot import the shell's router).
 */
export function go(path: string): void {
  if (path === location.pathname + location.search) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
