import { useEffect, useState } from 'react';

// The screen's own sub-pages live below the path the shell mounts it at. Moving between them announces the change
// as a popstate event, as the shell does, so the shell's navigation and this screen agree on where the user is.

export function go(path: string): void {
  if (path === location.pathname) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The part of the address below basePath, without slashes at either end: "" for the screen's own page. */
export function useSubPath(basePath: string): string {
  const [sub, setSub] = useState(() => subPathOf(basePath));
  useEffect(() => {
    const update = () => setSub(subPathOf(basePath));
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, [basePath]);
  return sub;
}

function subPathOf(basePath: string): string {
  return location.pathname.startsWith(basePath)
    ? location.pathname.slice(basePath.length).replace(/^\/+|\/+$/g, '')
    : '';
}

/**
 * Make a project the one the web app works in: the shell follows a ?project= in the address (and takes it out),
 * as it does for links from other screens.
 */
export function chooseProject(name: string): void {
  const url = new URL(location.href);
  url.searchParams.set('project', name);
  history.replaceState(history.state, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
