import { useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { ConfirmButton, ErrorBox, Saved, Table, useAction } from '@pipewright/sdk/ui';
import { AccessSummary } from './AccessSummary';
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

/** A user's full name, email and role, for a new user and in the editor; without roles the role is shown only. */
export function ProfileFields({
  fullName,
  email,
  role,
  roles,
  onFullName,
  onEmail,
  onRole,
}: {
  fullName: string;
  email: string;
  role: Role;
  /** The roles the caller may choose from; null when the role cannot be changed here. */
  roles: Role[] | null;
  onFullName(value: string): void;
  onEmail(value: string): void;
  onRole(role: Role): void;
}) {
  return (
    <>
      <label>
        Full name
        <input value={fullName} onChange={(e) => onFullName(e.target.value)} />
      </label>
      <label>
        Email
        <input type="email" value={email} onChange={(e) => onEmail(e.target.value)} />
      </label>
      <label>
        Role
        {roles ? (
          <select value={role} onChange={(e) => onRole(e.target.value as Role)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        ) : (
          <input value={ROLE_LABELS[role]} readOnly />
        )}
      </label>
    </>
  );
}

/** One user: profile and role, access groups per project, activation and password. */
export function UserEditor({
  client,
  caller,
  user,
  projects,
  groups,
  onChanged,
  onClose,
}: {
  client: PipewrightClient;
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
    <aside className="pw-panel us-side" aria-label={`User ${user.name}`}>
      <header className="pw-panel-header">
        <h2>{user.name}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {locked && <p className="notice">Only administrators can change an administrator.</p>}
      <AccessSummary user={user} />
      <ProfileSection
        client={client}
        caller={caller}
        user={user}
        groups={groups}
        locked={locked}
        onChanged={onChanged}
      />
      <AccessSection
        client={client}
        user={user}
        projects={projects}
        groups={groups}
        locked={locked}
        onChanged={onChanged}
      />
      <AccountSection client={client} caller={caller} user={user} locked={locked} onChanged={onChanged} />
    </aside>
  );
}

function ProfileSection({
  client,
  caller,
  user,
  groups,
  locked,
  onChanged,
}: {
  client: PipewrightClient;
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
  const change = useAction();
  const roles = grantableRoles(caller);
  // A manager looking at a service user cannot pick that role, nor take it away.
  const roleFixed = !roles.includes(roleOf(user));

  const save = () =>
    change.run(async () => {
      const data: Record<string, unknown> = { defaultAccessGroups: defaults };
      if (!roleFixed && role !== roleOf(user)) Object.assign(data, roleFlags(role, caller.isAdmin));
      await patchUser(client, user.name, { attrib: { fullName, email }, data });
      onChanged();
    }, 'Profile saved.');

  return (
    <fieldset className="pw-group us-section" disabled={locked || change.busy}>
      <legend>Profile</legend>
      <ProfileFields
        fullName={fullName}
        email={email}
        role={role}
        roles={roleFixed ? null : roles}
        onFullName={setFullName}
        onEmail={setEmail}
        onRole={setRole}
      />
      {groups.length > 0 && (
        <div className="pw-field">
          <span>Access groups in new projects</span>
          <div className="us-checks">
            {groups.map((group) => (
              <label key={group} className="pw-inline">
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
      <ErrorBox error={change.error} />
      <Saved message={change.done} />
      <button type="button" className="primary" onClick={save}>
        Save profile
      </button>
    </fieldset>
  );
}

function AccessSection({
  client,
  user,
  projects,
  groups,
  locked,
  onChanged,
}: {
  client: PipewrightClient;
  user: UserRecord;
  projects: { name: string; code: string }[];
  groups: string[];
  locked: boolean;
  onChanged(): void;
}) {
  const original = user.data.accessGroups ?? {};
  const [access, setAccess] = useState<Record<string, string[]>>(original);
  const change = useAction();
  const role = roleOf(user);

  if (role === 'admin' || role === 'manager') {
    return (
      <fieldset className="pw-group us-section">
        <legend>Project access</legend>
        <p className="muted">
          {ROLE_LABELS[role]}s reach every project; access groups apply to users and guests.
        </p>
      </fieldset>
    );
  }
  if (projects.length === 0 || groups.length === 0) {
    return (
      <fieldset className="pw-group us-section">
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
      await setAccessGroups(client, user.name, changed);
      onChanged();
    }, 'Access saved.');

  return (
    <fieldset className="pw-group us-section" disabled={locked || change.busy}>
      <legend>Project access</legend>
      <Table label="Access groups per project" columns={['Project', ...groups]} className="us-access">
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
      </Table>
      <ErrorBox error={change.error} />
      <Saved message={change.done} />
      <button type="button" className="primary" onClick={save} disabled={Object.keys(changed).length === 0}>
        Save access
      </button>
    </fieldset>
  );
}

function AccountSection({
  client,
  caller,
  user,
  locked,
  onChanged,
}: {
  client: PipewrightClient;
  caller: ScreenUser;
  user: UserRecord;
  locked: boolean;
  onChanged(): void;
}) {
  const [password, setNewPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const change = useAction();
  const self = caller.name.toLowerCase() === user.name.toLowerCase();
  // Your own password is changed with your current one; an administrator sets other people's without it.
  const askCurrent = self && user.hasPassword;

  return (
    <fieldset className="pw-group us-section" disabled={locked || change.busy}>
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
              await patchUser(client, user.name, { active: false });
              onChanged();
            }, `${user.name} is deactivated.`)
          }
        />
      ) : (
        <button
          type="button"
          onClick={() =>
            change.run(async () => {
              await patchUser(client, user.name, { active: true });
              onChanged();
            }, `${user.name} is active again.`)
          }
        >
          Reactivate user
        </button>
      )}
      {self && <p className="muted pw-small">You cannot deactivate your own account.</p>}
      {caller.isAdmin && (
        <div className="pw-row">
          {askCurrent && (
            <input
              type="password"
              aria-label="Current password"
              placeholder="Current password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
            />
          )}
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
            disabled={password.length < 8 || (askCurrent && currentPassword === '')}
            onClick={() =>
              change.run(
                async () => {
                  await setPassword(client, user.name, password, askCurrent ? currentPassword : undefined);
                  setNewPassword('');
                  setCurrentPassword('');
                  onChanged();
                },
                self
                  ? 'Password changed. Your other sessions have ended.'
                  : 'Password set. The user’s other sessions have ended.',
              )
            }
          >
            Set password
          </button>
        </div>
      )}
      <ErrorBox error={change.error} />
      <Saved message={change.done} />
    </fieldset>
  );
}
