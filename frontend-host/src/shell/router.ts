import { useEffect, useState } from 'react';

// The app has a handful of pages, so the address bar is kept in sync by hand rather than with a router library.
// Every change of address is announced as a popstate event, the one signal the shell and the addon screens (which
// bundle their own code and cannot import this module) both hear: a screen that moves within its own sub-paths
// does the same, and the shell follows.

export function navigate(path: string): void {
  if (path === location.pathname + location.search) return;
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return path;
}
