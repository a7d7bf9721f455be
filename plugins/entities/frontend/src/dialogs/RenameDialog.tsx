import { useState, type FormEvent } from 'react';
import { ErrorBox } from '@pipewright/sdk/ui';
import type { Entity } from '../model';
import { Actions, Dialog, NameField, useRequest } from './Dialog';
import { NAME, NAME_RULE } from './names';

/** A new name (and label) for one folder or task; the overview sends it and answers with the server's refusal. */
export function RenameDialog({
  entity,
  onRename,
  onClose,
}: {
  entity: Entity;
  onRename(name: string, label: string | null): Promise<string | null>;
  onClose(): void;
}) {
  const [name, setName] = useState(entity.name);
  const [label, setLabel] = useState(entity.label ?? '');
  const { error, setError, busy, run } = useRequest();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!NAME.test(name)) return setError(NAME_RULE);
    if (name === entity.name && label === (entity.label ?? '')) return onClose();
    void run(() => onRename(name, label || null));
  };
  return (
    <Dialog label={`Rename ${entity.name}`} onSubmit={submit} onClose={onClose}>
      <NameField label="Name" name="name" value={name} onChange={setName} />
      <label>
        Label (optional)
        <input name="label" value={label} onChange={(e) => setLabel(e.target.value)} />
      </label>
      <ErrorBox error={error} />
      <Actions busy={busy} doing="Renaming…" done="Rename" onClose={onClose} />
    </Dialog>
  );
}
