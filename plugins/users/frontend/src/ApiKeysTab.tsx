import { useState, type FormEvent } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import type { Api } from './api';
import { ConfirmButton, ErrorNote } from './controls';
import { useLoaded } from './loading';
import { createApiKey, createUser, listApiKeys, listUsers, revokeApiKey } from './routes';

/** Service users (pipelines, render farm workers, bots) and the API keys they log in with. */
export function ApiKeysTab({ api, caller }: { api: Api; caller: ScreenUser }) {
  const users = useLoaded(() => listUsers(api), [api]);
  const [selected, setSelected] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (!caller.isAdmin)
    return (
      <p className="notice">
        Only administrators create service users and manage their API keys. Ask one if a pipeline tool needs a
        key.
      </p>
    );

  const services = (users.data ?? []).filter((user) => user.data.isService);
  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const name = newName.trim();
    try {
      await createUser(api, name, { data: { isService: true } });
      setNewName('');
      setSelected(name);
      users.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <div className="us-split">
      <div className="us-main us-narrow">
        <ErrorNote error={users.error} />
        {users.data && services.length === 0 && (
          <p className="notice">
            No service users yet. Create one for each tool that talks to the server on its own, then give it a
            key.
          </p>
        )}
        <ul className="us-list" aria-label="Service users">
          {services.map((user) => (
            <li key={user.name}>
              <button
                type="button"
                aria-current={user.name === selected}
                className={user.name === selected ? 'us-selected' : undefined}
                onClick={() => setSelected(user.name)}
              >
                {user.name}
                {!user.active && <span className="muted"> (deactivated)</span>}
              </button>
            </li>
          ))}
        </ul>
        <form className="us-row" onSubmit={create} aria-label="New service user">
          <input
            aria-label="New service user name"
            placeholder="e.g. render-farm"
            value={newName}
            pattern="[a-zA-Z0-9]([a-zA-Z0-9_.\-]*[a-zA-Z0-9])?"
            title="Letters and digits, with dots, dashes or underscores inside"
            onChange={(e) => setNewName(e.target.value)}
          />
          <button type="submit" disabled={!newName.trim()}>
            Create service user
          </button>
        </form>
        <ErrorNote error={error} />
      </div>
      {selected && <KeyList key={selected} api={api} user={selected} />}
    </div>
  );
}

function KeyList({ api, user }: { api: Api; user: string }) {
  const keys = useLoaded(() => listApiKeys(api, user), [api, user]);
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<{ label: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setCopied(false);
    try {
      // A date from the picker means "until the end of that day" in the viewer's time zone.
      const until = expires ? new Date(`${expires}T23:59:59`).toISOString() : null;
      const answer = await createApiKey(api, user, label.trim(), until);
      setCreated({ label: label.trim(), key: answer.key });
      setLabel('');
      setExpires('');
      keys.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key);
      setCopied(true);
    } catch {
      setError('The browser did not allow copying: select the key and copy it by hand.');
    }
  };

  return (
    <section className="us-panel" aria-label={`API keys of ${user}`}>
      <header>
        <h2>API keys of {user}</h2>
      </header>
      {created && (
        <div className="us-new-key" role="status">
          <p>
            <strong>Copy the key “{created.label}” now:</strong> it is shown only this once.
          </p>
          <div className="us-row">
            <code aria-label="New API key">{created.key}</code>
            <button type="button" onClick={() => copy(created.key)}>
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button type="button" onClick={() => setCreated(null)}>
              I have stored it
            </button>
          </div>
        </div>
      )}
      <ErrorNote error={keys.error} />
      {keys.data && keys.data.length === 0 && <p className="muted">No keys yet. Create one below.</p>}
      {keys.data && keys.data.length > 0 && (
        <table className="us-table" aria-label="API keys">
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <td className="us-strong">{key.label}</td>
                <td>
                  <code>{key.preview}</code>
                </td>
                <td>{new Date(key.created).toLocaleDateString()}</td>
                <td>
                  {key.expires ? (
                    new Date(key.expires).toLocaleDateString()
                  ) : (
                    <span className="muted">never</span>
                  )}
                </td>
                <td>
                  <ConfirmButton
                    label="Revoke"
                    confirmLabel={`Revoke ${key.label}`}
                    onConfirm={() => {
                      revokeApiKey(api, user, key.id)
                        .then(keys.reload)
                        .catch((failure: Error) => setError(failure.message));
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="us-row" onSubmit={create} aria-label="Create an API key">
        <input
          aria-label="Key label"
          placeholder="What uses the key, e.g. farm node 12"
          value={label}
          maxLength={128}
          onChange={(e) => setLabel(e.target.value)}
        />
        <label className="us-inline">
          Expires
          <input
            type="date"
            aria-label="Key expiry date"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
          />
        </label>
        <button type="submit" className="primary" disabled={!label.trim()}>
          Create key
        </button>
      </form>
      <ErrorNote error={error} />
    </section>
  );
}
