import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { CompareSetup } from './Compare';
import { clampOffset, MODES, type Side } from './compare-state';
import { isTyping } from './player-keys';

// How A and B are compared, under the transport: the mode, the wipe's direction, the overlay's opacity, B's frame
// offset, which side is heard, and the A/B switch (also the T key, anywhere on the screen except while typing).

/** The buttons keep the focus where it was, so the player's keys go on working after a click. */
const keepFocus = (event: MouseEvent) => event.preventDefault();

const other = (side: Side): Side => (side === 'a' ? 'b' : 'a');

export function CompareControls({
  setup,
  firstNumber,
  frame,
}: {
  setup: CompareSetup;
  /** The number of A's first frame in the shot's numbering. */
  firstNumber: number;
  /** A's media frame on screen. */
  frame: number;
}) {
  const { state, change } = setup;
  const toggling = state.mode === 'toggle';

  // T switches A and B (in the A/B mode; from another mode it goes there, showing B).
  const latest = useRef(state);
  latest.current = state;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 't' || event.defaultPrevented || isTyping(event.target)) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      const now = latest.current;
      change(now.mode === 'toggle' ? { showing: other(now.showing) } : { mode: 'toggle', showing: 'b' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [change]);

  const pressed = (on: boolean, label: string, onClick: () => void, title?: string) => (
    <button type="button" aria-pressed={on} onMouseDown={keepFocus} onClick={onClick} title={title}>
      {label}
    </button>
  );

  return (
    <div className="pwr-compare-controls" role="group" aria-label="Compare">
      <span className="pwr-compare-modes" role="group" aria-label="Compare mode">
        {MODES.map(({ mode, label, hint }) =>
          pressed(state.mode === mode, label, () => change({ mode }), hint),
        )}
      </span>
      {state.mode === 'wipe' && (
        <span className="pwr-compare-modes" role="group" aria-label="Wipe direction">
          {pressed(
            state.direction === 'h',
            'Left | right',
            () => change({ direction: 'h' }),
            'A left, B right',
          )}
          {pressed(
            state.direction === 'v',
            'Top / bottom',
            () => change({ direction: 'v' }),
            'A above, B below',
          )}
        </span>
      )}
      {state.mode === 'overlay' && (
        <label className="pw-inline">
          B opacity{' '}
          <input
            type="range"
            min={0}
            max={100}
            step={1}
            value={Math.round(state.opacity * 100)}
            onChange={(event) => change({ opacity: Number(event.target.value) / 100 })}
          />
          <output>{Math.round(state.opacity * 100)} %</output>
        </label>
      )}
      {toggling && (
        <button
          type="button"
          className="pwr-compare-switch"
          onMouseDown={keepFocus}
          onClick={() => change({ showing: other(state.showing) })}
          title="Switch between A and B (T)"
        >
          Showing {state.showing.toUpperCase()} · show {other(state.showing).toUpperCase()}
        </button>
      )}
      <OffsetField offset={state.offset} onChange={(offset) => change({ offset })} />
      <span className="muted pw-small" aria-label="Frame of B">
        B at frame {firstNumber + Math.max(0, frame + state.offset)}
      </span>
      <label className="pw-inline">
        Sound from{' '}
        <select value={state.audio} onChange={(event) => change({ audio: event.target.value as Side })}>
          <option value="a">A</option>
          <option value="b">B</option>
        </select>
      </label>
    </div>
  );
}

/** B's offset in frames: typed freely, taken when it is a whole number. */
function OffsetField({ offset, onChange }: { offset: number; onChange(offset: number): void }) {
  const [text, setText] = useState(String(offset));
  // Follow changes made elsewhere (the address), unless the field holds the same number being typed.
  useEffect(() => setText((typed) => (Number(typed) === offset ? typed : String(offset))), [offset]);
  return (
    <label className="pw-inline" title="B shows A's frame plus this many frames: a re-cut lines up again">
      B offset{' '}
      <input
        className="pwr-compare-offset"
        type="number"
        step={1}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (/^\s*-?\d+\s*$/.test(event.target.value)) onChange(clampOffset(Number(event.target.value)));
        }}
      />{' '}
      frames
    </label>
  );
}
