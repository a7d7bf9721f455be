import { useState } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import type { Api } from './api';
import { ConfirmButton, ErrorNote, Saved } from './controls';
import {
  grantableRoles,
  patchUser,
  roleFlags,
  roleOf,
  ROLE_LABELS,
  setAccessGroups,
  setPassword,
  type Role,
  type UserRecord,
} from './routes';

/** Run a change, then say how it went: the error where it happened, or a short "saved". */
function useChange() {
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      await work();
      setSaved(done);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return { error, saved, busy, run };
}

/** One user: profile and role, access groups per project, activation and password. */
export function UserEditor({
  api,
  caller,
  user,
  projects,
  groups,
  onChanged,
  onClose,
}: {
  api: Api;
  caller: ScreenUser;
  user: UserRecord;
  projects: { name: string; code: string }[];
  groups: string[];
  onChanged(): void;
  onClose(): void;
}) {
  // Only administrators change administrators; the server refuses it anyway, the form says so first.
  const locked = roleOf(user) === 'admin' && !caller.isAdmin;
  return (
    <aside className="us-panel" aria-label={`User ${user.name}`}>
      <header>
        <h2>{user.name}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {locked && <p className="notice">Only administrators can change an administrator.</p>}
      <ProfileSection
        api={api}
        caller={caller}
        user={user}
        groups={groups}
        locked={locked}
        onChanged={onChanged}
      />
      <AccessSection
        api={api}
        user={user}
        projects={projects}
        groups={groups}
        locked={locked}
        onChanged={onChanged}
      />
      <AccountSection api={api} caller={caller} user={user} locked={locked} onChanged={onChanged} />
    </aside>
  );
}

function ProfileSection({
  api,
  caller,
  user,
  groups,
  locked,
  onChanged,
}: {
  api: Api;
  caller: ScreenUser;
  user: UserRecord;
  groups: string[];
  locked: boolean;
  onChanged(): void;
}) {
  const [fullName, setFullName] = useState(String(user.attrib.fullName ?? ''));
  const [email, setEmail] = useState(String(user.attrib.email ?? ''));
  const [role, setRole] = useState<Role>(roleOf(user));
  const [defaults, setDefaults] = useState<string[]>(user.data.defaultAccessGroups ?? []);
  const change = useChange();
  const roles = grantableRoles(caller);
  // A manager looking at a service user cannot pick that role, nor take it away.
  const roleFixed = !roles.includes(roleOf(user));

  const save = () =>
    change.run(async () => {
      const data: Record<string, unknown> = { defaultAccessGroups: defaults };
      if (!roleFixed && role !== roleOf(user)) Object.assign(data, roleFlags(role, caller.isAdmin));
      await patchUser(api, user.name, { attrib: { fullName, email }, data });
      onChanged();
    }, 'Profile saved.');

  return (
    <fieldset className="us-section" disabled={locked || change.busy}>
      <legend>Profile</legend>
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
        {roleFixed ? (
          <input value={ROLE_LABELS[roleOf(user)]} readOnly />
        ) : (
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        )}
      </label>
      {groups.length > 0 && (
        <div className="us-field">
          <span>Access groups in new projects</span>
          <div className="us-checks">
            {groups.map((group) => (
              <label key={group} className="us-inline">
                <input
                  type="checkbox"
                  checked={defaults.includes(group)}
                  onChange={(e) =>
                    setDefaults(e.target.checked ? [...defaults, group] : defaults.filter((g) => g !== group))
                  }
                />
                {group}
              </label>
            ))}
          </div>
        </div>
      )}
      <ErrorNote error={change.error} />
      <Saved message={change.saved} />
      <button type="button" className="primary" onClick={save}>
        Save profile
      </button>
    </fieldset>
  );
}

