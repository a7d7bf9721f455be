import { useEffect, useState } from 'react';
import { ConfirmButton, ErrorBox, Panel, Saved, useAction, useClient, useLoaded } from '@pipewright/sdk/ui';
import { GROUP_NAME_RULES } from './name-rules';
import { CreateByName, PickAndEdit } from './PickAndEdit';
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
export function AccessGroupsTab() {
  const client = useClient();
  const groups = useLoaded(() => listAccessGroups(client), [client]);
  const [selected, setSelected] = useState<string | null>(null);

  return (
    <PickAndEdit
      label="Access groups"
      items={groups.data}
      error={groups.error}
      empty="No access groups yet. Create one below; users get them per project."
      nameOf={(group) => group.name}
      picked={selected}
      onPick={setSelected}
      create={
        <CreateByName
          label="New access group"
          placeholder="New group name"
          submitLabel="Create group"
          rules={GROUP_NAME_RULES}
          onCreate={async (name) => {
            await createAccessGroup(client, name);
            setSelected(name);
            groups.reload();
          }}
        />
      }
    >
      {selected ? (
        <GroupEditor
          key={selected}
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
    </PickAndEdit>
  );
}

function GroupEditor({ name, onDeleted }: { name: string; onDeleted(): void }) {
  const client = useClient();
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
    <Panel
      title={name}
      label={`Access group ${name}`}
      className="us-side us-wide"
      actions={
        <ConfirmButton
          label="Delete group"
          confirmLabel={`Delete ${name}`}
          onConfirm={() => void change.run(() => deleteAccessGroup(client, name).then(onDeleted))}
        />
      }
    >
      <ErrorBox error={stored.error} />
      {draft && <PermissionsEditor value={draft} onChange={setDraft} />}
      <ErrorBox error={change.error} />
      <Saved message={change.done} />
      <button type="button" className="primary" disabled={!draft || change.busy} onClick={save}>
        {change.busy ? 'Saving…' : 'Save permissions'}
      </button>
    </Panel>
  );
}
