import { useEffect, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { ErrorBox, useAction } from '@pipewright/sdk/ui';
import { Field } from './Field';
import type { LoginAnswer } from '../api';

/** Where a mailed reset link leads: this app's own page, which the server only accepts on its public address. */
export const RESET_PATH = '/passwordReset';

/** "Forgot your password?": asks the server to mail a reset link. */
export function ForgotPassword({ client, onBack }: { client: PipewrightClient; onBack(): void }) {
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
    <div className="centered">
      <form className="card auth-form" onSubmit={submit} aria-label="Reset password">
        <h1>Forgot your password?</h1>
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
        <ErrorBox error={ask.error} />
        {ask.done && (
          <p className="notice" role="status">
            {ask.done}
          </p>
        )}
        <button type="submit" className="primary" disabled={ask.busy}>
          {ask.busy ? 'Sending…' : 'Mail me a link'}
        </button>
        <button type="button" className="pw-link" onClick={onBack}>
          Back to log in
        </button>
      </form>
    </div>
  );
}

/** The page a reset link opens: checks the link, then sets the new password and logs in. */
export function ChooseNewPassword({
  client,
  token,
  onDone,
  onBack,
}: {
  client: PipewrightClient;
  token: string;
  onDone(answer: LoginAnswer): void;
  onBack(): void;
}) {
  const [valid, setValid] = useState<boolean | null>(null);
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const save = useAction();

  useEffect(() => {
    // Asking without a password only checks the link: nothing is used up.
    client.POST('/api/users/passwordReset', { body: { token } }).then(
      () => setValid(true),
      () => setValid(false),
    );
  }, [client, token]);

  const submit = save.submit(async () => {
    if (password !== repeated) throw new Error('The two passwords differ.');
    onDone((await client.POST('/api/users/passwordReset', { body: { token, password } })) as LoginAnswer);
  });

  if (valid === null) return <div className="centered muted">Checking the link…</div>;
  return (
    <div className="centered">
      <form className="card auth-form" onSubmit={submit} aria-label="Choose a new password">
        <h1>Choose a new password</h1>
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
            <ErrorBox error={save.error} />
            <button type="submit" className="primary" disabled={save.busy}>
              {save.busy ? 'Saving…' : 'Save and log in'}
            </button>
          </>
        ) : (
          <p className="error-box" role="alert">
            This link is invalid, was used already or has expired. Ask for a new one from the login page.
          </p>
        )}
        <button type="button" className="pw-link" onClick={onBack}>
          Back to log in
        </button>
      </form>
    </div>
  );
}
