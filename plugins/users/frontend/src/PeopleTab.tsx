import { useMemo, useState, type FormEvent } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import type { Api } from './api';
import { ErrorNote } from './controls';
import { useLoaded } from './loading';
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

/** Everyone in the studio, a form for newcomers, and the editor of the one selected. */
export function PeopleTab({ api, caller }: { api: Api; caller: ScreenUser }) {
  const users = useLoaded(() => listUsers(api), [api]);
  // Projects and groups only feed the access editor: without them the rest of the tab still works.
  const projects = useLoaded(() => listProjects(api).catch(() => []), [api]);
  const groups = useLoaded(() => listAccessGroups(api).catch(() => []), [api]);
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
          <label className="us-inline">
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
        <ErrorNote error={users.error} />
        {users.data && shown.length === 0 && (
          <p className="notice">
            {users.data.length === 0
              ? 'No users yet. Create one with “New user”.'
              : 'Nobody matches. Clear the search or show deactivated users.'}
          </p>
        )}
        {shown.length > 0 && (
          <table className="us-table" aria-label="Users">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Full name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Projects</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((user) => (
                <tr
                  key={user.name}
                  tabIndex={0}
                  aria-selected={user.name === selected}
                  className={user.name === selected ? 'us-selected' : undefined}
                  onClick={() => {
                    setSelected(user.name);
                    setCreating(false);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      setSelected(user.name);
                      setCreating(false);
                    }
                  }}
                >
                  <td className="us-strong">{user.name}</td>
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
                  <td>{user.active ? 'Active' : <span className="us-badge-off">Deactivated</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {creating && (
        <NewUserForm
          api={api}
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
          api={api}
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
  api,
  caller,
  onCancel,
  onCreated,
}: {
  api: Api;
  caller: ScreenUser;
  onCancel(): void;
  onCreated(name: string): void;
}) {
  const [name, setName] = useState('');
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await createUser(api, name.trim(), {
        attrib: { ...(fullName ? { fullName } : {}), ...(email ? { email } : {}) },
        data: roleFlags(role, caller.isAdmin),
        ...(password ? { password } : {}),
      });
      onCreated(name.trim());
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  return (
    <form className="us-panel us-form" aria-label="New user" onSubmit={submit}>
      <header>
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
          pattern="[a-zA-Z0-9]([a-zA-Z0-9_.\-]*[a-zA-Z0-9])?"
          title="Letters and digits, with dots, dashes or underscores inside"
          autoFocus
        />
      </label>
      <label>
        Full name
        <input value={fullName} onChange={(e) => setFullName(e.target.value)} />
      </label>
      <label>
        Email
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Role
        <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {grantableRoles(caller).map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete="new-password"
          value={password}
          minLength={8}
          onChange={(e) => setPassword(e.target.value)}
        />
        <span className="muted us-hint">
          At least 8 characters. Leave it empty for a service user, or set one later.
        </span>
      </label>
      <ErrorNote error={error} />
      <button type="submit" className="primary" disabled={busy || !name.trim()}>
        {busy ? 'Creating…' : 'Create user'}
      </button>
      <p className="muted us-hint">Give the new user access to projects in the editor that opens next.</p>
    </form>
  );
}
