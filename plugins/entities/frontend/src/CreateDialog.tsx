import { useState, type FormEvent } from 'react';
import { ErrorBox } from '@pipewright/sdk/ui';
import type { Entity, Kind, ProjectMeta } from './model';

export interface NewEntity {
  kind: Kind;
  name: string;
  type: string;
  /** The parent folder; null makes a top-level folder. */
  parent: Entity | null;
}

// Entity names: letters, digits and _, with inner dots and hyphens (the server's rule, checked here first).
export const NAME = /^[a-zA-Z0-9_]([a-zA-Z0-9_.-]*[a-zA-Z0-9_])?$/;

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
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A folder may also go to the top level although a folder is selected; a task always needs its folder.
  const [inside, setInside] = useState(true);
  const target = kind === 'folder' && !inside ? null : parent;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!NAME.test(name))
      return setError('Use letters, digits and _ (dots and hyphens inside the name are fine).');
    setBusy(true);
    setError(await onCreate({ kind, name, type, parent: target }));
    setBusy(false);
  };

  return (
    <div className="pwo-dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <form
        className="pwo-dialog"
        role="dialog"
        aria-label={kind === 'folder' ? 'New folder' : 'New task'}
        onSubmit={submit}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <h2>{kind === 'folder' ? 'New folder' : 'New task'}</h2>
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
        <label>
          Name
          <input
            name="name"
            value={name}
            autoFocus
            required
            maxLength={255}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label>
          {kind === 'folder' ? 'Folder type' : 'Task type'}
          <select name="type" value={type} onChange={(e) => setType(e.target.value)}>
            {types.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <ErrorBox error={error} />
        <div className="pwo-dialog-actions">
          <button type="submit" className="primary" disabled={busy || !name}>
            {busy ? 'Creating…' : `Create ${kind}`}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}

function suggestedType(kind: Kind, parent: Entity | null, names: string[]): string {
  if (kind === 'task') return names[0] ?? '';
  const next: Record<string, string> = { Episode: 'Sequence', Sequence: 'Shot', Library: 'Asset' };
  const wanted = parent ? next[parent.type] : undefined;
  return wanted && names.includes(wanted) ? wanted : (names[0] ?? '');
}
