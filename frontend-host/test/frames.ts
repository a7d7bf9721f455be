import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';

// Reading the review player's frame from its pixels: the tests' clips carry their frame index as a grey level
// (geq lum='16+levels*N'), so the picture itself says which frame it is, whatever the readout claims.

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
  await page.waitForFunction(
    (text) =>
      new RegExp(`${text}\\b`).test(document.querySelector('[aria-label="Frame number"]')?.textContent ?? ''),
    `frame ${number}`,
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
