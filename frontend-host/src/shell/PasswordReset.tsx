import { useState } from 'react';
import { useAction, useClient, useLoaded } from '@pipewright/sdk/ui';
import { AuthCard, SubmitOutcome } from './AuthCard';
import { Field } from './Field';
import type { LoginAnswer } from '../api';

/** Where a mailed reset link leads: this app's own page, which the server only accepts on its public address. */
export const RESET_PATH = '/passwordReset';

/** "Forgot your password?": asks the server to mail a reset link. */
export function ForgotPassword({ onBack }: { onBack(): void }) {
  const client = useClient();
  const [email, setEmail] = useState('');
  const ask = useAction();
  const submit = ask.submit(
    () =>
      client.POST('/api/users/passwordResetRequest', {
        body: { email, url: `${location.origin}${RESET_PATH}` },
      }),
    // The server answers the same for every address, and so does this page.
    'If an account has this address, a link to choose a new password is on its way. It works once, for an hour.',
  );

  return (
    <AuthCard label="Reset password" title="Forgot your password?" onSubmit={submit}>
      <p className="muted">
        Type the email address of your account: we mail you a link to choose a new password.
      </p>
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        required
        autoFocus
      />
      <SubmitOutcome action={ask} label="Mail me a link" busyLabel="Sending…" />
      <button type="button" className="pw-link" onClick={onBack}>
        Back to log in
      </button>
    </AuthCard>
  );
}

/** The page a reset link opens: checks the link, then sets the new password and logs in. */
export function ChooseNewPassword({
  token,
  onDone,
  onBack,
}: {
  token: string;
  onDone(answer: LoginAnswer): void;
  onBack(): void;
}) {
  const client = useClient();
  // Asking without a password only checks the link: nothing is used up. Any refusal means the link is no good.
  const check = useLoaded(
    () =>
      client.POST('/api/users/passwordReset', { body: { token } }).then(
        () => true,
        () => false,
      ),
    [client, token],
  );
  const valid = check.data;
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const save = useAction();

  const submit = save.submit(async () => {
    if (password !== repeated) throw new Error('The two passwords differ.');
    onDone((await client.POST('/api/users/passwordReset', { body: { token, password } })) as LoginAnswer);
  });

  if (valid === null) return <div className="centered muted">Checking the link…</div>;
  return (
    <AuthCard label="Choose a new password" title="Choose a new password" onSubmit={submit}>
      {valid ? (
        <>
          <Field
            label="New password"
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            required
            autoFocus
          />
          <Field
            label="Repeat it"
            name="repeated"
            type="password"
            autoComplete="new-password"
            value={repeated}
            onChange={setRepeated}
            required
          />
          <SubmitOutcome action={save} label="Save and log in" busyLabel="Saving…" />
        </>
      ) : (
        <p className="error-box" role="alert">
          This link is invalid, was used already or has expired. Ask for a new one from the login page.
        </p>
      )}
      <button type="button" className="pw-link" onClick={onBack}>
        Back to log in
      </button>
    </AuthCard>
  );
}
