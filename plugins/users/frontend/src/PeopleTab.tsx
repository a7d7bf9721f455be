import { useMemo, useState } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { ChoosableRow, ErrorBox, Table, useAction, useClient, useLoaded } from '@pipewright/sdk/ui';
import {
  createUser,
  grantableRoles,
  listAccessGroups,
  listProjects,
  listUsers,
  roleFlags,
  roleOf,
  ROLE_LABELS,
  type Role,
} from './routes';
import { UserEditor } from './UserEditor';
import { ProfileFields } from './UserProfileSection';
import { USER_NAME_RULES } from './name-rules';

/** Everyone in the studio, a form for newcomers, and the editor of the one selected. */
export function PeopleTab({ caller }: { caller: ScreenUser }) {
  const client = useClient();
  const users = useLoaded(() => listUsers(client), [client]);
  // Projects and groups only feed the access editor: without them the rest of the tab still works.
  const projects = useLoaded(() => listProjects(client).catch(() => []), [client]);
  const groups = useLoaded(() => listAccessGroups(client).catch(() => []), [client]);
  const [search, setSearch] = useState('');
  const [showInactive, setShowInactive] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (users.data ?? []).filter(
      (user) =>
        (showInactive || user.active) &&
        (!needle ||
          user.name.toLowerCase().includes(needle) ||
          String(user.attrib.fullName ?? '')
            .toLowerCase()
            .includes(needle) ||
          String(user.attrib.email ?? '')
            .toLowerCase()
            .includes(needle)),
    );
  }, [users.data, search, showInactive]);
  const current = users.data?.find((user) => user.name === selected) ?? null;

  return (
    <div className="us-split">
      <div className="us-main">
        <div className="us-toolbar">
          <input
            type="search"
            aria-label="Search users"
            placeholder="Search by name or email"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <label className="pw-inline">
            <input
              type="checkbox"
              checked={showInactive}
              onChange={(e) => setShowInactive(e.target.checked)}
            />
            Show deactivated users
          </label>
          <span className="spacer" />
          <button
            type="button"
            className="primary"
            onClick={() => {
              setCreating(true);
              setSelected(null);
            }}
          >
            New user
          </button>
        </div>
        <ErrorBox error={users.error} />
        {users.data && shown.length === 0 && (
          <p className="notice">
            {users.data.length === 0
              ? 'No users yet. Create one with “New user”.'
              : 'Nobody matches. Clear the search or show deactivated users.'}
          </p>
        )}
        {shown.length > 0 && (
          <Table label="Users" columns={['Name', 'Full name', 'Email', 'Role', 'Projects', 'Status']}>
            {shown.map((user) => (
              <ChoosableRow
                key={user.name}
                selected={user.name === selected}
                onChoose={() => {
                  setSelected(user.name);
                  setCreating(false);
                }}
              >
                <td className="pw-strong">{user.name}</td>
                <td>{user.attrib.fullName || <span className="muted">—</span>}</td>
                <td>{user.attrib.email || <span className="muted">—</span>}</td>
                <td>{ROLE_LABELS[roleOf(user)]}</td>
                <td>
                  {roleOf(user) === 'admin' || roleOf(user) === 'manager' ? (
                    <span className="muted">all</span>
                  ) : (
                    Object.values(user.data.accessGroups ?? {}).filter((g) => g.length > 0).length
                  )}
                </td>
                <td>{user.active ? 'Active' : <span className="pw-badge pw-badge-bad">Deactivated</span>}</td>
              </ChoosableRow>
            ))}
          </Table>
        )}
      </div>
      {creating && (
        <NewUserForm
          caller={caller}
          onCancel={() => setCreating(false)}
          onCreated={(name) => {
            setCreating(false);
            setSelected(name);
            users.reload();
          }}
        />
      )}
      {current && !creating && (
        <UserEditor
          key={current.name}
          caller={caller}
          user={current}
          projects={projects.data ?? []}
          groups={(groups.data ?? []).map((g) => g.name)}
          onChanged={users.reload}
          onClose={() => setSelected(null)}
        />
      )}
    </div>
  );
}

function NewUserForm({
  caller,
  onCancel,
  onCreated,
}: {
  caller: ScreenUser;
  onCancel(): void;
  onCreated(name: string): void;
}) {
  const client = useClient();
  const [name, setName] = useState('');
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [password, setPassword] = useState('');
  const create = useAction();
  const submit = create.submit(async () => {
    await createUser(client, name.trim(), {
      attrib: { ...(fullName ? { fullName } : {}), ...(email ? { email } : {}) },
      data: roleFlags(role, caller.isAdmin),
      ...(password ? { password } : {}),
    });
    onCreated(name.trim());
  });

  return (
    <form className="pw-panel pw-form us-side" aria-label="New user" onSubmit={submit}>
      <header className="pw-panel-header">
        <h2>New user</h2>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </header>
      <label>
        User name
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          {...USER_NAME_RULES}
          autoFocus
        />
      </label>
      <ProfileFields
        fullName={fullName}
        email={email}
        role={role}
        roles={grantableRoles(caller)}
        onFullName={setFullName}
        onEmail={setEmail}
        onRole={setRole}
      />
      <label>
        Password
        <input
          type="password"
          autoComplete="new-password"
          value={password}
          minLength={8}
          onChange={(e) => setPassword(e.target.value)}
        />
        <span className="muted pw-small">
          At least 8 characters. Leave it empty for a service user, or set one later.
        </span>
      </label>
      <ErrorBox error={create.error} />
      <button type="submit" className="primary" disabled={create.busy || !name.trim()}>
        {create.busy ? 'Creating…' : 'Create user'}
      </button>
      <p className="muted pw-small">Give the new user access to projects in the editor that opens next.</p>
    </form>
  );
}
