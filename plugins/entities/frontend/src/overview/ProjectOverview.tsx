import { useCallback, useMemo, useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, useClient } from '@pipewright/sdk/ui';
import type { EntityRef } from '../address';
import { AddToList } from '../add-to-list/AddToList';
import { CsvTools } from '../CsvTools';
import { DetailPanel } from '../DetailPanel';
import { FilterHint } from '../FilterHint';
import { FolderTree } from '../FolderTree';
import { columnsFor } from '../grid/columns';
import { Grid } from '../grid/Grid';
import { savePaste } from '../grid/paste';
import { useLiveOverview } from '../live';
import { LiveBadge } from '../LiveBadge';
import { ROOT, type Entity } from '../model';
import { OverviewTools } from '../OverviewTools';
import { usePeople } from '../people';
import { isFlat } from '../rows';
import { Toast } from '../Toast';
import { Toolbar } from '../Toolbar';
import { useOverviewLook } from '../useWorkingView';
import { arrangeColumns } from '../views';
import { chosenOf } from './chosen';
import { OverviewDialogs, useOverviewDialog } from './OverviewDialogs';
import { summaryText } from './summary';
import { useCellEdits } from './useCellEdits';
import { useHierarchyEdits } from './useHierarchyEdits';
import { useNotice } from './useNotice';
import { useOpenLevels } from './useOpenLevels';
import { useOverviewRows } from './useOverviewRows';
import { useProjectData } from './useProjectData';
import { useRevealFromAddress } from './useRevealFromAddress';
import { useSelection } from './useSelection';

