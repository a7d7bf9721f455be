import type { MouseEvent } from 'react';

// Where each figure of the dashboard leads: the screen that lists what it counts, filtered to it. The overview
// takes its filter from the address (?show=task&progress=overdue) and the shell switches to the project ?project=
// names; screens are addressed by the path the web app mounts them at (/addon/<addon>/<module>).

const OVERVIEW = '/addon/entities/overview_remote';
const REVIEW = '/addon/reviewables/reviewables_screens';
const USERS = '/addon/users/users_screens';
const EVENTS = '/addon/events/events_screens';

const at = (path: string, project: string, params: Record<string, string> = {}) =>
  `${path}?${new URLSearchParams({ project, ...params })}`;

export const links = {
  folders: (project: string) => at(OVERVIEW, project, { show: 'folder' }),
  tasks: (project: string) => at(OVERVIEW, project, { show: 'task' }),
  completed: (project: string) => at(OVERVIEW, project, { show: 'task', progress: 'done' }),
  overdue: (project: string) => at(OVERVIEW, project, { show: 'task', progress: 'overdue' }),
  status: (project: string, status: string) => at(OVERVIEW, project, { show: 'task', status }),
  versions: (project: string) => at(REVIEW, project),
  users: (project: string) => at(USERS, project),
  activity: (project: string) => at(EVENTS, project),
};

/**
 * Follow a link inside the web app (a plain click), announced as popstate as the shell's own navigation does;
 * with a modifier key the browser opens it as any link.
 */
export function follow(event: MouseEvent<HTMLAnchorElement>): void {
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  history.pushState(null, '', event.currentTarget.getAttribute('href'));
  window.dispatchEvent(new PopStateEvent('popstate'));
}
