import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';

// Clips that count their frames, and reading the review player's frame from its pixels: the tests' clips carry their
// frame index as a grey level (geq lum='16+levels*N'), so the picture itself says which frame it is, whatever the
// readout claims.

export interface CountedClip {
  /** Frames a second, as ffmpeg takes it ('24', '24000/1001'). */
  rate: string;
  seconds: number;
  /** Video levels a frame: 16 + levels × index must stay under 235 over the clip. */
  levels: number;
  size?: string;
  /** Frames between key frames (ffmpeg's default when left out). */
  gop?: number;
  /** Red difference (128 is grey): a tint that tells two clips apart. */
  cr?: number;
}

/** Make an H.264 clip at `path` whose frame index is burned in as its grey level. */
export function countedClip(path: string, clip: CountedClip) {
  const { rate, seconds, levels, size = '320x180', gop, cr = 128 } = clip;
  return promisify(execFile)('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `color=c=black:s=${size}:r=${rate}:d=${seconds}`],
    ...['-vf', `format=yuv420p,geq=lum='16+${levels}*N':cb=128:cr=${cr}`],
    // Tagged BT.709 throughout: untagged, the browser takes other primaries and mixes red into blue on the way.
    ...['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709'],
    ...(gop ? ['-g', String(gop)] : []),
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '1', path],
  ]);
}

/** The number of frames of a clip of `seconds` at `rate` ('30000/1001' and the like). */
export function framesOf(rate: string, seconds: number) {
  const [num, den = '1'] = rate.split('/');
  return Math.round((seconds * Number(num)) / Number(den));
}

/** A seeded choice of `count` distinct frames from first to first + frames - 1 (mulberry32), so a failure can be
 * run again as it was. */
export function randomFrames(count: number, seed: number, frames: number, first: number): number[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(first + Math.floor(next() * frames));
  return [...chosen];
}

/** The media frame (0 for the first) the video shows, read from its grey level: `levels` video levels a frame. */
export const pictureIndex = (page: Page, levels: number) =>
  page.locator('video').evaluate((element, levels) => {
    const source = element as HTMLVideoElement;
    const canvas = document.createElement('canvas');
    canvas.width = source.videoWidth;
    canvas.height = source.videoHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(source, 0, 0);
    // 16 to 235 of the video spread to 0 to 255 of the picture.
    const [red] = context.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
    return Math.round((red! * 219) / 255 / levels);
  }, levels);

/** Wait until `read` gives `expected`, and say what it gave last if it never does. */
export async function until<T>(read: () => Promise<T>, expected: T, timeout = 5000) {
  const deadline = Date.now() + timeout;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    value = await read();
  }
  expect(value).toBe(expected);
}

/**
 * Wait until the readout names frame `number` and the picture shows media frame `index`: the seek is done and
 * the decoder has presented it (a burst of seeks can keep Chromium's decoder busy for seconds on a loaded machine).
 */
export async function showsFrame(page: Page, number: number, index: number, levels: number) {
  // As long as the picture's wait below: after a reload the app and its video load again first.
  await page.waitForFunction(
    (text) =>
      new RegExp(`${text}\\b`).test(document.querySelector('[aria-label="Frame number"]')?.textContent ?? ''),
    `frame ${number}`,
    { timeout: 30_000 },
  );
  await page.waitForFunction(
    () => {
      const video = document.querySelector('video');
      return !!video && !video.seeking && video.readyState >= 2;
    },
    undefined,
    { timeout: 30_000 },
  );
  await until(() => pictureIndex(page, levels), index);
}
