// Time in a synced review session. The server stamps when playback started with its own clock; each player knows
// how far its clock is from the server's and works out the frame it should show from that, so a slow network
// delays only when a change is heard, never which frame is shown once it is.

/** What a review session says of playback (the shot's frame numbers, the server's milliseconds). */
export interface Playback {
  frame: number;
  playing: boolean;
  speed: number;
  startedAt: number | null;
}

/** One exchange with the server's clock: when it was asked and answered here, and what it said. */
export interface ClockSample {
  sent: number;
  received: number;
  serverTime: number;
}

/**
 * How far the server's clock is ahead of this one (ms), from the exchange that took the least time: its answer was
 * made about halfway through it, whatever the latency, as long as the way there and back take alike.
 */
export function clockOffset(samples: ClockSample[]): number {
  const best = [...samples].sort((a, b) => a.received - a.sent - (b.received - b.sent))[0];
  return best ? best.serverTime - (best.sent + best.received) / 2 : 0;
}

/** The frame (shot's numbering, fractional while playing) the session shows at this server time. */
export function frameAt(playback: Playback, serverNow: number, fps: number): number {
  if (!playback.playing || playback.startedAt === null) return playback.frame;
  return playback.frame + ((serverNow - playback.startedAt) / 1000) * fps * playback.speed;
}
