import { useState, type FormEvent } from 'react';
import { ErrorBox, Options } from '@pipewright/sdk/ui';
import type { Entity, Kind, ProjectMeta } from '../model';
import { Actions, Dialog, NameField, useRequest } from './Dialog';
import { NAME, NAME_RULE } from './names';

export interface NewEntity {
  kind: Kind;
  name: string;
  type: string;
  /** The parent folder; null makes a top-level folder. */
  parent: Entity | null;
}

/** A small form for a new folder or task inside the chosen folder; the server's refusal is shown in it. */
export function CreateDialog({
  kind,
  parent,
  meta,
  onCreate,
  onClose,
}: {
  kind: Kind;
  parent: Entity | null;
  meta: ProjectMeta;
  onCreate(entity: NewEntity): Promise<string | null>;
  onClose(): void;
}) {
  const types = kind === 'folder' ? meta.folderTypes : meta.taskTypes;
  const [name, setName] = useState('');
  // A folder inside a sequence is most likely a shot: suggest the type that follows the parent's, when there is one.
  const [type, setType] = useState(() =>
    suggestedType(
      kind,
      parent,
      types.map((t) => t.name),
    ),
  );
  const { error, setError, busy, run } = useRequest();
  // A folder may also go to the top level although a folder is selected; a task always needs its folder.
  const [inside, setInside] = useState(true);
  const target = kind === 'folder' && !inside ? null : parent;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!NAME.test(name)) return setError(NAME_RULE);
    void run(() => onCreate({ kind, name, type, parent: target }));
  };

  return (
    <Dialog label={kind === 'folder' ? 'New folder' : 'New task'} onSubmit={submit} onClose={onClose}>
      {kind === 'folder' && parent ? (
        <label>
          Where
          <select
            name="where"
            value={inside ? 'inside' : 'top'}
            onChange={(e) => setInside(e.target.value === 'inside')}
          >
            <option value="inside">Inside {parent.path}</option>
            <option value="top">At the top level of the project</option>
          </select>
        </label>
      ) : (
        <p className="muted">In {parent ? parent.path : 'the top level of the project'}</p>
      )}
      <NameField label="Name" name="name" value={name} onChange={setName} />
      <label>
        {kind === 'folder' ? 'Folder type' : 'Task type'}
        <select name="type" value={type} onChange={(e) => setType(e.target.value)}>
          <Options items={types} value={(t) => t.name} />
        </select>
      </label>
      <ErrorBox error={error} />
      <Actions busy={busy} doing="Creating…" done={`Create ${kind}`} disabled={!name} onClose={onClose} />
    </Dialog>
  );
}

function suggestedType(kind: Kind, parent: Entity | null, names: string[]): string {
  if (kind === 'task') return names[0] ?? '';
  const next: Record<string, string> = { Episode: 'Sequence', Sequence: 'Shot', Library: 'Asset' };
  const wanted = parent ? next[parent.type] : undefined;
  return wanted && names.includes(wanted) ? wanted : (names[0] ?? '');
}
