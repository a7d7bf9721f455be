import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Operation, OperationResult, PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, messageOf } from '@pipewright/sdk/ui';
import { takeEntityFromAddress, type EntityRef } from './address';
import { AddToList } from './AddToList';
import type { EditTarget } from './CellEditor';
import { CreateDialog, type NewEntity } from './CreateDialog';
import { CsvTools } from './CsvTools';
import { DetailPanel } from './DetailPanel';
import { FilterHint } from './FilterHint';
import { FolderTree } from './FolderTree';
import { useLiveOverview } from './live';
import { LiveBadge } from './LiveBadge';
import { savePaste } from './paste';
import { undoCreate, undoDelete, undoUpdate, type UndoStep } from './hierarchy';
import { BulkCreateDialog, DeleteDialog, MoveDialog, RenameDialog, type Planned } from './HierarchyDialogs';
import { columnsFor, Grid } from './Grid';
import {
  gridAttributes,
  parentKey,
  ROOT,
  type AttributeDef,
  type Entity,
  type Kind,
  type ProjectMeta,
} from './model';
import { flatRows, hierarchyRows, isFlat } from './rows';
import { OverviewTools } from './OverviewTools';
import { usePeople } from './people';
import { ProjectStore } from './store';
import { Toast, type Notice } from './Toast';
import { Toolbar } from './Toolbar';
import { useOverviewLook } from './useWorkingView';
import { arrangeColumns } from './views';
import './overview.css';

/** Edits of at least this many rows run in the background on the server, with their progress shown. */
const BACKGROUND_FROM = 200;
/** How many changes of this session Undo can take back, newest first. */
const UNDO_DEPTH = 20;

type DialogKind = Kind | 'bulk' | 'rename' | 'move' | 'delete';

/** The server's refusal of one operation, said the way a coordinator reads it. */
function refusal(
  failed: Pick<OperationResult, 'detail' | 'errorCode'> | undefined,
  entities: Map<string, Entity>,
  id?: string,
): string {
  const name = (id && entities.get(id)?.name) ?? 'This folder';
  if (failed?.errorCode === 'folder-locked')
    return `${name} holds published versions, so it cannot be renamed or moved`;
  return failed?.detail ?? 'The server refused the change';
}

/** The overview screen: a project's folders and tasks, as a tree, a grid and the details of one of them. */
export default function Overview({ project, client, Extension }: ScreenProps) {
  if (!project)
    return (
      <p className="muted">Choose a project in the project menu at the top to see its folders and tasks.</p>
    );
  return <ProjectOverview key={project} client={client} project={project} Extension={Extension} />;
}

