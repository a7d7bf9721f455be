import { useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import type { EditTarget } from '../grid/CellEditor';
import type { Entity } from '../model';
import type { ProjectStore } from '../store/ProjectStore';
import type { Notice } from '../Toast';
import { editTargets } from './chosen';
import { sendOperations } from './operations';

/** Edits of at least this many rows run in the background on the server, with their progress shown. */
const BACKGROUND_FROM = 200;

/**
 * Values edited in the grid's cells and the detail panel (status, attributes, assignees): shown at once, stored in
 * one batch, then read back with what the rows below inherit. `saving` counts the edits on their way to the
 * server, so nobody closes the page on a change that is not stored yet; `progress` is the percent done of an
 * edit running in the background on the server, while one does.
 */
export function useCellEdits({
  client,
  project,
  store,
  selection,
  say,
}: {
  client: PipewrightClient;
  project: string;
  store: ProjectStore;
  selection: Set<string>;
  say(notice: Notice): void;
}) {
  const [saving, setSaving] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);

  const edit = async ({ entity, column }: EditTarget, value: unknown) => {
    const field = column.kind === 'status' ? 'status' : column.attribute!.name;
    // With several rows selected, the edit applies to each of them that has the same kind.
    const targets = editTargets(entity, selection, store, (e) => e.kind === entity.kind);
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
        say({ kind: 'error', text: `Not saved: ${failed?.detail ?? 'the server refused the change'}.` });
      } else if (targets.length > 1) {
        say({ kind: 'info', text: `Changed ${column.title} on ${targets.length} ${entity.kind}s.` });
      }
    } catch (failure) {
      say({ kind: 'error', text: `Not saved: ${messageOf(failure)}.` });
    } finally {
      setSaving((n) => n - 1);
      setProgress(null);
    }
    // What the server now says, for the edited rows and everything below them that inherits from them.
    await store
      .refresh(store.subtrees(targets))
      .catch((failure) =>
        say({ kind: 'error', text: `Could not read the new values: ${messageOf(failure)}` }),
      );
  };

  /** The tasks an assignment in this task's cell applies to: the selected tasks when it is one of them. */
  const assignTargets = (task: Entity): Entity[] =>
    editTargets(task, selection, store, (e) => e.kind === 'task');

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
    const failed = await sendOperations(client, project, store.entities, [...batch.pending]);
    setSaving((n) => n - 1);
    if (failed) say({ kind: 'error', text: `Not saved: ${failed.detail}.` });
    else if (changed.length > 1)
      say({ kind: 'info', text: `${on ? 'Assigned' : 'Unassigned'} ${name} on ${changed.length} tasks.` });
    await store.refresh({ folders: [], tasks: changed.map((t) => t.id) }).catch(() => undefined);
  };

  return { saving, progress, edit, assign, assignTargets };
}
