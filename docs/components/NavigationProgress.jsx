'use client';
import { useEffect, useState } from 'react';
import { usePathname } from 'next/navigation';

// A thin bar at the top of the window while a client-side navigation is under way; CSS delays it by 200 ms, so
// fast navigations never show it.
export function NavigationProgress() {
  const pathname = usePathname();
  const [active, setActive] = useState(false);
  useEffect(() => setActive(false), [pathname]);
  useEffect(() => {
    const onClick = (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
      const url = new URL(link.href, location.href);
      if (url.origin === location.origin && url.pathname !== location.pathname) setActive(true);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);
  return <div className="pw-progress" data-active={active ? 'true' : 'false'} aria-hidden="true" />;
}
