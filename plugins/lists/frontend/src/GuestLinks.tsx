import { useState, type FormEvent } from 'react';
import { callRoute, ErrorBox, useClient, useLoaded } from '@pipewright/sdk/ui';
import './guest-links.css';

// Sharing a list of versions, or one version, with people who have no account: a guest link with an optional expiry
// and password and what guests may do (comment, download, approve). The link is shown once, to copy; the links made
// for the same list or version can be revoked, which ends what their guests have open at once.

interface GuestLink {
  id: string;
  label: string;
  expiresAt: string | null;
  hasPassword: boolean;
  canComment: boolean;
  canDownload: boolean;
  canApprove: boolean;
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
  active: boolean;
}

const flagsOf = (link: GuestLink) =>
  [link.canComment && 'comment', link.canDownload && 'download', link.canApprove && 'approve']
    .filter(Boolean)
    .join(', ') || 'view only';

/** What a link holds: a list of versions or one version. */
export type Shared = { listId: string } | { versionId: string };

/** "Share with a guest link…" and, opened, the form and the links made for the same list or version. */
export function GuestLinksButton({ project, shared }: { project: string; shared: Shared }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        Share with a guest link…
      </button>
      {open && <GuestLinksPanel project={project} shared={shared} onClose={() => setOpen(false)} />}
    </>
  );
}

function GuestLinksPanel({ project, shared, onClose }: { project: string; shared: Shared; onClose(): void }) {
  const client = useClient();
  const base = `/api/projects/${encodeURIComponent(project)}/guest-links`;
  const query = new URLSearchParams(shared).toString();
  const links = useLoaded(
    () => callRoute<{ links: GuestLink[] }>(client, `${base}?${query}`),
    [client, base, query],
  );
  const [expires, setExpires] = useState('');
  const [password, setPassword] = useState('');
  const [flags, setFlags] = useState({ canComment: true, canDownload: false, canApprove: false });
  const [made, setMade] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const make = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const answer = await callRoute<{ url: string }>(client, base, {
        method: 'POST',
        body: {
          ...shared,
          expiresAt: expires ? new Date(expires).toISOString() : null,
          password: password || null,
          ...flags,
        },
      });
      setMade(`${location.origin}${answer.url}`);
      setPassword('');
      void links.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const revoke = async (id: string) => {
    setError(null);
    try {
      await callRoute(client, `${base}/${id}`, { method: 'DELETE', parseAs: 'text' });
      void links.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const flag = (name: keyof typeof flags, label: string) => (
    <label className="pwl-inline">
      <input
        type="checkbox"
        checked={flags[name]}
        onChange={(e) => setFlags({ ...flags, [name]: e.target.checked })}
      />{' '}
      {label}
    </label>
  );

  return (
    <div className="pwl-guest-links card" role="dialog" aria-label="Guest links">
      <form onSubmit={make} aria-label="New guest link">
        <label>
          Expires
          <input
            type="datetime-local"
            name="expires"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
          />
        </label>
        <label>
          Password (optional)
          <input
            type="password"
            name="guest-password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {flag('canComment', 'Guests may comment')}
        {flag('canDownload', 'Guests may download')}
        {flag('canApprove', 'Guests may approve')}
        <button type="submit" className="primary">
          Make link
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </form>
      {made && (
        <p role="status">
          Copy this link now: it is not shown again.{' '}
          <input readOnly aria-label="Guest link" value={made} onFocus={(e) => e.target.select()} size={60} />{' '}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(made)}>
            Copy
          </button>
        </p>
      )}
      <ErrorBox error={error ?? links.error} prefix="Guest links:" />
      <ul aria-label={'listId' in shared ? 'Links of this list' : 'Links of this version'}>
        {(links.data?.links ?? []).map((link) => (
          <li key={link.id}>
            <span>
              {link.createdBy}, {new Date(link.createdAt).toLocaleString()} · {flagsOf(link)}
              {link.hasPassword && ' · password'}
              {link.expiresAt && ` · until ${new Date(link.expiresAt).toLocaleString()}`}
            </span>{' '}
            {link.active ? (
              <button type="button" onClick={() => void revoke(link.id)}>
                Revoke
              </button>
            ) : (
              <span className="muted">{link.revokedAt ? 'revoked' : 'expired'}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
