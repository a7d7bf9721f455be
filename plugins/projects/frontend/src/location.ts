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
  const read = () =>
    location.pathname.startsWith(basePath)
      ? location.pathname.slice(basePath.length).replace(/^\/+|\/+$/g, '')
      : '';
  const [sub, setSub] = useState(read);
  useEffect(() => {
    const update = () => setSub(read());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, [basePath]);
  return sub;
}
