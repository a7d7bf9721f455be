import { useState } from 'react';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { ConfirmButton, ErrorBox, Saved, useAction } from '@pipewright/sdk/ui';
import { patchUser, setPassword } from './routes';
import { Section, type UserSectionProps } from './Section';

/** Whether the user can log in (deactivate, reactivate) and, for administrators, a new password. */
export function UserAccountSection({
  client,
  caller,
  user,
  locked,
  onChanged,
}: UserSectionProps & { caller: ScreenUser }) {
  const change = useAction();
  const self = caller.name.toLowerCase() === user.name.toLowerCase();
  // Your own password is changed with your current one; an administrator sets other people's without it.
  const askCurrent = self && user.hasPassword;

  const setActive = (active: boolean, done: string) =>
    change.run(async () => {
      await patchUser(client, user.name, { active });
      onChanged();
    }, done);
  const changePassword = (password: string, current: string | undefined) =>
    change.run(
      async () => {
        await setPassword(client, user.name, password, current);
        onChanged();
      },
      self
        ? 'Password changed. Your other sessions have ended.'
        : 'Password set. The user’s other sessions have ended.',
    );

  return (
    <Section title="Account" disabled={locked || change.busy}>
      <p>
        {user.active ? 'Active: the user can log in.' : 'Deactivated: the user cannot log in.'}{' '}
        {!user.hasPassword && <span className="muted">No password set.</span>}
      </p>
      {user.active ? (
        <ConfirmButton
          label="Deactivate user"
          confirmLabel={`Deactivate ${user.name}`}
          disabled={self}
          onConfirm={() => setActive(false, `${user.name} is deactivated.`)}
        />
      ) : (
        <button type="button" onClick={() => setActive(true, `${user.name} is active again.`)}>
          Reactivate user
        </button>
      )}
      {self && <p className="muted pw-small">You cannot deactivate your own account.</p>}
      {caller.isAdmin && <NewPassword askCurrent={askCurrent} onSet={changePassword} />}
      <ErrorBox error={change.error} />
      <Saved message={change.done} />
    </Section>
  );
}

/** A new password (with the current one when it is your own), emptied once it is set. */
function NewPassword({
  askCurrent,
  onSet,
}: {
  askCurrent: boolean;
  /** Resolves to whether the password was set. */
  onSet(password: string, current: string | undefined): Promise<boolean>;
}) {
  const [password, setNewPassword] = useState('');
  const [current, setCurrent] = useState('');
  const set = async () => {
    if (!(await onSet(password, askCurrent ? current : undefined))) return;
    setNewPassword('');
    setCurrent('');
  };
  return (
    <div className="pw-row">
      {askCurrent && (
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={setCurrent}
        />
      )}
      <PasswordInput
        label="New password"
        placeholder="New password (8 characters or more)"
        autoComplete="new-password"
        value={password}
        onChange={setNewPassword}
      />
      <button type="button" disabled={password.length < 8 || (askCurrent && current === '')} onClick={set}>
        Set password
      </button>
    </div>
  );
}

function PasswordInput({
  label,
  placeholder = label,
  autoComplete,
  value,
  onChange,
}: {
  label: string;
  placeholder?: string;
  autoComplete: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <input
      type="password"
      aria-label={label}
      placeholder={placeholder}
      autoComplete={autoComplete}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
