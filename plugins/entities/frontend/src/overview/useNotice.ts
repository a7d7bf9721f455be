import { useEffect, useState } from 'react';
import type { Notice } from '../Toast';

/** What the screen says over the grid. Confirmations go away by themselves; errors stay until dismissed. */
export function useNotice() {
  const [notice, setNotice] = useState<Notice>(null);
  // Errors stay, so nobody misses that a change was refused.
  useEffect(() => {
    if (notice?.kind !== 'info') return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);
  return [notice, setNotice] as const;
}
