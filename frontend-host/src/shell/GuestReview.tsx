import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { GuestPlayer } from './GuestPlayer';
import {
  guestApi,
  GuestError,
  openLink,
  peekLink,
  type GuestAnnotation,
  type GuestComment,
  type GuestItems,
} from './guest-api';
import './guest.css';

// The page a guest link opens, with no account: the guest gives a name (and the password, when the link has one),
// then sees the link's versions, plays them with their annotations, reads and writes comments, approves and
// downloads as the link allows. When the link is revoked or expires the page says so and the picture stops.

/** The session of this link in this tab, so a reload does not ask for the name and password again. */
const sessionKey = (token: string) => `pipewright.guest.${token.slice(0, 12)}`;

type Stage =
  | { kind: 'checking' }
  | { kind: 'closed'; detail: string }
  | { kind: 'name'; label: string | null; needsPassword: boolean }
  | { kind: 'open'; session: string };

export function GuestReview() {
  const token = location.hash.slice(1);
  const [stage, setStage] = useState<Stage>({ kind: 'checking' });

  useEffect(() => {
    const kept = sessionStorage.getItem(sessionKey(token));
    if (kept) return setStage({ kind: 'open', session: kept });
    if (!token) return setStage({ kind: 'closed', detail: 'This address holds no guest link.' });
    peekLink(token).then(
      (link) => setStage({ kind: 'name', label: link.label, needsPassword: link.needsPassword }),
      (error: Error) => setStage({ kind: 'closed', detail: error.message }),
    );
  }, [token]);

  const opened = (session: string) => {
    sessionStorage.setItem(sessionKey(token), session);
    setStage({ kind: 'open', session });
  };

  switch (stage.kind) {
    case 'checking':
      return <div className="centered muted">Opening the link…</div>;
    case 'closed':
      return <Ended detail={stage.detail} />;
    case 'name':
      return (
        <NameForm
          token={token}
          {...stage}
          onOpen={opened}
          onClosed={(detail) => setStage({ kind: 'closed', detail })}
        />
      );
    case 'open':
      return <GuestRoom session={stage.session} />;
  }
}

function Ended({ detail }: { detail: string }) {
  return (
    <div className="centered">
      <div className="error-box pw-guest-ended" role="alert">
        {detail}. Ask whoever shared it for a new link.
      </div>
    </div>
  );
}

