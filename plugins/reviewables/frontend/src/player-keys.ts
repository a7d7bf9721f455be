import { useEffect, useRef } from 'react';

// The keys of review tools (RV, Kitsu, AYON), anywhere on the screen except while typing: Space plays and pauses,
// J, K, L shuttle, the arrows step a frame (Shift: a second), Home and End jump to the first and last frame.

export interface PlayerActions {
  toggle(): void;
  /** Move this many frames (negative: back), paused. */
  step(frames: number): void;
  /** Shift+arrow's step: a second's worth of frames. */
  second: number;
  first(): void;
  last(): void;
  /** L: play forward, faster on each press while playing. */
  forward(): void;
  /** J: back (a browser cannot play backwards, so a frame back, paused; while playing fast, slower first). */
  back(): void;
  /** K: stop. */
  stop(): void;
}

// Inputs where keys are not text: the scrubber and buttons of the player take the player's keys.
const NOT_TEXT = new Set(['range', 'button', 'submit', 'reset', 'checkbox', 'radio', 'color', 'file']);

/** Keys meant for a field being typed in (a label, a comment in the feed, a menu like the status) are not the player's. */
export function isTyping(target: EventTarget | null): boolean {
  const element = target instanceof HTMLElement ? target : null;
  if (!element) return false;
  if (element instanceof HTMLInputElement) return !NOT_TEXT.has(element.type);
  return !!element.closest('textarea, select, [contenteditable]:not([contenteditable="false"])');
}

export function usePlayerKeys(actions: PlayerActions) {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target))
        return;
      const act = latest.current;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const run: Record<string, () => void> = {
        ' ': act.toggle,
        ArrowLeft: () => act.step(event.shiftKey ? -act.second : -1),
        ArrowRight: () => act.step(event.shiftKey ? act.second : 1),
        Home: act.first,
        End: act.last,
        j: act.back,
        k: act.stop,
        l: act.forward,
      };
      const action = run[key];
      if (!action) return;
      // A focused button outside the player keeps its own Space (the browser presses it).
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (key === ' ' && target?.closest('button, a[href]') && !target.closest('.pwr-transport')) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
