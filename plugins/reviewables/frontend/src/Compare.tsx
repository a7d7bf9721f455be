import { useEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { useClient } from '@pipewright/sdk/ui';
import { streamUrl, type Reviewable } from './api';
import type { CompareState } from './compare-state';
import { isVideo } from './describe';
import { usePicture } from './pictures';
import { lastFrame, timingOf } from './timecode';
import { useFrameLock, type Lead } from './use-frame-lock';
import { useReleasedVideo } from './use-released-video';
import { usePictureBox } from './use-picture-box';
import { WipeDivider, type PictureRect } from './WipeDivider';

// Side B of a comparison, in the player's picture box beside or over side A's video. B is one element whatever the
// mode: changing the mode restyles it, never reloads it, so the A/B toggle swaps two pictures that are both decoded
// and shows no black frame between. Its frame follows A's (use-frame-lock.ts) and only the chosen side is heard.

/** What the review hands the player to compare with. */
export interface CompareSetup {
  state: CompareState;
  change(patch: Partial<CompareState>): void;
  /** Side B's reviewable; null while it is read (or when it cannot be found: error says why). */
  b: Reviewable | null;
  error: string | null;
  /** "v003 · Main take", for the labels on the pictures. */
  aTitle: string;
  bTitle: string;
  token: string;
  project: string;
}

/** Where B shows: its viewport's style in the mode, and the pan and zoom of its picture. */
interface PlaceOfB {
  style: CSSProperties;
  transform: string | undefined;
}

const BOTTOM_LEFT: CSSProperties = { top: 'auto', right: 'auto', bottom: 6, left: 6 };

/** How B is laid over A in each mode (side by side: beside it, in the flow). */
function styleOfB(state: CompareState, rect: PictureRect): CSSProperties {
  switch (state.mode) {
    case 'wipe':
      return {
        clipPath:
          state.direction === 'h'
            ? `inset(0 0 0 ${rect.x + state.wipe * rect.w}px)`
            : `inset(${rect.y + state.wipe * rect.h}px 0 0 0)`,
      };
    case 'overlay':
      return { opacity: state.opacity };
    case 'difference':
      return { mixBlendMode: 'difference' };
    case 'toggle':
      // Hidden, not removed: it stays decoded on its frame, ready to show at once.
      return { visibility: state.showing === 'b' ? 'visible' : 'hidden' };
    default:
      return {};
  }
}

export function CompareLayer({
  setup,
  a,
  lead,
  transform,
}: {
  setup: CompareSetup;
  /** Side A's video, which the transport drives. */
  a: RefObject<HTMLVideoElement | null>;
  lead: Lead;
  /** A's pan and zoom, which B takes too. */
  transform: string | undefined;
}) {
  const { state, b } = setup;
  const rect = usePictureBox(a);

  // Sound from one side only; A's own again once the comparison ends.
  useEffect(() => {
    const element = a.current;
    if (!element) return;
    element.muted = state.audio === 'b';
    return () => {
      element.muted = false;
    };
  }, [a, state.audio]);

  // B's viewport is laid out (and wiped) as A's is; the picture in it is panned and zoomed as A's.
  const place = { style: styleOfB(state, rect), transform };
  // The A/B toggle shows one picture at a time: only its tag.
  const tagged = (side: 'a' | 'b') => state.mode !== 'toggle' || state.showing === side;
  const labels = (
    <>
      {tagged('a') && (
        <span className="pwr-compare-tag pwr-compare-tag-a" title={setup.aTitle}>
          A · {setup.aTitle}
        </span>
      )}
      {tagged('b') && (
        <span
          className="pwr-compare-tag pwr-compare-tag-b"
          title={setup.bTitle}
          // Below a level divider B is at the bottom: so is its tag.
          style={state.mode === 'wipe' && state.direction === 'v' ? BOTTOM_LEFT : undefined}
        >
          B · {setup.bTitle}
        </span>
      )}
    </>
  );
  if (!b)
    return (
      <>
        <span className="pwr-compare-b pwr-compare-missing" role="status">
          {setup.error ?? 'Loading side B…'}
        </span>
        {labels}
      </>
    );
  return (
    <>
      {isVideo(b) ? (
        // Another B is another element: its frame lock starts over with its own length.
        <FollowingVideo key={b.fileId} setup={setup} b={b} a={a} lead={lead} place={place} />
      ) : (
        <StillB setup={setup} b={b} place={place} />
      )}
      {state.mode === 'wipe' && (
        <WipeDivider
          at={state.wipe}
          direction={state.direction}
          rect={rect}
          onMove={(wipe) => setup.change({ wipe })}
        />
      )}
      {labels}
    </>
  );
}

/** B as a video that follows A's frame, heard only when chosen. */
function FollowingVideo({
  setup,
  b,
  a,
  lead,
  place,
}: {
  setup: CompareSetup;
  b: Reviewable;
  a: RefObject<HTMLVideoElement | null>;
  lead: Lead;
  place: PlaceOfB;
}) {
  const client = useClient();
  const video = useRef<HTMLVideoElement>(null);
  useReleasedVideo(video);
  const [duration, setDuration] = useState<number | null>(null);
  const timing = timingOf(b.mediaInfo, duration);
  const { offset, audio } = setup.state;
  useFrameLock(a, video, lead, {
    fps: timing.fps,
    last: lastFrame(timing),
    offset,
    ready: duration !== null,
  });
  const wanted = Math.max(0, lead.frame + offset);
  return (
    <div className="pwr-compare-b pwr-viewport" style={place.style}>
      <video
        ref={video}
        className="pwr-compare-picture"
        src={streamUrl(client, setup.token, setup.project, b.fileId)}
        preload="auto"
        playsInline
        muted={audio !== 'b'}
        style={{ transform: place.transform }}
        aria-label={`Video B: ${setup.bTitle}`}
        data-frame={wanted}
        onLoadedMetadata={(event) => {
          const seconds = event.currentTarget.duration;
          setDuration(Number.isFinite(seconds) ? seconds : 0);
        }}
      />
    </div>
  );
}

/** B as an image: the same picture on every frame of A. */
function StillB({ setup, b, place }: { setup: CompareSetup; b: Reviewable; place: PlaceOfB }) {
  const client = useClient();
  const image = usePicture(client, setup.project, b.fileId, { kind: 'payload' });
  if (!image.src)
    return (
      <span className="pwr-compare-b pwr-compare-missing" role="status">
        {image.error ? `Side B could not be read: ${image.error}` : 'Loading side B…'}
      </span>
    );
  return (
    <div className="pwr-compare-b pwr-viewport" style={place.style}>
      <img
        className="pwr-compare-picture"
        src={image.src}
        alt={`Image B: ${setup.bTitle}`}
        style={{ transform: place.transform }}
      />
    </div>
  );
}
