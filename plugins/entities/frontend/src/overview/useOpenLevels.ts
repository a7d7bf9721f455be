import { useCallback, useState } from 'react';
import { ROOT, type Entity } from '../model';
import { toggled } from '../sets';
import type { ProjectStore } from '../store/ProjectStore';

/**
 * Which folders are open, in the tree and in the grid (each its own), and the folder the tree chose to show in the
 * grid (ROOT: the whole project). A folder is read when it opens.
 */
export function useOpenLevels(store: ProjectStore) {
  const [scope, setScope] = useState<string>(ROOT);
  const [treeOpen, setTreeOpen] = useState<Set<string>>(() => new Set());
  const [gridOpen, setGridOpen] = useState<Set<string>>(() => new Set());

  const toggle = useCallback(
    (id: string, where: 'grid' | 'tree') => {
      void store.loadChildren(id);
      (where === 'grid' ? setGridOpen : setTreeOpen)((current) => toggled(current, id));
    },
    [store],
  );

  /** Open these folders in the grid, and those in the tree. */
  const open = useCallback((grid: string[], tree: string[] = []) => {
    if (grid.length) setGridOpen((current) => new Set([...current, ...grid]));
    if (tree.length) setTreeOpen((current) => new Set([...current, ...tree]));
  }, []);

  /** Every level down to the last entity of the chain open, in the tree and the grid, so it shows in its place. */
  const showChain = useCallback(
    (chain: Entity[]) => {
      const folders = chain.slice(0, -1).map((entity) => entity.id);
      for (const id of folders) void store.loadChildren(id);
      open(folders, folders);
      setScope((current) => (chain.some((entity) => entity.id === current) ? current : ROOT));
    },
    [store, open],
  );

  const chooseScope = (id: string) => {
    setScope(id);
    if (id !== ROOT) void store.loadChildren(id);
  };

  /** Read the top level and every open folder again (Refresh). */
  const rereadOpen = () => {
    void store.loadChildren(ROOT, true);
    for (const id of new Set([...gridOpen, ...treeOpen])) void store.loadChildren(id, true);
  };

  return { scope, treeOpen, gridOpen, toggle, open, showChain, chooseScope, rereadOpen };
}
