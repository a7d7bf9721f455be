import { useState } from 'react';
import { BulkCreateDialog } from '../dialogs/BulkCreateDialog';
import { CreateDialog } from '../dialogs/CreateDialog';
import { DeleteDialog } from '../dialogs/DeleteDialog';
import { MoveDialog } from '../dialogs/MoveDialog';
import { RenameDialog } from '../dialogs/RenameDialog';
import type { Entity, Kind, ProjectMeta } from '../model';
import type { ProjectStore } from '../store/ProjectStore';
import { outermost } from './chosen';
import type { useHierarchyEdits } from './useHierarchyEdits';

export type DialogKind = Kind | 'bulk' | 'rename' | 'move' | 'delete';

/** The dialog open over the overview, if any, and for Move every folder of the project (null while read). */
export function useOverviewDialog(store: ProjectStore) {
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const [allFolders, setAllFolders] = useState<Entity[] | null>(null);
  const openMove = () => {
    setDialog('move');
    setAllFolders(null);
    // The new parent may be anywhere in the project: every folder is offered.
    void store
      .loadAll()
      .then(() => setAllFolders([...store.entities.values()].filter((e) => e.kind === 'folder')));
  };
  return { dialog, allFolders, show: setDialog, openMove, close: () => setDialog(null) };
}

/** The dialog that shapes the hierarchy, open over the overview; each hands its request to `edits`. */
export function OverviewDialogs({
  dialog,
  allFolders,
  store,
  meta,
  parentForNew,
  focused,
  chosen,
  edits,
  onClose,
}: {
  dialog: DialogKind | null;
  allFolders: Entity[] | null;
  store: ProjectStore;
  meta: ProjectMeta;
  /** Where new folders and tasks go. */
  parentForNew: Entity | null;
  /** The row last clicked: the one Rename renames. */
  focused: Entity | null;
  /** The selection, else the focused row. */
  chosen: Entity[];
  edits: ReturnType<typeof useHierarchyEdits>;
  onClose(): void;
}) {
  switch (dialog) {
    case 'bulk':
      return (
        <BulkCreateDialog
          parent={parentForNew}
          folders={chosen.filter((e) => e.kind === 'folder')}
          meta={meta}
          existingTasks={(folder) =>
            new Set(
              (store.children.get(folder.id)?.tasks ?? []).map((id) => store.entities.get(id)?.name ?? ''),
            )
          }
          onCreate={edits.createMany}
          onClose={onClose}
        />
      );
    case 'rename':
      return (
        focused && (
          <RenameDialog
            entity={focused}
            onRename={(name, label) => edits.rename(focused, name, label)}
            onClose={onClose}
          />
        )
      );
    case 'move':
      return (
        <MoveDialog
          entities={outermost(chosen)}
          folders={allFolders}
          onMove={(parent) => edits.moveTo(outermost(chosen), parent)}
          onClose={onClose}
        />
      );
    case 'delete':
      return (
        <DeleteDialog
          entities={outermost(chosen)}
          onDelete={(force) => edits.remove(outermost(chosen), force)}
          onClose={onClose}
        />
      );
    case 'folder':
    case 'task':
      return (
        <CreateDialog
          kind={dialog}
          parent={parentForNew}
          meta={meta}
          onCreate={edits.create}
          onClose={onClose}
        />
      );
    default:
      return null;
  }
}
