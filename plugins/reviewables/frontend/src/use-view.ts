import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Picture } from './annotations';
import { useSessionContext } from './session-context';
import { usePictureBox } from './use-picture-box';
import {
  FIT,
  oneToOne,
  pannedBy,
  percentOf,
  sameView,
  transformOf,
  zoomedAt,
  type Fitted,
  type View,
} from './view-math';

/** The driver's view goes to the session at most this often while it changes; the last one always goes. */
const SEND_MS = 100;

const pixelRatio = () => window.devicePixelRatio || 1;

/** The pan and zoom of a player's picture, and what changes it. */
export interface ViewControl {
  view: View;
  /** The CSS transform of each layer of the picture: the picture itself, side B, the drawings. */
  transform: string | undefined;
  /** "100" when one picture pixel is one screen pixel. */
  percent: number;
  /** In a synced review, only the driver pans and zooms; the others see the driver's view. */
  locked: boolean;
  fitted: Fitted;
  /** Zoom by a factor about a point of the frame (CSS pixels from its centre; its centre by default). */
  zoomBy(factor: number, at?: [number, number]): void;
  /** The view `from` panned by dx, dy CSS pixels (a drag pans from where it started). */
  panFrom(from: View, dx: number, dy: number): void;
  fit(): void;
  /** One picture pixel a screen pixel, about the frame's centre. */
  actualSize(): void;
}

/**
 * Pan and zoom of the picture in `picture`'s element, fitted again for each new `source`. In a synced review the
 * driver's view is the session's (sent as it changes, a few times a second) and everyone else follows it, a late
 * joiner included, as the comparison is shared (use-compare.ts).
 */
export function useView(picture: RefObject<Picture | null>, source: string): ViewControl {
  const box = usePictureBox(picture);
  const session = useSessionContext();
  const inSession = !!session?.state;
  const driving = !!session?.driving;
  const locked = inSession && !driving;
  const shared = session?.state?.view ?? FIT;
  const [view, setView] = useState<View>(() => (locked ? shared : FIT));

  // Another picture opens fitted (for a follower: when the driver's view says so).
  const [shownSource, setShownSource] = useState(source);
  if (source !== shownSource) {
    setShownSource(source);
    if (!locked) setView(FIT);
  }

  const command = session?.command;
  const sharedNow = useRef(shared);
  sharedNow.current = shared;
  const lastSent = useRef(0);
  useEffect(() => {
    if (!driving || !command || sameView(view, sharedNow.current)) return;
    const send = setTimeout(
      () => {
        lastSent.current = Date.now();
        void command({ command: 'view', view });
      },
      Math.max(0, lastSent.current + SEND_MS - Date.now()),
    );
    return () => clearTimeout(send);
  }, [driving, command, view]);
  const { zoom, x, y } = shared;
  useEffect(() => {
    if (locked) setView({ zoom, x, y });
  }, [locked, zoom, x, y]);

  const fitted = useMemo(() => ({ w: box.w, h: box.h, natural: box.natural }), [box]);
  const change = useCallback((next: (view: View) => View) => !locked && setView(next), [locked]);
  const zoomBy = useCallback(
    (factor: number, at: [number, number] = [0, 0]) =>
      change((now) => zoomedAt(now, factor, at, fitted, pixelRatio())),
    [change, fitted],
  );
  const panFrom = useCallback(
    (from: View, dx: number, dy: number) => change(() => pannedBy(from, dx, dy, fitted, pixelRatio())),
    [change, fitted],
  );
  const fit = useCallback(() => change(() => FIT), [change]);
  const actualSize = useCallback(
    () =>
      change((now) => zoomedAt(now, oneToOne(fitted, pixelRatio()) / now.zoom, [0, 0], fitted, pixelRatio())),
    [change, fitted],
  );
  return {
    view,
    transform: transformOf(view, fitted),
    percent: percentOf(view, fitted, pixelRatio()),
    locked,
    fitted,
    zoomBy,
    panFrom,
    fit,
    actualSize,
  };
}
