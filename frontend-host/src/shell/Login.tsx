import { useState, type FormEvent } from 'react';
import { api, type LoginAnswer, type ServerInfo } from '../api';

export function Login({ info, message, onDone }: { info: ServerInfo; message?: string; onDone(answer: LoginAnswer): void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await api<LoginAnswer>('/api/auth/login', { method: 'POST', body: { name, password } }));
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  return (
    <div className="centered">
      <form className="card auth-form" onSubmit={submit} aria-label="Log in">
        <h1>Pipewright</h1>
        {info.motd && <p className="muted">{info.motd}</p>}
        {message && (
          <p className="notice" role="status">
            {message}
          </p>
        )}
        <label>
          User name
          <input name="name" autoComplete="username" value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        {error && (
          <p className="error-box" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </div>
  );
}
