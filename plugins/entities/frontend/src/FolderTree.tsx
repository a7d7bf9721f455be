import { useMemo } from 'react';
import { ROOT, type Entity } from './model';
import { comparator } from './rows';
import type { ProjectStore } from './store/ProjectStore';
import { VirtualRows } from './VirtualRows';

type TreeRow =
  | { type: 'folder'; folder: Entity; depth: number; open: boolean }
  | { type: 'pending'; parent: string; depth: number; error?: string };

const byName = comparator({ key: 'name', desc: false });

function treeRows(store: ProjectStore, open: Set<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (parent: string, depth: number) => {
    const list = store.children.get(parent);
    if (list) {
      const folders = list.folders
        .map((id) => store.entities.get(id)!)
        .filter(Boolean)
        .sort(byName);
      for (const folder of folders) {
        const isOpen = open.has(folder.id);
        rows.push({ type: 'folder', folder, depth, open: isOpen });
        if (isOpen) visit(folder.id, depth + 1);
      }
    }
    if (!list || list.state !== 'loaded') rows.push({ type: 'pending', parent, depth, error: list?.error });
  };
  visit(ROOT, 0);
  return rows;
}

/**
 * The project's folders as a tree; a folder's subfolders are read from the server when it is first opened.
 * Choosing a folder narrows the grid to what is inside it.
 */
export function FolderTree({
  store,
  version,
  open,
  scope,
  onToggle,
  onScope,
}: {
  store: ProjectStore;
  /** The store's version: the rows are worked out again whenever it moves. */
  version: number;
  open: Set<string>;
  scope: string;
  onToggle(id: string): void;
  onScope(id: string): void;
}) {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- version: the store changed in place (reads, edits)
  const rows = useMemo(() => treeRows(store, open), [store, open, version]);
  return (
    <div className="pwo-tree">
      <button
        type="button"
        className={`pwo-tree-root${scope === ROOT ? ' pwo-tree-current' : ''}`}
        onClick={() => onScope(ROOT)}
      >
        Whole project
      </button>
      <VirtualRows
        className="pwo-tree-list"
        label="Folder tree"
        role="tree"
        count={rows.length}
        rowHeight={26}
        renderRow={(index, top) => {
          const row = rows[index]!;
          if (row.type === 'pending')
            return (
              <div
                key={`pending-${row.parent}`}
                className={`pwo-tree-row ${row.error ? 'pwo-error-text' : 'muted'}`}
                style={{ top, paddingLeft: 22 + row.depth * 14 }}
              >
                {row.error ? 'Could not be read' : 'Loading…'}
              </div>
            );
          const { folder, depth } = row;
          const expandable = folder.hasChildren || (store.children.get(folder.id)?.folders.length ?? 0) > 0;
          return (
            <div
              key={folder.id}
              className={`pwo-tree-row${scope === folder.id ? ' pwo-tree-current' : ''}`}
              style={{ top, paddingLeft: 4 + depth * 14 }}
              role="treeitem"
              aria-expanded={expandable ? row.open : undefined}
              aria-selected={scope === folder.id}
              data-folder={folder.name}
            >
              {expandable ? (
                <button
                  type="button"
                  className="pwo-expander"
                  aria-label={`${row.open ? 'Close' : 'Open'} ${folder.name} in the tree`}
                  onClick={() => onToggle(folder.id)}
                >
                  {row.open ? '▾' : '▸'}
                </button>
              ) : (
                <span className="pwo-expander" />
              )}
              <button
                type="button"
                className="pwo-tree-name"
                onClick={() => onScope(folder.id)}
                title={folder.path}
              >
                {folder.label || folder.name}
              </button>
            </div>
          );
        }}
      />
    </div>
  );
}
