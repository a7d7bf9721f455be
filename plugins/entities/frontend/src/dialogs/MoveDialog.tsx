import { useMemo, useState, type FormEvent } from 'react';
import { ErrorBox, Options } from '@pipewright/sdk/ui';
import type { Entity } from '../model';
import { Actions, Dialog, useRequest } from './Dialog';

/** Pick the new parent folder among the project's folders (found by typing part of the path). */
export function MoveDialog({
  entities,
  folders,
  onMove,
  onClose,
}: {
  entities: Entity[];
  /** Every folder of the project (null while they are read). */
  folders: Entity[] | null;
  onMove(parent: Entity | null): Promise<string | null>;
  onClose(): void;
}) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<string>('');
  const { error, setError, busy, run } = useRequest();
  const tasksOnly = entities.every((e) => e.kind === 'task');
  // Not into itself, nor below itself.
  const candidates = useMemo(() => {
    const moving = entities.filter((e) => e.kind === 'folder').map((e) => e.path);
    const wanted = text.toLowerCase();
    return (folders ?? [])
      .filter((f) => !moving.some((p) => f.path === p || f.path.startsWith(`${p}/`)))
      .filter((f) => f.path.toLowerCase().includes(wanted))
      .sort((a, b) => a.path.localeCompare(b.path))
      .slice(0, 200);
  }, [folders, entities, text]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen === '') return setError('Choose where to move to.');
    const parent = chosen === 'top' ? null : ((folders ?? []).find((f) => f.id === chosen) ?? null);
    void run(() => onMove(parent));
  };
  const what =
    entities.length === 1 ? entities[0]!.name : `${entities.length} ${tasksOnly ? 'tasks' : 'entities'}`;
  return (
    <Dialog label={`Move ${what}`} onSubmit={submit} onClose={onClose}>
      <label>
        Find a folder
        <input
          type="search"
          value={text}
          autoFocus
          placeholder="part of a path…"
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <label>
        New parent
        <select name="parent" size={8} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          {!tasksOnly && <option value="top">The top level of the project</option>}
          <Options items={candidates} value={(f) => f.id} label={(f) => f.path} />
        </select>
      </label>
      {!folders && <p className="muted">Reading the project's folders…</p>}
      <ErrorBox error={error} />
      <Actions busy={busy} doing="Moving…" done="Move" onClose={onClose} />
    </Dialog>
  );
}