function NameForm({
  token,
  label,
  needsPassword,
  onOpen,
  onClosed,
}: {
  token: string;
  label: string | null;
  needsPassword: boolean;
  onOpen(session: string): void;
  onClosed(detail: string): void;
}) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onOpen((await openLink(token, name, needsPassword ? password : undefined)).session);
    } catch (failure) {
      if (failure instanceof GuestError && failure.ended) onClosed(failure.message);
      else setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="centered">
      <form className="card auth-form" onSubmit={submit} aria-label="Open the guest link">
        <h1>{label ? `Review: ${label}` : 'Review'}</h1>
        <p className="muted">
          You were invited to review work in progress. Your comments carry the name you give.
        </p>
        <label>
          Your name
          <input
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            autoFocus
            maxLength={64}
          />
        </label>
        {needsPassword && (
          <label>
            Password
            <input
              name="password"
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          </label>
        )}
        {error && (
          <div className="error-box" role="alert">
            {error}
          </div>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Opening…' : 'Open'}
        </button>
      </form>
    </div>
  );
}

function GuestRoom({ session }: { session: string }) {
  const api = useMemo(() => guestApi(session), [session]);
  const [items, setItems] = useState<GuestItems | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [annotations, setAnnotations] = useState<GuestAnnotation[]>([]);
  const [comments, setComments] = useState<GuestComment[]>([]);
  const [frame, setFrame] = useState<number | null>(null);
  const [draft, setDraft] = useState('');

  const failed = useCallback((failure: unknown) => {
    if (failure instanceof GuestError && failure.ended) setEnded(failure.message);
    else setError((failure as Error).message);
  }, []);

  useEffect(() => {
    api.items().then((loaded) => {
      setItems(loaded);
      setChosen(loaded.versions[0]?.id ?? null);
    }, failed);
    return api.watch(setEnded);
  }, [api, failed]);

  const version = items?.versions.find((v) => v.id === chosen) ?? null;
  const reviewable = version?.reviewables[0] ?? null;

  useEffect(() => {
    setAnnotations([]);
    setComments([]);
    if (!version) return;
    api.comments(version.id).then((read) => setComments(read.comments), failed);
    if (reviewable)
      api
        .annotations(version.id, reviewable.activityId)
        .then((read) => setAnnotations(read.annotations), failed);
  }, [api, version, reviewable, failed]);

  if (ended) return <Ended detail={ended} />;
  if (!items) return <div className="centered muted">{error ?? 'Loading…'}</div>;

  const post = async (event: FormEvent) => {
    event.preventDefault();
    if (!version || !draft.trim()) return;
    try {
      await api.comment(version.id, draft, frame);
      setDraft('');
      setComments((await api.comments(version.id)).comments);
    } catch (failure) {
      failed(failure);
    }
  };
  const approve = async () => {
    if (!version) return;
    try {
      const { status } = await api.approve(version.id);
      setItems({
        ...items,
        versions: items.versions.map((v) => (v.id === version.id ? { ...v, status } : v)),
      });
    } catch (failure) {
      failed(failure);
    }
  };

  return (
    <div className="pw-guest">
      <header>
        <h1>{items.label}</h1>
        <span className="muted">
          Reviewing as {items.guestName}
          {items.expiresAt && ` · link open until ${new Date(items.expiresAt).toLocaleString()}`}
        </span>
      </header>
      {error && (
        <div className="error-box" role="alert">
          {error}
        </div>
      )}
      <div className="pw-guest-body">
        <nav aria-label="Versions">
          <ul>
            {items.versions.map((v) => (
              <li key={v.id}>
                <button type="button" aria-current={v.id === chosen} onClick={() => setChosen(v.id)}>
                  <span>{v.title}</span> <span className="muted">{v.status}</span>
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <main>
          {version && reviewable ? (
            <GuestPlayer
              key={reviewable.fileId}
              reviewable={reviewable}
              src={api.mediaUrl(reviewable.fileId)}
              annotations={annotations}
              stopped={ended !== null}
              onFrame={setFrame}
            />
          ) : (
            <p className="muted">
              {version ? 'This version has nothing to play.' : 'This link shows no versions.'}
            </p>
          )}
          {version && (
            <div className="pw-guest-actions">
              <span>
                Status: <strong>{version.status}</strong>
              </span>
              {items.canApprove && (
                <button type="button" onClick={approve}>
                  Approve
                </button>
              )}
              {items.canDownload && reviewable && (
                <a href={api.mediaUrl(reviewable.fileId, true)} download>
                  Download
                </a>
              )}
            </div>
          )}
          {version && (
            <section aria-label="Comments" className="pw-guest-comments">
              <h2>Comments</h2>
              {comments.length === 0 && <p className="muted">No comments yet.</p>}
              <ul>
                {comments.map((c) => (
                  <li key={c.id}>
                    <strong>{c.author}</strong>
                    {c.guest && <span className="muted"> (guest)</span>}
                    {c.frame !== null && <span className="muted"> · frame {c.frame}</span>}
                    <p>{c.body}</p>
                  </li>
                ))}
              </ul>
              {items.canComment && (
                <form onSubmit={post} aria-label="Comment">
                  <textarea
                    name="comment"
                    value={draft}
                    onChange={(e) => setDraft(e.target.value)}
                    placeholder={frame === null ? 'Your comment' : `Your comment on frame ${frame}`}
                  />
                  <button type="submit" className="primary" disabled={!draft.trim()}>
                    Comment{frame === null ? '' : ` on frame ${frame}`}
                  </button>
                </form>
              )}
            </section>
          )}
        </main>
      </div>
    </div>
  );
}
