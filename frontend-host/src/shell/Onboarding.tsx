import { useState, type FormEvent } from 'react';
import { api, type LoginAnswer } from '../api';

/** First run: nobody can log in until this form creates the administrator, who is then logged in. */
export function Onboarding({ onDone }: { onDone(answer: LoginAnswer): void }) {
  const [adminName, setAdminName] = useState('admin');
  const [adminPassword, setAdminPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await api<LoginAnswer>('/api/onboarding/initialize', { method: 'POST', body: { adminName, adminPassword } }));
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  return (
    <div className="centered">
      <form className="card auth-form" onSubmit={submit} aria-label="Create the administrator">
        <h1>Welcome to Pipewright</h1>
        <p className="muted">This server has no administrator yet. Create one to start; you will be logged in as this user.</p>
        <label>
          Administrator name
          <input name="adminName" autoComplete="username" value={adminName} onChange={(e) => setAdminName(e.target.value)} required />
        </label>
        <label>
          Password (at least 8 characters)
          <input
            name="adminPassword"
            type="password"
            autoComplete="new-password"
            minLength={8}
            value={adminPassword}
            onChange={(e) => setAdminPassword(e.target.value)}
            required
          />
        </label>
        {error && (
          <p className="error-box" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create administrator'}
        </button>
      </form>
    </div>
  );
}
