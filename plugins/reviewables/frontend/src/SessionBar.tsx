import { ErrorBox } from '@pipewright/sdk/ui';
import type { ReviewSession } from './use-review-session';

const ROLES = { driver: 'drives', reviewer: 'reviews', viewer: 'watches' } as const;

/**
 * The synced review session on screen: who drives and who takes part, and control changing hands: the driver hands
 * it to someone (or to whoever asks), the others ask for it, and anyone takes it while nobody drives.
 */
export function SessionBar({
  session,
  me,
  onLeave,
}: {
  session: ReviewSession;
  me: string;
  onLeave(): void;
}) {
  const { state } = session;
  if (!state)
    return (
      <section className="pwr-session" aria-label="Synced review">
        {session.error ? (
          <ErrorBox error={session.error} prefix="The session:" />
        ) : (
          <span>Joining the session…</span>
        )}
      </section>
    );
  const others = Object.keys(state.members).filter((name) => name !== me && state.members[name] !== 'viewer');
  return (
    <section className="pwr-session" aria-label="Synced review">
      <strong>Synced review</strong>
      <span role="status" aria-label="Who drives">
        {state.driver === me
          ? 'You drive: everyone follows you'
          : state.driver
            ? `${state.driver} drives`
            : 'Nobody drives'}
      </span>
      <ul className="pwr-session-members" aria-label="In the session">
        {Object.entries(state.members).map(([name, role]) => (
          <li key={name}>
            {name} {ROLES[role]}
          </li>
        ))}
      </ul>
      {session.driving && others.length > 0 && (
        <label className="pw-inline">
          Hand control to{' '}
          <select
            value=""
            onChange={(event) => event.target.value && void session.handTo(event.target.value)}
          >
            <option value="">…</option>
            {others.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
      {session.driving && session.asking && (
        <button type="button" onClick={() => void session.handTo(session.asking!)}>
          Hand control to {session.asking} (asked)
        </button>
      )}
      {!session.driving && state.driver && (
        <button type="button" onClick={() => session.ask()}>
          Ask for control
        </button>
      )}
      {!state.driver && (
        <button type="button" onClick={() => void session.handTo(me)}>
          Take control
        </button>
      )}
      <button type="button" onClick={onLeave}>
        Leave the session
      </button>
      <ErrorBox error={session.error} prefix="The session:" />
    </section>
  );
}