function AccessSection({
  api,
  user,
  projects,
  groups,
  locked,
  onChanged,
}: {
  api: Api;
  user: UserRecord;
  projects: { name: string; code: string }[];
  groups: string[];
  locked: boolean;
  onChanged(): void;
}) {
  const original = user.data.accessGroups ?? {};
  const [access, setAccess] = useState<Record<string, string[]>>(original);
  const change = useChange();
  const role = roleOf(user);

  if (role === 'admin' || role === 'manager') {
    return (
      <fieldset className="us-section">
        <legend>Project access</legend>
        <p className="muted">
          {ROLE_LABELS[role]}s reach every project; access groups apply to users and guests.
        </p>
      </fieldset>
    );
  }
  if (projects.length === 0 || groups.length === 0) {
    return (
      <fieldset className="us-section">
        <legend>Project access</legend>
        <p className="muted">
          {projects.length === 0
            ? 'There are no projects yet. Create one, then come back to give access to it.'
            : 'There are no access groups. Create one in the Access groups tab.'}
        </p>
      </fieldset>
    );
  }

  const toggle = (project: string, group: string, on: boolean) => {
    const current = access[project] ?? [];
    setAccess({ ...access, [project]: on ? [...current, group] : current.filter((g) => g !== group) });
  };
  const same = (a: string[] = [], b: string[] = []) => a.length === b.length && a.every((g) => b.includes(g));
  const changed = Object.fromEntries(
    projects
      .map((p) => p.name)
      .filter((name) => !same(access[name], original[name]))
      .map((name) => [name, access[name] ?? []]),
  );

  const save = () =>
    change.run(async () => {
      await setAccessGroups(api, user.name, changed);
      onChanged();
    }, 'Access saved.');

  return (
    <fieldset className="us-section" disabled={locked || change.busy}>
      <legend>Project access</legend>
      <table className="us-table us-access" aria-label="Access groups per project">
        <thead>
          <tr>
            <th scope="col">Project</th>
            {groups.map((group) => (
              <th scope="col" key={group}>
                {group}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {projects.map((project) => (
            <tr key={project.name}>
              <th scope="row">{project.name}</th>
              {groups.map((group) => (
                <td key={group}>
                  <input
                    type="checkbox"
                    aria-label={`${group} in ${project.name}`}
                    checked={(access[project.name] ?? []).includes(group)}
                    onChange={(e) => toggle(project.name, group, e.target.checked)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNote error={change.error} />
      <Saved message={change.saved} />
      <button type="button" className="primary" onClick={save} disabled={Object.keys(changed).length === 0}>
        Save access
      </button>
    </fieldset>
  );
}

function AccountSection({
  api,
  caller,
  user,
  locked,
  onChanged,
}: {
  api: Api;
  caller: ScreenUser;
  user: UserRecord;
  locked: boolean;
  onChanged(): void;
}) {
  const [password, setNewPassword] = useState('');
  const change = useChange();
  const self = caller.name.toLowerCase() === user.name.toLowerCase();

  return (
    <fieldset className="us-section" disabled={locked || change.busy}>
      <legend>Account</legend>
      <p>
        {user.active ? 'Active: the user can log in.' : 'Deactivated: the user cannot log in.'}{' '}
        {!user.hasPassword && <span className="muted">No password set.</span>}
      </p>
      {user.active ? (
        <ConfirmButton
          label="Deactivate user"
          confirmLabel={`Deactivate ${user.name}`}
          disabled={self}
          onConfirm={() =>
            change.run(async () => {
              await patchUser(api, user.name, { active: false });
              onChanged();
            }, `${user.name} is deactivated.`)
          }
        />
      ) : (
        <button
          type="button"
          onClick={() =>
            change.run(async () => {
              await patchUser(api, user.name, { active: true });
              onChanged();
            }, `${user.name} is active again.`)
          }
        >
          Reactivate user
        </button>
      )}
      {self && <p className="muted us-hint">You cannot deactivate your own account.</p>}
      {caller.isAdmin && (
        <div className="us-row">
          <input
            type="password"
            aria-label="New password"
            placeholder="New password (8 characters or more)"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setNewPassword(e.target.value)}
          />
          <button
            type="button"
            disabled={password.length < 8}
            onClick={() =>
              change.run(async () => {
                await setPassword(api, user.name, password);
                setNewPassword('');
                onChanged();
              }, 'Password set. The user’s other sessions have ended.')
            }
          >
            Set password
          </button>
        </div>
      )}
      <ErrorNote error={change.error} />
      <Saved message={change.saved} />
    </fieldset>
  );
}
