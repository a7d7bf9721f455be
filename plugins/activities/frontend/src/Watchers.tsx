import { useState } from 'react';
import { messageOf } from '@pipewright/sdk/ui';

/**
 * Who follows the entity (everyone here hears of new comments and changes in their inbox), and the button to
 * follow it or stop.
 */
export function Watchers({
  watchers,
  me,
  onChange,
}: {
  /** null while not read yet. */
  watchers: string[] | null;
  me: string;
  onChange(watchers: string[]): Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!watchers) return <span className="muted pwa-watchers">Reading watchers…</span>;
  const watching = watchers.includes(me);
  const others = watchers.filter((name) => name !== me);
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await onChange(watching ? others : [...watchers, me]);
    } catch (failure) {
      setError(`Not changed: ${messageOf(failure)}`);
    } finally {
      setBusy(false);
    }
  };
  const summary =
    watchers.length === 0
      ? 'Nobody watches this yet'
      : watching
        ? others.length === 0
          ? 'You watch this'
          : `You and ${others.length} other${others.length === 1 ? '' : 's'} watch this`
        : `${watchers.length} watching`;
  return (
    <span className="pwa-watchers">
      <span className="muted" title={watchers.length ? `Watching: ${watchers.join(', ')}` : undefined}>
        {summary}
      </span>{' '}
      <button type="button" className="pw-link" disabled={busy} onClick={() => void toggle()}>
        {watching ? 'Stop watching' : 'Watch'}
      </button>
      {error && <span className="pwa-error"> {error}</span>}
    </span>
  );
}
