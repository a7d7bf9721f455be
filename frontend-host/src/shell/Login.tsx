import { useState } from 'react';
import { useAction, useClient } from '@pipewright/sdk/ui';
import { AuthCard, SubmitOutcome } from './AuthCard';
import { Field } from './Field';
import type { LoginAnswer, ServerInfo } from '../api';

/**
 * The login form, with the reason the user is here (logged out, session ended) when there is one, and a way to a
 * new password when the server can mail reset links.
 */
export function Login({
  info,
  message,
  onDone,
  onForgot,
}: {
  info: ServerInfo;
  message?: string;
  onDone(answer: LoginAnswer): void;
  onForgot(): void;
}) {
  const client = useClient();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const login = useAction();
  const submit = login.submit(async () =>
    onDone(await client.POST('/api/auth/login', { body: { name, password } })),
  );

  return (
    <AuthCard label="Log in" title="Pipewright" onSubmit={submit}>
      {info.motd && <p className="muted">{info.motd}</p>}
      {message && (
        <p className="notice" role="status">
          {message}
        </p>
      )}
      <Field
        label="User name"
        name="name"
        autoComplete="username"
        value={name}
        onChange={setName}
        required
        autoFocus
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        required
      />
      <SubmitOutcome action={login} label="Log in" busyLabel="Logging in…" />
      {info.passwordRecoveryAvailable && (
        <button type="button" className="pw-link" onClick={onForgot}>
          Forgot your password?
        </button>
      )}
    </AuthCard>
  );
}
