import { useState } from 'react';
import type { Operation, PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import type { Planned } from '../dialogs/bulkPlan';
import type { NewEntity } from '../dialogs/CreateDialog';
import { undoCreate, undoDelete, undoUpdate, type UndoStep } from '../hierarchy';
import { parentKey, ROOT, type Entity } from '../model';
import type { ProjectStore } from '../store/ProjectStore';
import type { Notice } from '../Toast';
import { namedOrCounted } from './chosen';
import { sendOperations } from './operations';

/** How many changes of this session Undo can take back, newest first. */
const UNDO_DEPTH = 20;

/**
 * Shaping the hierarchy from the dialogs: create (one or many), rename, move and delete, each sent as one atomic
 * batch and remembered with what undoes it. Each answers the dialog with the server's refusal, or null when done
 * (the dialog is then closed and the change said).
 */
export function useHierarchyEdits({
  client,
  project,
  store,
  open,
  only,
  revealRow,
  clearSelection,
  closeDialog,
  say,
}: {
  client: PipewrightClient;
  project: string;
  store: ProjectStore;
  /** Open folders in the grid, and in the tree. */
  open(grid: string[], tree?: string[]): void;
  only(id: string | null): void;
  revealRow(id: string): void;
  clearSelection(): void;
  closeDialog(): void;
  say(notice: Notice): void;
}) {
  const [undoSteps, setUndoSteps] = useState<UndoStep[]>([]);
  const remember = (step: UndoStep) => setUndoSteps((steps) => [...steps.slice(1 - UNDO_DEPTH), step]);
  const send = (operations: Operation[]) => sendOperations(client, project, store.entities, operations);
  const loadedBelow = (entity: Entity) => store.subtree(entity).folders;
  /** A change went through: remember what undoes it, close the dialog and say so. */
  const done = (step: UndoStep, text: string) => {
    remember(step);
    closeDialog();
    say({ kind: 'info', text });
    return null;
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
      if (parent) open([parent.id], kind === 'folder' ? [parent.id] : []);
      // The selection stays on the parent, so the next New folder makes a sibling, never a child of this one.
      only(parent?.id ?? null);
      revealRow(id);
      return done(
        undoCreate(`create ${name}`, [{ kind, id, depth: 0 }], [parent?.id ?? ROOT]),
        `Created ${kind} ${name}${parent ? ` in ${parent.path}` : ''}.`,
      );
    } catch (failure) {
      return messageOf(failure);
    }
  };

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
    open(
      [...opened, ...containers],
      opened.filter((id) => store.entities.get(id)?.kind === 'folder'),
    );
    return done(
      undoCreate(
        label,
        plan.map((p) => ({ kind: p.kind, id: ids.get(p.key)!, depth: depth.get(p.key)! })),
        levels,
      ),
      `Created ${plan.length} ${plan.every((p) => p.kind === 'task') ? 'tasks' : 'folders'}.`,
    );
  };

  const rename = async (entity: Entity, name: string, label: string | null): Promise<string | null> => {
    const batch = client.operations(project);
    batch.update(entity.kind, entity.id, { name, label });
    const failed = await send([...batch.pending]);
    if (failed) return `Not renamed: ${failed.detail}.`;
    const levels = [parentKey(entity), ...(entity.kind === 'folder' ? loadedBelow(entity) : [])];
    await store.reread(levels, [entity.id], []);
    return done(
      undoUpdate(
        `rename ${entity.name} to ${name}`,
        entity,
        { name: entity.name, label: entity.label },
        levels,
      ),
      `Renamed ${entity.name} to ${name}.`,
    );
  };

  const moveTo = async (entities: Entity[], parent: Entity | null): Promise<string | null> => {
    if (!parent && entities.some((e) => e.kind === 'task')) return 'A task needs a folder: choose one.';
    const batch = client.operations(project);
    const back: Operation[] = [];
    for (const entity of entities) {
      if (entity.kind === 'folder') batch.update('folder', entity.id, { parentId: parent?.id ?? null });
      else batch.update('task', entity.id, { folderId: parent!.id });
      const before = entity.kind === 'folder' ? { parentId: entity.parentId } : { folderId: entity.parentId };
      back.push(...undoUpdate('', entity, before, []).operations);
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
    if (parent) open([parent.id]);
    const what = namedOrCounted(entities);
    const where = parent?.path ?? 'the top level';
    return done(
      { label: `move ${what} to ${where}`, operations: back, parents: levels },
      `Moved ${what} to ${where}.`,
    );
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
    const what = namedOrCounted(entities);
    clearSelection();
    return done(undoDelete(`delete ${what}`, removed, levels), `Deleted ${what}.`);
  };

  const undo = async () => {
    const step = undoSteps[undoSteps.length - 1];
    if (!step) return;
    const failed = await send(step.operations);
    if (failed) return say({ kind: 'error', text: `Could not undo ${step.label}: ${failed.detail}.` });
    setUndoSteps((steps) => steps.slice(0, -1));
    const ids = (type: string) => step.operations.filter((o) => o.type === type).map((o) => o.entityId!);
    await store.reread(step.parents, ids('update'), ids('delete'));
    for (const level of step.parents)
      if (level !== ROOT && store.entities.has(level))
        store.patch(level, { hasChildren: true, hasTasks: true });
    say({ kind: 'info', text: `Undone: ${step.label}.` });
  };

  const undoLabel = undoSteps[undoSteps.length - 1]?.label ?? null;
  return { create, createMany, rename, moveTo, remove, undo, undoLabel };
}
