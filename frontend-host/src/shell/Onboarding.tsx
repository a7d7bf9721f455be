import { useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { ErrorBox, useAction } from '@pipewright/sdk/ui';
import { Field } from './Field';

/** First run: nobody can log in until this form creates the administrator, who is then logged in. */
export function Onboarding({
  client,
  onDone,
}: {
  client: PipewrightClient;
  onDone(answer: { token: string }): void;
}) {
  const [adminName, setAdminName] = useState('admin');
  const [adminPassword, setAdminPassword] = useState('');
  const create = useAction();
  const submit = create.submit(async () =>
    onDone(await client.POST('/api/onboarding/initialize', { body: { adminName, adminPassword } })),
  );

  return (
    <div className="centered">
      <form className="card auth-form" onSubmit={submit} aria-label="Create the administrator">
        <h1>Welcome to Pipewright</h1>
        <p className="muted">
          This server has no administrator yet. Create one to start; you will be logged in as this user.
        </p>
        <Field
          label="Administrator name"
          name="adminName"
          autoComplete="username"
          value={adminName}
          onChange={setAdminName}
          required
        />
        <Field
          label="Password (at least 8 characters)"
          name="adminPassword"
          type="password"
          autoComplete="new-password"
          minLength={8}
          value={adminPassword}
          onChange={setAdminPassword}
          required
        />
        <ErrorBox error={create.error} />
        <button type="submit" className="primary" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create administrator'}
        </button>
      </form>
    </div>
  );
}
