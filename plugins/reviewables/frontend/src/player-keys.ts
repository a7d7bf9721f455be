import { useEffect, useRef } from 'react';

// The keys of review tools (RV, Kitsu, AYON), anywhere on the screen except while typing: Space plays and pauses,
// J, K, L shuttle, the arrows step a frame (Shift: a second), Home and End jump to the first and last frame.
// Space held while dragging on the picture pans it instead (use-view-gestures.ts), so Space acts on its release.

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

/** Keys that belong to the browser or to a field, not to the player. */
const notOurs = (event: KeyboardEvent) =>
  event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target);

/** A focused button outside the player keeps its own Space (the browser presses it). */
function ownSpace(event: KeyboardEvent) {
  const target = event.target instanceof HTMLElement ? event.target : null;
  return !!target?.closest('button, a[href]') && !target.closest('.pwr-transport');
}

/** Space as the player holds it: down now, and whether a drag used it (to pan) since it went down. */
export interface SpaceHold {
  down: boolean;
  used: boolean;
}

/** Space for the player: a tap does `onTap` when let go; held, it lets a drag pan the picture instead. */
export function useSpaceHold(onTap?: () => void) {
  const hold = useRef<SpaceHold>({ down: false, used: false });
  const tap = useRef(onTap);
  tap.current = onTap;
  useEffect(() => {
    const onDown = (event: KeyboardEvent) => {
      if (event.key !== ' ' || notOurs(event) || ownSpace(event)) return;
      event.preventDefault();
      if (!event.repeat) hold.current = { down: true, used: false };
    };
    const onUp = (event: KeyboardEvent) => {
      if (event.key !== ' ' || !hold.current.down) return;
      hold.current.down = false;
      event.preventDefault();
      if (!hold.current.used) tap.current?.();
    };
    // A window left with Space down never hears it come up.
    const onBlur = () => (hold.current.down = false);
    document.addEventListener('keydown', onDown);
    document.addEventListener('keyup', onUp);
    window.addEventListener('blur', onBlur);
    return () => {
      document.removeEventListener('keydown', onDown);
      document.removeEventListener('keyup', onUp);
      window.removeEventListener('blur', onBlur);
    };
  }, []);
  return hold;
}

/** The player's keys; answers Space's hold, for panning. */
export function usePlayerKeys(actions: PlayerActions) {
  const latest = useRef(actions);
  latest.current = actions;
  const space = useSpaceHold(() => latest.current.toggle());
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (notOurs(event)) return;
      const act = latest.current;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const run: Record<string, () => void> = {
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
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return space;
}