function ProjectOverview({
  client,
  project,
  Extension,
}: {
  client: PipewrightClient;
  project: string;
  Extension: ScreenProps['Extension'];
}) {
  const [meta, setMeta] = useState<ProjectMeta | null>(null);
  const [attributes, setAttributes] = useState<AttributeDef[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const store = useMemo(() => new ProjectStore(client, project), [client, project]);
  const version = useSyncExternalStore(store.subscribe, store.getVersion);

  const [scope, setScope] = useState<string>(ROOT);
  const [treeOpen, setTreeOpen] = useState<Set<string>>(() => new Set());
  const [gridOpen, setGridOpen] = useState<Set<string>>(() => new Set());
  const [selection, setSelection] = useState<Set<string>>(() => new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [reveal, setReveal] = useState<{ id: string } | null>(null);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const [undoSteps, setUndoSteps] = useState<UndoStep[]>([]);
  const [allFolders, setAllFolders] = useState<Entity[] | null>(null);
  const people = usePeople(client);
  const [notice, setNotice] = useState<Notice>(null);
  // Filters, grouping, sorting and columns: the user's working view of the project, restored and kept.
  const look = useOverviewLook(client, project, (text) => setNotice({ kind: 'error', text }));
  const { filter, groupBy, sort, columns: columnLayout, setFilter, setGroupBy, setSort } = look;
  const [showDetail, setShowDetail] = useState(true);
  const [refreshed, setRefreshed] = useState(0);
  // Edits on their way to the server: shown, so nobody closes the page on a change that is not stored yet.
  const [saving, setSaving] = useState(0);
  // Percent done of an edit running in the background on the server, while one does.
  const [progress, setProgress] = useState<number | null>(null);

  useEffect(() => {
    Promise.all([
      client.GET('/api/projects/{project_name}', { params: { path: { project_name: project } } }),
      client.GET('/api/attributes'),
    ])
      .then(([projectMeta, list]) => {
        // The schema leaves the anatomy lists open ({[key]: unknown}); the overview reads the fields it knows.
        setMeta(projectMeta as unknown as ProjectMeta);
        setAttributes(gridAttributes(list.attributes as AttributeDef[]));
      })
      .catch((failure) => setLoadError(messageOf(failure)));
    void store.loadChildren(ROOT);
  }, [client, project, store]);

  // Confirmations go away by themselves; errors stay until dismissed, so nobody misses that a change was refused.
  useEffect(() => {
    if (notice?.kind !== 'info') return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);

  // A link names a folder or task to open: read when the screen opens and whenever the address changes.
  const focusRef = useRef(focusId);
  focusRef.current = focusId;
  const revealEntity = useCallback(
    async (wanted: EntityRef, isCurrent: () => boolean) => {
      let chain: Entity[] | null;
      try {
        chain = await store.locate(wanted.kind, wanted.id);
      } catch (failure) {
        if (isCurrent())
          setNotice({
            kind: 'error',
            text: `The linked ${wanted.kind} could not be read: ${messageOf(failure)}`,
          });
        return;
      }
      if (!isCurrent()) return;
      if (!chain) {
        setNotice({
          kind: 'error',
          text: `The ${wanted.kind} this link points to is not in ${project}, or you may not see it.`,
        });
        return;
      }
      const folders = chain.slice(0, -1).map((entity) => entity.id);
      // Every level down to it is open, in the tree and the grid, so it shows in its place.
      for (const id of folders) void store.loadChildren(id);
      const withFolders = (current: Set<string>) => new Set([...current, ...folders]);
      setTreeOpen(withFolders);
      setGridOpen(withFolders);
      setScope((current) => (chain.some((entity) => entity.id === current) ? current : ROOT));
      setSelection(new Set([wanted.id]));
      setAnchor(wanted.id);
      setFocusId(wanted.id);
      setReveal({ id: wanted.id });
      setShowDetail(true);
    },
    [store, project],
  );

  // A ref rather than a flag per effect run: React may run the effect twice on mount (strict mode), and the
  // second run finds the address already read.
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    const fromAddress = () => {
      const wanted = takeEntityFromAddress();
      if (wanted && wanted.id !== focusRef.current) void revealEntity(wanted, () => mounted.current);
    };
    fromAddress();
    window.addEventListener('popstate', fromAddress);
    return () => {
      mounted.current = false;
      window.removeEventListener('popstate', fromAddress);
    };
  }, [revealEntity]);

  const flat = isFlat(filter, groupBy);
  const fullState = store.full.state;
  useEffect(() => {
    if (flat && fullState === 'idle') void store.loadAll();
  }, [flat, fullState, store]);

  const scopeEntity = scope === ROOT ? null : (store.entities.get(scope) ?? null);
  const rows = useMemo(
    () =>
      !meta
        ? []
        : flat
          ? flatRows(store, meta, scopeEntity?.path ?? null, filter, groupBy, sort, collapsed)
          : hierarchyRows(store, scope, gridOpen, sort),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version: the store changed in place (reads, edits)
    [store, meta, flat, scope, scopeEntity, filter, groupBy, sort, collapsed, gridOpen, version],
  );
  const live = useLiveOverview(client, project, store, rows);
  const allColumns = useMemo(() => columnsFor(attributes), [attributes]);
  const columns = useMemo(() => arrangeColumns(allColumns, columnLayout), [allColumns, columnLayout]);
  const focused = focusId ? (store.entities.get(focusId) ?? null) : null;
  const revealIndex = reveal ? rows.findIndex((r) => r.type === 'entity' && r.entity.id === reveal.id) : null;

  const toggle = (set: Set<string>, id: string) => {
    const next = new Set(set);
    if (!next.delete(id)) next.add(id);
    return next;
  };
  const openFolder = useCallback(
    (id: string, where: 'grid' | 'tree') => {
      void store.loadChildren(id);
      (where === 'grid' ? setGridOpen : setTreeOpen)((current) => toggle(current, id));
    },
    [store],
  );

  const chooseScope = (id: string) => {
    setScope(id);
    if (id !== ROOT) void store.loadChildren(id);
  };

  const select = (entity: Entity, how: 'only' | 'toggle' | 'range') => {
    setFocusId(entity.id);
    setShowDetail(true);
    if (how === 'toggle') {
      setSelection((current) => toggle(current, entity.id));
      setAnchor(entity.id);
    } else if (how === 'range' && anchor) {
      const ids = rows.flatMap((r) => (r.type === 'entity' ? [r.entity.id] : []));
      const [from, to] = [ids.indexOf(anchor), ids.indexOf(entity.id)].sort((a, b) => a - b);
      if (from! >= 0) setSelection(new Set(ids.slice(from, to! + 1)));
    } else if (!(selection.has(entity.id) && selection.size > 1)) {
      // A click inside a multi-selection keeps it, so a double-click can edit every selected row at once.
      setSelection(new Set([entity.id]));
      setAnchor(entity.id);
    }
  };

  const move = (by: number) => {
    const entityRows = rows.filter((r) => r.type === 'entity');
    const at = entityRows.findIndex((r) => r.entity.id === focusId);
    const next = entityRows[Math.min(entityRows.length - 1, Math.max(0, at + by))];
    if (next?.type !== 'entity') return;
    setSelection(new Set([next.entity.id]));
    setAnchor(next.entity.id);
    setFocusId(next.entity.id);
    setReveal({ id: next.entity.id });
  };

  const clearSelection = () => {
    setSelection(new Set());
    setFocusId(null);
  };

  const edit = async ({ entity, column }: EditTarget, value: unknown) => {
    const field = column.kind === 'status' ? 'status' : column.attribute!.name;
    // With several rows selected, the edit applies to each of them that has the same kind.
    const targets =
      selection.has(entity.id) && selection.size > 1
        ? [...selection].map((id) => store.entities.get(id)!).filter((e) => e && e.kind === entity.kind)
        : [entity];
    const data = column.kind === 'status' ? { status: String(value) } : { attrib: { [field]: value } };
    for (const target of targets) {
      if (column.kind === 'status') store.patch(target.id, { status: String(value) });
      else if (value !== null)
        store.patch(target.id, {
          attrib: { ...target.attrib, [field]: value },
          ownAttrib: [...new Set([...target.ownAttrib, field])],
        });
    }
    setSaving((n) => n + 1);
    try {
      const batch = client.operations(project);
      for (const target of targets) batch.update(target.kind, target.id, data);
      // A large edit runs on the server after it answers, so no request waits for minutes; its progress shows.
      const answer =
        targets.length >= BACKGROUND_FROM
          ? await batch.commit({ background: true, onProgress: setProgress })
          : await batch.commit();
      if (!answer.success) {
        const failed = answer.operations.find((o) => !o.success);
        setNotice({
          kind: 'error',
          text: `Not saved: ${failed?.detail ?? 'the server refused the change'}.`,
        });
      } else if (targets.length > 1) {
        setNotice({ kind: 'info', text: `Changed ${column.title} on ${targets.length} ${entity.kind}s.` });
      }
    } catch (failure) {
      setNotice({ kind: 'error', text: `Not saved: ${messageOf(failure)}.` });
    } finally {
      setSaving((n) => n - 1);
      setProgress(null);
    }
    // What the server now says, for the edited rows and everything below them that inherits from them.
    const ids = { folders: new Set<string>(), tasks: new Set<string>() };
    for (const target of targets) {
      const below = store.subtree(target);
      below.folders.forEach((id) => ids.folders.add(id));
      below.tasks.forEach((id) => ids.tasks.add(id));
    }
    await store
      .refresh({ folders: [...ids.folders], tasks: [...ids.tasks] })
      .catch((failure) =>
        setNotice({ kind: 'error', text: `Could not read the new values: ${messageOf(failure)}` }),
      );
  };

  const create = async ({ kind, name, type, parent }: NewEntity): Promise<string | null> => {
    try {
      const batch = client.operations(project);
      const id =
        kind === 'folder'
          ? batch.create('folder', { name, folderType: type, parentId: parent?.id ?? null })
          : batch.create('task', { name, taskType: type, folderId: parent!.id });
      const answer = await batch.commit();
      if (!answer.success)
        return answer.operations.find((o) => !o.success)?.detail ?? 'The server refused it.';
      await store.created(parent?.id ?? ROOT, kind);
      if (parent) {
        setGridOpen((current) => new Set(current).add(parent.id));
        if (kind === 'folder') setTreeOpen((current) => new Set(current).add(parent.id));
      }
      // The selection stays on the parent, so the next New folder makes a sibling, never a child of this one.
      setSelection(parent ? new Set([parent.id]) : new Set());
      setAnchor(parent?.id ?? null);
      setFocusId(parent?.id ?? null);
      setReveal({ id });
      setDialog(null);
      remember(undoCreate(`create ${name}`, [{ kind, id, depth: 0 }], [parent?.id ?? ROOT]));
      setNotice({ kind: 'info', text: `Created ${kind} ${name}${parent ? ` in ${parent.path}` : ''}.` });
      return null;
    } catch (failure) {
      return messageOf(failure);
    }
  };

  const remember = (step: UndoStep) => setUndoSteps((steps) => [...steps.slice(1 - UNDO_DEPTH), step]);

  /** Send operations as one atomic batch: null when done, else the refused operation. */
  const send = async (
    operations: Operation[],
  ): Promise<{ detail: string; errorCode?: string | null; entityId?: string | null } | null> => {
    try {
      const answer = await client.POST('/api/projects/{project_name}/operations', {
        params: { path: { project_name: project } },
        body: { operations },
      });
      if (answer.success) return null;
      const failed = answer.operations.find((o) => !o.success);
      return {
        detail: refusal(failed, store.entities, failed?.entityId ?? undefined),
        errorCode: failed?.errorCode,
        entityId: failed?.entityId,
      };
    } catch (failure) {
      return { detail: messageOf(failure) };
    }
  };

  /** The folders and tasks an action applies to: the selection, else the focused row. */
  const chosen = (): Entity[] => {
    const picked = [...selection].map((id) => store.entities.get(id)).filter((e): e is Entity => !!e);
    return picked.length ? picked : focused ? [focused] : [];
  };
  /** Of those, the ones not inside another chosen folder (which takes them along anyway). */
  const outermost = (list: Entity[]) =>
    list.filter((e) => !list.some((o) => o !== e && o.kind === 'folder' && e.path.startsWith(`${o.path}/`)));
  const loadedBelow = (entity: Entity) => store.subtree(entity).folders;

  const createMany = async (plan: Planned[], label: string): Promise<string | null> => {
    const batch = client.operations(project);
    const ids = new Map<string, string>();
    const depth = new Map<string, number>();
    for (const item of plan) {
      const parentId = 'key' in item.parent ? ids.get(item.parent.key)! : item.parent.id;
      depth.set(item.key, 'key' in item.parent ? depth.get(item.parent.key)! + 1 : 0);
      ids.set(
        item.key,
        item.kind === 'folder'
          ? batch.create('folder', { name: item.name, folderType: item.type, parentId })
          : batch.create('task', { name: item.name, taskType: item.type, folderId: parentId! }),
      );
    }
    const failed = await send([...batch.pending]);
    if (failed) return `Nothing was created: ${failed.detail}.`;
    const levels = [...new Set(plan.flatMap((p) => ('id' in p.parent ? [p.parent.id ?? ROOT] : [])))];
    for (const level of levels)
      await store.created(level, plan.find((p) => 'id' in p.parent && (p.parent.id ?? ROOT) === level)!.kind);
    const opened = levels.filter((l) => l !== ROOT);
    // A new container opens with its new folders showing.
    const containers = plan
      .filter((p) => plan.some((c) => 'key' in c.parent && c.parent.key === p.key))
      .map((p) => ids.get(p.key)!);
    for (const id of containers) void store.loadChildren(id);
    setGridOpen((current) => new Set([...current, ...opened, ...containers]));
    setTreeOpen(
      (current) => new Set([...current, ...opened.filter((id) => store.entities.get(id)?.kind === 'folder')]),
    );
    remember(
      undoCreate(
        label,
        plan.map((p) => ({ kind: p.kind, id: ids.get(p.key)!, depth: depth.get(p.key)! })),
        levels,
      ),
    );
    setDialog(null);
    setNotice({
      kind: 'info',
      text: `Created ${plan.length} ${plan.every((p) => p.kind === 'task') ? 'tasks' : 'folders'}.`,
    });
    return null;
  };

  const rename = async (entity: Entity, name: string, label: string | null): Promise<string | null> => {
    const batch = client.operations(project);
    batch.update(entity.kind, entity.id, { name, label });
    const failed = await send([...batch.pending]);
    if (failed) return `Not renamed: ${failed.detail}.`;
    const levels = [parentKey(entity), ...(entity.kind === 'folder' ? loadedBelow(entity) : [])];
    await store.reread(levels, [entity.id], []);
    remember(
      undoUpdate(
        `rename ${entity.name} to ${name}`,
        entity,
        { name: entity.name, label: entity.label },
        levels,
      ),
    );
    setDialog(null);
    setNotice({ kind: 'info', text: `Renamed ${entity.name} to ${name}.` });
    return null;
  };

  const moveTo = async (entities: Entity[], parent: Entity | null): Promise<string | null> => {
    if (!parent && entities.some((e) => e.kind === 'task')) return 'A task needs a folder: choose one.';
    const batch = client.operations(project);
    const back: Operation[] = [];
    for (const entity of entities) {
      if (entity.kind === 'folder') batch.update('folder', entity.id, { parentId: parent?.id ?? null });
      else batch.update('task', entity.id, { folderId: parent!.id });
      back.push(
        ...undoUpdate(
          '',
          entity,
          entity.kind === 'folder' ? { parentId: entity.parentId } : { folderId: entity.parentId },
          [],
        ).operations,
      );
    }
    const failed = await send([...batch.pending]);
    if (failed) return `Not moved: ${failed.detail}.`;
    const levels = [
      ...entities.map(parentKey),
      parent?.id ?? ROOT,
      ...entities.flatMap((e) => (e.kind === 'folder' ? loadedBelow(e) : [])),
    ];
    await store.reread(
      levels,
      entities.map((e) => e.id),
      [],
    );
    if (parent) setGridOpen((current) => new Set(current).add(parent.id));
    const what = entities.length === 1 ? entities[0]!.name : `${entities.length} entities`;
    remember({
      label: `move ${what} to ${parent?.path ?? 'the top level'}`,
      operations: back,
      parents: levels,
    });
    setDialog(null);
    setNotice({ kind: 'info', text: `Moved ${what} to ${parent?.path ?? 'the top level'}.` });
    return null;
  };

  const remove = async (entities: Entity[], force: boolean) => {
    const batch = client.operations(project);
    for (const entity of entities) batch.delete(entity.kind, entity.id, force ? { force: true } : {});
    const failed = await send([...batch.pending]);
    if (failed)
      return { error: failed.detail, needsForce: failed.errorCode === 'delete-folder-with-products' };
    const gone = entities.flatMap((e) => {
      const below = store.subtree(e);
      return [...below.folders, ...below.tasks];
    });
    const removed = gone.map((id) => store.entities.get(id)!).filter(Boolean);
    const levels = [...new Set(entities.map(parentKey))];
    await store.reread(levels, [], gone);
    const what = entities.length === 1 ? entities[0]!.name : `${entities.length} entities`;
    remember(undoDelete(`delete ${what}`, removed, levels));
    setSelection(new Set());
    setFocusId(null);
    setDialog(null);
    setNotice({ kind: 'info', text: `Deleted ${what}.` });
    return null;
  };

  const undo = async () => {
    const step = undoSteps[undoSteps.length - 1];
    if (!step) return;
    const failed = await send(step.operations);
    if (failed) return setNotice({ kind: 'error', text: `Could not undo ${step.label}: ${failed.detail}.` });
    setUndoSteps((steps) => steps.slice(0, -1));
    const ids = (type: string) => step.operations.filter((o) => o.type === type).map((o) => o.entityId!);
    await store.reread(step.parents, ids('update'), ids('delete'));
    for (const level of step.parents)
      if (level !== ROOT && store.entities.has(level))
        store.patch(level, { hasChildren: true, hasTasks: true });
    setNotice({ kind: 'info', text: `Undone: ${step.label}.` });
  };

  /** The tasks an assignment in this task's cell applies to: the selected tasks when it is one of them. */
  const assignTargets = (task: Entity): Entity[] =>
    selection.has(task.id) && selection.size > 1
      ? [...selection].map((id) => store.entities.get(id)).filter((e): e is Entity => e?.kind === 'task')
      : [task];

  /** Assign (or unassign) one person on tasks, shown at once and stored in one batch. */
  const assign = async (tasks: Entity[], name: string, on: boolean) => {
    const changed = tasks
      .map((t) => store.entities.get(t.id) ?? t)
      .filter((t) => t.kind === 'task' && t.assignees.includes(name) !== on);
    if (changed.length === 0) return;
    const batch = client.operations(project);
    for (const task of changed) {
      const assignees = on ? [...task.assignees, name] : task.assignees.filter((a) => a !== name);
      store.patch(task.id, { assignees });
      batch.update('task', task.id, { assignees });
    }
    setSaving((n) => n + 1);
    const failed = await send([...batch.pending]);
    setSaving((n) => n - 1);
    if (failed) setNotice({ kind: 'error', text: `Not saved: ${failed.detail}.` });
    else if (changed.length > 1)
      setNotice({
        kind: 'info',
        text: `${on ? 'Assigned' : 'Unassigned'} ${name} on ${changed.length} tasks.`,
      });
    await store.refresh({ folders: [], tasks: changed.map((t) => t.id) }).catch(() => undefined);
  };

  const openMove = () => {
    setDialog('move');
    setAllFolders(null);
    // The new parent may be anywhere in the project: every folder is offered.
    void store
      .loadAll()
      .then(() => setAllFolders([...store.entities.values()].filter((e) => e.kind === 'folder')));
  };

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
    <div className={`pwo${focused && showDetail ? ' pwo-with-detail' : ''}`}>
      <FolderTree
        store={store}
        version={version}
        open={treeOpen}
        scope={scope}
        onToggle={(id) => openFolder(id, 'tree')}
        onScope={chooseScope}
      />
      <section className="pwo-main" aria-label="Folders and tasks">
        <Toolbar
          {...{ client, project, meta }}
          attributes={attributes}
          filter={filter}
          groupBy={groupBy}
          onFilter={setFilter}
          onGroupBy={setGroupBy}
          onNew={setDialog}
          parentForNew={parentForNew}
          edit={{
            chosen: chosen(),
            // Rename is of one entity: the row last clicked.
            renaming: focused,
            undoLabel: undoSteps[undoSteps.length - 1]?.label ?? null,
            onBulk: () => setDialog('bulk'),
            onRename: () => setDialog('rename'),
            onMove: openMove,
            onDelete: () => setDialog('delete'),
            onUndo: () => void undo(),
          }}
          tools={
            <>
              <OverviewTools
                client={client}
                project={project}
                Extension={Extension}
                chosen={focused}
                folderOf={(task) => store.entities.get(task.parentId!) ?? null}
                people={people}
                columns={allColumns}
                view={look.view}
                onView={look.apply}
                onPublished={() => setRefreshed((n) => n + 1)}
                onNotice={setNotice}
              />
              <CsvTools {...{ client, project, store, meta, rows, columns, people }} onNotice={setNotice} />
              <LiveBadge state={live} />
              <AddToList client={client} project={project} chosen={chosen()} />
            </>
          }
          onRefresh={() => {
            void store.loadChildren(ROOT, true);
            for (const id of new Set([...gridOpen, ...treeOpen])) void store.loadChildren(id, true);
            // The project-wide index is read again now if a filter needs it, else when one next does.
            if (flat) void store.loadAll(true);
            else store.forgetIndex();
            setRefreshed((n) => n + 1);
          }}
          summary={
            saving > 0
              ? progress !== null
                ? `Saving… ${progress}%`
                : 'Saving…'
              : flat && store.full.state === 'loading'
                ? `Reading the whole project… ${store.full.count.toLocaleString()} read`
                : `${entityCount.toLocaleString()} ${flat ? 'found' : 'shown'}${scopeEntity ? ` in ${scopeEntity.path}` : ''}`
          }
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
            rows={rows}
            columns={columns}
            meta={meta}
            project={project}
            client={client}
            flat={flat}
            selection={selection}
            revealIndex={revealIndex !== null && revealIndex >= 0 ? revealIndex : null}
            sort={sort}
            onSort={(key) => setSort((s) => ({ key, desc: s.key === key ? !s.desc : false }))}
            onSelect={select}
            onToggle={(id) => openFolder(id, 'grid')}
            onToggleGroup={(key) => setCollapsed((current) => toggle(current, key))}
            onEdit={(target, value) => void edit(target, value)}
            onMove={move}
            onEscape={clearSelection}
            people={people}
            assignTargets={assignTargets}
            onAssign={(tasks, name, on) => void assign(tasks, name, on)}
            onPaste={(pasted) => void savePaste(client, project, store, pasted, setNotice)}
            onNotice={setNotice}
          />
        )}
        <Toast notice={notice} onDismiss={() => setNotice(null)} />
      </section>
      {focused && showDetail && (
        <DetailPanel
          Extension={Extension}
          client={client}
          entity={focused}
          meta={meta}
          attributes={attributes}
          project={project}
          refreshed={refreshed}
          onClose={() => setShowDetail(false)}
          people={people}
          onAssign={(name, on) => void assign([focused], name, on)}
        />
      )}
      {dialog === 'bulk' && (
        <BulkCreateDialog
          parent={parentForNew}
          folders={chosen().filter((e) => e.kind === 'folder')}
          meta={meta}
          existingTasks={(folder) =>
            new Set(
              (store.children.get(folder.id)?.tasks ?? []).map((id) => store.entities.get(id)?.name ?? ''),
            )
          }
          onCreate={createMany}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'rename' && focused && (
        <RenameDialog
          entity={focused}
          onRename={(name, label) => rename(focused, name, label)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'move' && (
        <MoveDialog
          entities={outermost(chosen())}
          folders={allFolders}
          onMove={(parent) => moveTo(outermost(chosen()), parent)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'delete' && (
        <DeleteDialog
          entities={outermost(chosen())}
          onDelete={(force) => remove(outermost(chosen()), force)}
          onClose={() => setDialog(null)}
        />
      )}
      {(dialog === 'folder' || dialog === 'task') && (
        <CreateDialog
          kind={dialog}
          parent={parentForNew}
          meta={meta}
          onCreate={create}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
