import { useEffect, useRef, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { readEntityPaths, type EntityPaths } from './entity-paths';
import type { EventRow } from './events';

/** A burst of live events asks for its paths once, after it has passed. */
const SETTLE_MS = 300;

/**
 * The full paths of the entities the listed events are about: read for a page in one request, and for rows that
 * arrive live once their burst has settled. Paths that cannot be read leave the rows as they are.
 */
export function useEntityPaths(client: PipewrightClient, rows: EventRow[]): EntityPaths {
  const [paths, setPaths] = useState<EntityPaths>(new Map());
  const known = useRef<EntityPaths>(paths);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      readEntityPaths(client, rows, known.current).then(
        (found) => {
          if (!current || found.size === known.current.size) return;
          known.current = found;
          setPaths(found);
        },
        () => undefined,
      );
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, rows]);
  return paths;
}
