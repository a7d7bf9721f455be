import { useEffect, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { ConfirmButton, ErrorBox, Saved, useAction, useLoaded } from '@pipewright/sdk/ui';
import { PermissionsEditor } from './PermissionsEditor';
import {
  createAccessGroup,
  deleteAccessGroup,
  listAccessGroups,
  readAccessGroup,
  saveAccessGroup,
  type Permissions,
} from './routes';

/** The studio's access groups: pick one to edit its permissions, or create a new one. */
export function AccessGroupsTab({ client }: { client: PipewrightClient }) {
  const groups = useLoaded(() => listAccessGroups(client), [client]);
  const [selected, setSelected] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const creation = useAction();
  const create = creation.submit(async () => {
    const name = newName.trim();
    await createAccessGroup(client, name);
    setNewName('');
    setSelected(name);
    groups.reload();
  });

  return (
    <div className="us-split">
      <div className="us-main us-narrow">
        <ErrorBox error={groups.error} />
        {groups.data && groups.data.length === 0 && (
          <p className="notice">No access groups yet. Create one below; users get them per project.</p>
        )}
        <ul className="us-list" aria-label="Access groups">
          {(groups.data ?? []).map((group) => (
            <li key={group.name}>
              <button
                type="button"
                aria-current={group.name === selected}
                className={group.name === selected ? 'pw-selected' : undefined}
                onClick={() => setSelected(group.name)}
              >
                {group.name}
              </button>
            </li>
          ))}
        </ul>
        <form className="pw-row" onSubmit={create} aria-label="New access group">
          <input
            aria-label="New access group name"
            placeholder="New group name"
            value={newName}
            pattern="[a-zA-Z0-9_]([a-zA-Z0-9_.\-]*[a-zA-Z0-9_])?"
            title="Letters, digits and underscores, with dots or dashes inside"
            onChange={(e) => setNewName(e.target.value)}
          />
          <button type="submit" disabled={!newName.trim()}>
            Create group
          </button>
        </form>
        <ErrorBox error={creation.error} />
      </div>
      {selected ? (
        <GroupEditor
          key={selected}
          client={client}
          name={selected}
          onDeleted={() => {
            setSelected(null);
            groups.reload();
          }}
        />
      ) : (
        (groups.data?.length ?? 0) > 0 && (
          <p className="muted">Pick a group to see and change its permissions.</p>
        )
      )}
    </div>
  );
}

function GroupEditor({
  client,
  name,
  onDeleted,
}: {
  client: PipewrightClient;
  name: string;
  onDeleted(): void;
}) {
  const stored = useLoaded(() => readAccessGroup(client, name), [client, name]);
  const [draft, setDraft] = useState<Permissions | null>(null);
  const change = useAction();
  useEffect(() => setDraft(stored.data), [stored.data]);

  const save = () =>
    change.run(async () => {
      await saveAccessGroup(client, name, draft!);
      stored.reload();
    }, 'Permissions saved. Members get them with their next request.');

  return (
    <section className="pw-panel us-side us-wide" aria-label={`Access group ${name}`}>
      <header className="pw-panel-header">
        <h2>{name}</h2>
        <ConfirmButton
          label="Delete group"
          confirmLabel={`Delete ${name}`}
          onConfirm={() => void change.run(() => deleteAccessGroup(client, name).then(onDeleted))}
        />
      </header>
      <ErrorBox error={stored.error} />
      {draft && <PermissionsEditor value={draft} onChange={setDraft} />}
      <ErrorBox error={change.error} />
      <Saved message={change.done} />
      <button type="button" className="primary" disabled={!draft || change.busy} onClick={save}>
        {change.busy ? 'Saving…' : 'Save permissions'}
      </button>
    </section>
  );
}
