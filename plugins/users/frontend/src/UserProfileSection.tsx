import { useState } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { ErrorBox, Options, Saved, useAction } from '@pipewright/sdk/ui';
import { grantableRoles, patchUser, roleFlags, roleOf, ROLE_LABELS, type Role } from './routes';
import { Section, type UserSectionProps } from './Section';

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
            <Options items={roles} value={(r) => r} label={(r) => ROLE_LABELS[r]} />
          </select>
        ) : (
          <input value={ROLE_LABELS[role]} readOnly />
        )}
      </label>
    </>
  );
}

/** The user's profile and role, and the access groups they get in projects created from now on. */
export function UserProfileSection({
  client,
  caller,
  user,
  groups,
  locked,
  onChanged,
}: UserSectionProps & { caller: ScreenUser; groups: string[] }) {
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
    <Section title="Profile" disabled={locked || change.busy}>
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
    </Section>
  );
}
