import { useState } from 'react';
import type { Reaction } from './activity';

// Reactions are stored by name (AYON's names where it has them); the feed draws them as emoji. A name this list
// does not know (another client's) is shown as its name.
const REACTIONS: { name: string; emoji: string; label: string }[] = [
  { name: 'thumb_up', emoji: '👍', label: 'Thumbs up' },
  { name: 'thumb_down', emoji: '👎', label: 'Thumbs down' },
  { name: 'heart', emoji: '❤️', label: 'Heart' },
  { name: 'celebration', emoji: '🎉', label: 'Celebration' },
  { name: 'laugh', emoji: '😄', label: 'Laugh' },
  { name: 'eyes', emoji: '👀', label: 'Looking into it' },
];

const known = new Map(REACTIONS.map((reaction) => [reaction.name, reaction]));

/** The reactions on an activity, grouped, and the picker to add one; a click on one's own takes it back. */
export function Reactions({
  reactions,
  me,
  onToggle,
  disabled,
}: {
  reactions: Reaction[];
  me: string;
  onToggle(reaction: string, add: boolean): void;
  disabled?: boolean;
}) {
  const [picking, setPicking] = useState(false);
  const groups = new Map<string, Reaction[]>();
  for (const reaction of reactions)
    groups.set(reaction.reaction, [...(groups.get(reaction.reaction) ?? []), reaction]);

  return (
    <div className="pwa-reactions">
      {[...groups].map(([name, list]) => {
        const mine = list.some((reaction) => reaction.userName === me);
        const who = list.map((reaction) =>
          reaction.userName === me ? 'you' : reaction.fullName || reaction.userName,
        );
        const label = known.get(name)?.label ?? name;
        return (
          <button
            key={name}
            type="button"
            className={mine ? 'pwa-reaction pwa-reaction-mine' : 'pwa-reaction'}
            aria-pressed={mine}
            aria-label={`${label}: ${who.join(', ')}`}
            title={`${label}: ${who.join(', ')}${mine ? ' (click to take yours back)' : ''}`}
            disabled={disabled}
            onClick={() => onToggle(name, !mine)}
          >
            {known.get(name)?.emoji ?? name} {list.length}
          </button>
        );
      })}
      <button
        type="button"
        className="pwa-reaction pwa-reaction-add"
        aria-label="Add a reaction"
        aria-expanded={picking}
        title="Add a reaction"
        disabled={disabled}
        onClick={() => setPicking((open) => !open)}
      >
        ☺+
      </button>
      {picking && (
        <span className="pwa-reaction-picker" role="group" aria-label="Reactions">
          {REACTIONS.map((reaction) => (
            <button
              key={reaction.name}
              type="button"
              className="pwa-reaction"
              aria-label={reaction.label}
              title={reaction.label}
              onClick={() => {
                setPicking(false);
                const mine = groups.get(reaction.name)?.some((r) => r.userName === me) ?? false;
                if (!mine) onToggle(reaction.name, true);
              }}
            >
              {reaction.emoji}
            </button>
          ))}
        </span>
      )}
    </div>
  );
}