/** The overview of one project: the folder tree, the grid with its tools, the details of the focused row. */
export function ProjectOverview({
  project,
  Extension,
}: {
  project: string;
  Extension: ScreenProps['Extension'];
}) {
  const client = useClient();
  const { store, version, meta, attributes, loadError } = useProjectData(client, project);
  const people = usePeople(client);
  const [notice, setNotice] = useNotice();
  // Filters, grouping, sorting and columns: the user's working view of the project, restored and kept.
  const look = useOverviewLook(client, project, (text) => setNotice({ kind: 'error', text }));
  const { filter, groupBy, sort, columns: columnLayout, setFilter, setGroupBy, setSort } = look;
  const levels = useOpenLevels(store);
  const { scope, showChain } = levels;
  const { rows, flat, scopeEntity, toggleGroup } = useOverviewRows(store, version, meta, levels, look);
  const selected = useSelection(rows);
  const { selection, focusId, only, focusOn } = selected;
  const show = useCallback(
    (chain: Entity[], wanted: EntityRef) => {
      showChain(chain);
      focusOn(wanted.id);
    },
    [showChain, focusOn],
  );
  useRevealFromAddress({ store, project, focusId, show, say: setNotice });
  const live = useLiveOverview(client, project, store, rows);
  // Moves when the user asks for fresh data (Refresh, a publish): the detail panel reads its versions again.
  const [refreshed, setRefreshed] = useState(0);
  const cellEdits = useCellEdits({ client, project, store, selection, say: setNotice });
  const dialogs = useOverviewDialog(store);
  const edits = useHierarchyEdits({
    client,
    project,
    store,
    only,
    say: setNotice,
    open: levels.open,
    revealRow: selected.revealRow,
    clearSelection: selected.clear,
    closeDialog: dialogs.close,
  });
  const allColumns = useMemo(() => columnsFor(attributes), [attributes]);
  const columns = useMemo(() => arrangeColumns(allColumns, columnLayout), [allColumns, columnLayout]);
  const focused = focusId ? (store.entities.get(focusId) ?? null) : null;
  const chosen = chosenOf(selection, focused, store);
  // New folders and tasks go into the selected folder (or the folder of the selected task), else the tree's choice.
  const parentForNew: Entity | null = focused
    ? focused.kind === 'folder'
      ? focused
      : (store.entities.get(focused.parentId!) ?? null)
    : scopeEntity;

  if (loadError)
    return (
      <ErrorBox
        error={`The project ${project} could not be opened: ${loadError}. Choose another project, or reload the page.`}
      />
    );
  if (!meta) return <p className="muted">Opening {project}…</p>;

  const root = store.children.get(ROOT);
  const empty = !flat && scope === ROOT && root?.state === 'loaded' && root.folders.length === 0;
  const entityCount = rows.reduce((n, r) => n + (r.type === 'entity' ? 1 : 0), 0);

  return (
    <div className={`pwo${focused && selected.showDetail ? ' pwo-with-detail' : ''}`}>
      <FolderTree
        store={store}
        version={version}
        open={levels.treeOpen}
        scope={scope}
        onToggle={(id) => levels.toggle(id, 'tree')}
        onScope={levels.chooseScope}
      />
      <section className="pwo-main" aria-label="Folders and tasks">
        <Toolbar
          {...{ client, project, meta, attributes, filter, groupBy, parentForNew }}
          onFilter={setFilter}
          onGroupBy={setGroupBy}
          onNew={dialogs.show}
          edit={{
            chosen,
            // Rename is of one entity: the row last clicked.
            renaming: focused,
            undoLabel: edits.undoLabel,
            onBulk: () => dialogs.show('bulk'),
            onRename: () => dialogs.show('rename'),
            onMove: dialogs.openMove,
            onDelete: () => dialogs.show('delete'),
            onUndo: () => void edits.undo(),
          }}
          tools={
            <>
              <OverviewTools
                {...{ client, project, Extension, people }}
                chosen={focused}
                folderOf={(task) => store.entities.get(task.parentId!) ?? null}
                columns={allColumns}
                view={look.view}
                onView={look.apply}
                onPublished={() => setRefreshed((n) => n + 1)}
                onNotice={setNotice}
              />
              <CsvTools {...{ client, project, store, meta, rows, columns, people }} onNotice={setNotice} />
              <LiveBadge state={live} />
              <AddToList project={project} chosen={chosen} />
            </>
          }
          onRefresh={() => {
            levels.rereadOpen();
            // The project-wide index is read again now if a filter needs it, else when one next does.
            if (flat) void store.loadAll(true);
            else store.forgetIndex();
            setRefreshed((n) => n + 1);
          }}
          summary={summaryText({ ...cellEdits, flat, full: store.full, entityCount, scopeEntity })}
        />
        {store.full.state === 'error' && flat && (
          <div className="pwo-inset">
            <ErrorBox
              error={`The project could not be read for filtering: ${store.full.error}. Press Refresh to try again.`}
            />
          </div>
        )}
        {flat && store.full.state === 'loaded' && entityCount === 0 && isFlat(filter, 'none') && (
          <FilterHint meta={meta} filter={filter} onFilter={setFilter} />
        )}
        {empty ? (
          <div className="pw-empty pwo-empty">
            <strong>This project has no folders yet.</strong>
            <p>
              Create the first one with New folder: episodes, sequences and shots, or asset libraries and
              assets.
            </p>
          </div>
        ) : (
          <Grid
            {...{ rows, columns, meta, project, client, flat, selection, sort, people, Extension }}
            revealIndex={selected.revealIndex}
            onSort={(key) => setSort((s) => ({ key, desc: s.key === key ? !s.desc : false }))}
            onSelect={selected.select}
            onToggle={(id) => levels.toggle(id, 'grid')}
            onToggleGroup={toggleGroup}
            onEdit={(target, value) => void cellEdits.edit(target, value)}
            onMove={selected.step}
            onEscape={selected.clear}
            assignTargets={cellEdits.assignTargets}
            onAssign={(tasks, name, on) => void cellEdits.assign(tasks, name, on)}
            onPaste={(pasted) => void savePaste(client, project, store, pasted, setNotice)}
            onNotice={setNotice}
          />
        )}
        <Toast notice={notice} onDismiss={() => setNotice(null)} />
      </section>
      {focused && selected.showDetail && (
        <DetailPanel
          {...{ Extension, client, meta, attributes, project, refreshed, people }}
          entity={focused}
          onClose={() => selected.setShowDetail(false)}
          onAssign={(name, on) => void cellEdits.assign([focused], name, on)}
        />
      )}
      <OverviewDialogs
        {...{ store, meta, parentForNew, focused, chosen, edits }}
        dialog={dialogs.dialog}
        allFolders={dialogs.allFolders}
        onClose={dialogs.close}
      />
    </div>
  );
}
