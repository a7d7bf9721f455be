import { useState } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { ConfirmButton, ErrorBox, Panel, Table, useAction, useClient, useLoaded } from '@pipewright/sdk/ui';
import { USER_NAME_RULES } from './name-rules';
import { CreateByName, PickAndEdit } from './PickAndEdit';
import { createApiKey, createUser, listApiKeys, listUsers, revokeApiKey } from './routes';

/** Service users (pipelines, render farm workers, bots) and the API keys they log in with. */
export function ApiKeysTab({ caller }: { caller: ScreenUser }) {
  const client = useClient();
  const users = useLoaded(() => listUsers(client), [client]);
  const [selected, setSelected] = useState<string | null>(null);

  if (!caller.isAdmin)
    return (
      <p className="notice">
        Only administrators create service users and manage their API keys. Ask one if a pipeline tool needs a
        key.
      </p>
    );

  const services = users.data?.filter((user) => user.data.isService) ?? null;
  return (
    <PickAndEdit
      label="Service users"
      items={services}
      error={users.error}
      empty="No service users yet. Create one for each tool that talks to the server on its own, then give it a key."
      nameOf={(user) => user.name}
      picked={selected}
      onPick={setSelected}
      itemContent={(user) => (
        <>
          {user.name}
          {!user.active && <span className="muted"> (deactivated)</span>}
        </>
      )}
      create={
        <CreateByName
          label="New service user"
          placeholder="e.g. render-farm"
          submitLabel="Create service user"
          rules={USER_NAME_RULES}
          onCreate={async (name) => {
            await createUser(client, name, { data: { isService: true } });
            setSelected(name);
            users.reload();
          }}
        />
      }
    >
      {selected && <KeyList key={selected} user={selected} />}
    </PickAndEdit>
  );
}

function KeyList({ user }: { user: string }) {
  const client = useClient();
  const keys = useLoaded(() => listApiKeys(client, user), [client, user]);
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<{ label: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const change = useAction();

  const create = change.submit(async () => {
    setCopied(false);
    // A date from the picker means "until the end of that day" in the viewer's time zone.
    const until = expires ? new Date(`${expires}T23:59:59`).toISOString() : null;
    const answer = await createApiKey(client, user, label.trim(), until);
    setCreated({ label: label.trim(), key: answer.key });
    setLabel('');
    setExpires('');
    keys.reload();
  });

  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key);
      setCopied(true);
    } catch {
      change.fail('The browser did not allow copying: select the key and copy it by hand.');
    }
  };

  return (
    <Panel title={`API keys of ${user}`} className="us-side">
      {created && (
        <div className="us-new-key" role="status">
          <p>
            <strong>Copy the key “{created.label}” now:</strong> it is shown only this once.
          </p>
          <div className="pw-row">
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
      <ErrorBox error={keys.error} />
      {keys.data && keys.data.length === 0 && <p className="muted">No keys yet. Create one below.</p>}
      {keys.data && keys.data.length > 0 && (
        <Table label="API keys" columns={['Label', 'Key', 'Created', 'Expires', '']}>
          {keys.data.map((key) => (
            <tr key={key.id}>
              <td className="pw-strong">{key.label}</td>
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
                    void change.run(() => revokeApiKey(client, user, key.id).then(keys.reload));
                  }}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form className="pw-row" onSubmit={create} aria-label="Create an API key">
        <input
          aria-label="Key label"
          placeholder="What uses the key, e.g. farm node 12"
          value={label}
          maxLength={128}
          onChange={(e) => setLabel(e.target.value)}
        />
        <label className="pw-inline">
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
      <ErrorBox error={change.error} />
    </Panel>
  );
}
