import { useEffect, useState, type FormEvent } from 'react';
import type { Api } from './api';
import { ConfirmButton, ErrorNote, Saved } from './controls';
import { useLoaded } from './loading';
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
export function AccessGroupsTab({ api }: { api: Api }) {
  const groups = useLoaded(() => listAccessGroups(api), [api]);
  const [selected, setSelected] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const name = newName.trim();
    try {
      await createAccessGroup(api, name);
      setNewName('');
      setSelected(name);
      groups.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <div className="us-split">
      <div className="us-main us-narrow">
        <ErrorNote error={groups.error} />
        {groups.data && groups.data.length === 0 && (
          <p className="notice">No access groups yet. Create one below; users get them per project.</p>
        )}
        <ul className="us-list" aria-label="Access groups">
          {(groups.data ?? []).map((group) => (
            <li key={group.name}>
              <button
                type="button"
                aria-current={group.name === selected}
                className={group.name === selected ? 'us-selected' : undefined}
                onClick={() => setSelected(group.name)}
              >
                {group.name}
              </button>
            </li>
          ))}
        </ul>
        <form className="us-row" onSubmit={create} aria-label="New access group">
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
        <ErrorNote error={error} />
      </div>
      {selected ? (
        <GroupEditor
          key={selected}
          api={api}
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

function GroupEditor({ api, name, onDeleted }: { api: Api; name: string; onDeleted(): void }) {
  const stored = useLoaded(() => readAccessGroup(api, name), [api, name]);
  const [draft, setDraft] = useState<Permissions | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setDraft(stored.data), [stored.data]);

  const save = async () => {
    if (!draft) return;
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      await saveAccessGroup(api, name, draft);
      setSaved('Permissions saved. Members get them with their next request.');
      stored.reload();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="us-panel us-wide" aria-label={`Access group ${name}`}>
      <header>
        <h2>{name}</h2>
        <ConfirmButton
          label="Delete group"
          confirmLabel={`Delete ${name}`}
          onConfirm={() => {
            deleteAccessGroup(api, name)
              .then(onDeleted)
              .catch((failure: Error) => setError(failure.message));
          }}
        />
      </header>
      <ErrorNote error={stored.error} />
      {draft && <PermissionsEditor value={draft} onChange={setDraft} />}
      <ErrorNote error={error} />
      <Saved message={saved} />
      <button type="button" className="primary" disabled={!draft || busy} onClick={save}>
        {busy ? 'Saving…' : 'Save permissions'}
      </button>
    </section>
  );
}
