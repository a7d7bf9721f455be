// What a comparison is, and how it is written in the address, so a link (or a reload) reopens the same one:
// ?compare=<versionId>/<activityId>&mode=wipe&wipe=0.5&dir=h&opacity=0.5&offset=3&audio=b&show=b
// Side A is the reviewable on the stage; side B is the one named by ?compare= (a bare activity id means a
// reviewable of the version under review). Values left at their defaults are not written.

export type CompareMode = 'side' | 'wipe' | 'overlay' | 'difference' | 'toggle';
export type Side = 'a' | 'b';

export const MODES: { mode: CompareMode; label: string; hint: string }[] = [
  { mode: 'side', label: 'Side by side', hint: 'A at the left, B at the right' },
  { mode: 'wipe', label: 'Wipe', hint: 'A on one side of a divider you can drag, B on the other' },
  { mode: 'overlay', label: 'Overlay', hint: 'B over A, see-through' },
  { mode: 'difference', label: 'Difference', hint: 'What differs between A and B: black where they agree' },
  { mode: 'toggle', label: 'A/B', hint: 'One at a time; T switches without a gap' },
];

export interface CompareState {
  /** The version side B belongs to. */
  versionId: string;
  /** Side B's reviewable (its activity id). */
  activityId: string;
  mode: CompareMode;
  /** Where the wipe's divider sits, 0 to 1 across (or down) the picture; A is before it, B after. */
  wipe: number;
  /** h: A left and B right of an upright divider; v: A above and B below a level one. */
  direction: 'h' | 'v';
  /** How opaque B is over A in the overlay, 0 to 1. */
  opacity: number;
  /** B shows A's frame plus this many frames: a re-cut version lines up again. */
  offset: number;
  /** The side whose sound plays; the other is muted. */
  audio: Side;
  /** The side the A/B toggle shows. */
  showing: Side;
}

export const COMPARE_PARAMS = ['compare', 'mode', 'wipe', 'dir', 'opacity', 'offset', 'audio', 'show'];

const DEFAULTS = {
  mode: 'side',
  wipe: 0.5,
  direction: 'h',
  opacity: 0.5,
  offset: 0,
  audio: 'a',
  showing: 'a',
} satisfies Omit<CompareState, 'versionId' | 'activityId'>;

/** A comparison with side B just chosen: what was set before is kept (the mode, the offset), else the defaults. */
export const comparing = (
  before: CompareState | null,
  versionId: string,
  activityId: string,
): CompareState => ({ ...DEFAULTS, ...before, versionId, activityId });

const ID = /^[0-9a-f]{32}$/i;
const MODE_NAMES = new Set<string>(MODES.map((m) => m.mode));
const fraction = (text: string | null, fallback: number) => {
  const value = text === null ? NaN : Number(text);
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback;
};
/** Enough to line up any re-cut; beyond that a typo. */
export const OFFSET_LIMIT = 100_000;
export const clampOffset = (value: number) =>
  Number.isFinite(value) ? Math.max(-OFFSET_LIMIT, Math.min(OFFSET_LIMIT, Math.trunc(value))) : 0;

/** The comparison the address asks for, or null when it asks for none (or names no reviewable). */
export function readCompare(search: URLSearchParams, thisVersion: string): CompareState | null {
  const [first, second] = (search.get('compare') ?? '').split('/');
  const [versionId, activityId] = second === undefined ? [thisVersion, first] : [first, second];
  if (!versionId || !activityId || !ID.test(versionId) || !ID.test(activityId)) return null;
  const mode = search.get('mode') ?? '';
  const offset = search.get('offset');
  return {
    versionId,
    activityId,
    mode: MODE_NAMES.has(mode) ? (mode as CompareMode) : DEFAULTS.mode,
    wipe: fraction(search.get('wipe'), DEFAULTS.wipe),
    direction: search.get('dir') === 'v' ? 'v' : 'h',
    opacity: fraction(search.get('opacity'), DEFAULTS.opacity),
    offset: offset && /^-?\d+$/.test(offset) ? clampOffset(Number(offset)) : 0,
    audio: search.get('audio') === 'b' ? 'b' : 'a',
    showing: search.get('show') === 'b' ? 'b' : 'a',
  };
}

/** Write a comparison into an address (null: take it out), leaving its other parameters as they are. */
export function writeCompare(url: URL, state: CompareState | null): void {
  for (const name of COMPARE_PARAMS) url.searchParams.delete(name);
  if (!state) return;
  // The version is always written: the link stays right when the review moves on to another version.
  url.searchParams.set('compare', `${state.versionId}/${state.activityId}`);
  url.searchParams.set('mode', state.mode);
  const rounded = (value: number) => String(Math.round(value * 1000) / 1000);
  if (state.wipe !== DEFAULTS.wipe) url.searchParams.set('wipe', rounded(state.wipe));
  if (state.direction !== DEFAULTS.direction) url.searchParams.set('dir', state.direction);
  if (state.opacity !== DEFAULTS.opacity) url.searchParams.set('opacity', rounded(state.opacity));
  if (state.offset !== DEFAULTS.offset) url.searchParams.set('offset', String(state.offset));
  if (state.audio !== DEFAULTS.audio) url.searchParams.set('audio', state.audio);
  if (state.showing !== DEFAULTS.showing) url.searchParams.set('show', state.showing);
}
