import { useEffect, useState } from 'react';

// The app has a handful of pages, so the address bar is kept in sync by hand rather than with a router library.
const listeners = new Set<() => void>();

export function navigate(path: string): void {
  if (path === location.pathname) return;
  history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return path;
}
