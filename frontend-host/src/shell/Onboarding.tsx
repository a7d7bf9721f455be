import { useState } from 'react';
import { useAction, useClient } from '@pipewright/sdk/ui';
import { AuthCard, SubmitOutcome } from './AuthCard';
import { Field } from './Field';

/** First run: nobody can log in until this form creates the administrator, who is then logged in. */
export function Onboarding({ onDone }: { onDone(answer: { token: string }): void }) {
  const client = useClient();
  const [adminName, setAdminName] = useState('admin');
  const [adminPassword, setAdminPassword] = useState('');
  const create = useAction();
  const submit = create.submit(async () =>
    onDone(await client.POST('/api/onboarding/initialize', { body: { adminName, adminPassword } })),
  );

  return (
    <AuthCard label="Create the administrator" title="Welcome to Pipewright" onSubmit={submit}>
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
      <SubmitOutcome action={create} label="Create administrator" busyLabel="Creating…" />
    </AuthCard>
  );
}
