import type { LiveState } from '@pipewright/sdk/ui';

const WORDS: Record<LiveState, { text: string; title: string }> = {
  connecting: { text: 'Connecting…', title: 'Connecting to the server for live updates' },
  live: { text: 'Live', title: 'Changes made by others show here as they happen' },
  reconnecting: {
    text: 'Reconnecting…',
    title: 'The live connection dropped; what changed meanwhile is read again once it is back',
  },
  off: { text: 'Not live', title: 'Live updates are off: press Refresh to see changes made elsewhere' },
};

/** Whether the overview follows other people's changes right now (useLiveOverview). */
export function LiveBadge({ state }: { state: LiveState }) {
  const { text, title } = WORDS[state];
  return (
    <span className={`pwo-live pwo-live-${state}`} title={title} aria-live="polite" data-live={state}>
      <span className="pwo-live-dot" aria-hidden="true" />
      {text}
    </span>
  );
}
