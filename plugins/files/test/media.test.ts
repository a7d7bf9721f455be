import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { access, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceUnavailable } from '@pipewright/sdk';
import { MediaTools, describeProbe } from '../src/media.js';
import { buildWorld, makeMedia, P, type World } from './world.js';

let w: World;
let media: { video: Buffer; png: Buffer };
let pngId: string;
let videoId: string;
let textId: string;

/** Width and height from a JPEG's start-of-frame segment. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1];
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  throw new Error('no frame header in the JPEG');
}

const previewPath = (id: string) => join(w.projectDir(), 'previews', id.slice(0, 2), id);
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** Swap the service's ffmpeg for the length of a callback (the service keeps its tools private). */
async function withTools<T>(tools: MediaTools, fn: () => Promise<T>): Promise<T> {
  const holder = w.files as unknown as { media: MediaTools };
  const original = holder.media;
  holder.media = tools;
  try {
    return await fn();
  } finally {
    holder.media = original;
  }
}
const missingTools = () => new MediaTools({ ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe' });

beforeAll(async () => {
  w = await buildWorld();
  media = await makeMedia(await mkdtemp(join(tmpdir(), 'files-media-')));
  pngId = await w.uploaded('artie', media.png, { 'x-file-name': 'frame.png' });
  videoId = await w.uploaded('artie', media.video, {
    'content-type': 'video/mp4',
    'x-file-name': 'clip.mp4',
  });
  textId = await w.uploaded('artie', 'just words', {
    'content-type': 'text/plain',
    'x-file-name': 'notes.txt',
  });
});
afterAll(() => w.core.close());

describe('media info', () => {
  it('describes the video as ffprobe sees it, and keeps the answer with the record', async () => {
    const info = await w.files.mediaInfo('show', videoId);
    expect(info).toEqual({
      probeVersion: 1,
      majorBrand: 'isom',
      videoTrackIndex: 0,
      width: 320,
      height: 240,
      pixelFormat: 'yuv420p',
      frameRate: 24,
      duration: 1,
      codec: 'h264',
      frameCount: 24,
      iframeOnly: false,
      audioTracks: [],
    });
    // Cached: answered again without ffprobe, and shown by the info route.
    expect(await withTools(missingTools(), () => w.files.mediaInfo('show', videoId))).toEqual(info);
    const shown = (await w.call('bob', 'GET', `${P}/files/${videoId}/info`)).json();
    expect(shown.mediaInfo).toEqual(info);
  });

  it('describes an image as one frame without duration', async () => {
    const info = await w.files.mediaInfo('show', pngId);
    expect(info).toMatchObject({ width: 800, height: 600, codec: 'png', duration: 0, frameCount: 1 });
  });

  it('answers null for a file that is not media', async () => {
    expect(await w.files.mediaInfo('show', textId)).toBeNull();
    expect((await w.call('artie', 'GET', `${P}/files/${textId}/info`)).json().mediaInfo).toBeUndefined();
  });

  it('reads audio tracks and attached pictures from ffprobe reports', () => {
    const report = {
      format: { duration: '2.5', tags: {} },
      streams: [
        { index: 0, codec_type: 'audio', codec_name: 'aac', sample_rate: '48000', channels: 2 },
        { index: 1, codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } },
        {
          index: 2,
          codec_type: 'video',
          codec_name: 'prores',
          width: 1920,
          height: 1080,
          r_frame_rate: '24000/1001',
          has_b_frames: 0,
        },
      ],
    };
    expect(describeProbe(report)).toMatchObject({
      videoTrackIndex: 2,
      majorBrand: null,
      frameRate: 24000 / 1001,
      duration: 2.5,
      frameCount: 60,
      iframeOnly: true,
      audioTracks: [{ index: 0, codec: 'aac', sampleRate: 48000, channels: 2 }],
    });
    expect(describeProbe({ streams: [{ index: 0, codec_type: 'audio' }] })).toBeNull();
  });
});

describe('thumbnails', () => {
  it('makes a JPEG of at most 500 px from an image, keeping its proportions', async () => {
    const res = await w.call('bob', 'GET', `${P}/files/${pngId}/thumbnail`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(jpegSize(res.bytes)).toEqual({ width: 500, height: 375 });
  });

  it('makes one from the first frame of a video, never scaling a small picture up', async () => {
    const res = await w.call('bob', 'GET', `${P}/files/${videoId}/thumbnail`);
    expect(res.status).toBe(200);
    expect(jpegSize(res.bytes)).toEqual({ width: 320, height: 240 });
  });

  it('keeps the thumbnail after the first request and serves it without ffmpeg', async () => {
    expect(await exists(previewPath(pngId))).toBe(true);
    const first = await w.call('bob', 'GET', `${P}/files/${pngId}/thumbnail`);
    const again = await withTools(missingTools(), () =>
      w.call('bob', 'GET', `${P}/files/${pngId}/thumbnail`),
    );
    expect(again.status).toBe(200);
    expect(again.bytes.equals(first.bytes)).toBe(true);
  });

  it('runs ffmpeg once for simultaneous first requests', async () => {
    const id = await w.uploaded('artie', media.png, { 'x-file-name': 'twice.png' });
    let frames = 0;
    class CountingTools extends MediaTools {
      override frame(source: string, seconds: number, maxSize?: number) {
        frames += 1;
        return super.frame(source, seconds, maxSize);
      }
    }
    const answers = await withTools(new CountingTools(), () =>
      Promise.all([1, 2, 3].map(() => w.call('bob', 'GET', `${P}/files/${id}/thumbnail`))),
    );
    expect(frames).toBe(1);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[1].bytes.equals(answers[0].bytes) && answers[2].bytes.equals(answers[0].bytes)).toBe(true);
  });

  it('answers 415 for a file that is neither an image nor a video', async () => {
    const res = await w.call('artie', 'GET', `${P}/files/${textId}/thumbnail`);
    expect(res.status).toBe(415);
    expect(res.json().detail).toMatch(/text\/plain/);
  });

  it('answers 404 when ffmpeg cannot decode what claims to be an image', async () => {
    const id = await w.uploaded('artie', 'not really a png', { 'x-file-name': 'fake.png' });
    const res = await w.call('artie', 'GET', `${P}/files/${id}/thumbnail`);
    expect(res.status).toBe(404);
    expect(await exists(previewPath(id))).toBe(false);
  });

  it('answers a clear 503 when ffmpeg is not installed', async () => {
    const id = await w.uploaded('artie', media.png, { 'x-file-name': 'later.png' });
    const res = await withTools(missingTools(), () => w.call('artie', 'GET', `${P}/files/${id}/thumbnail`));
    expect(res.status).toBe(503);
    expect(res.json()).toEqual({ code: 503, detail: expect.stringMatching(/ffmpeg is not installed/) });
    const still = await withTools(missingTools(), () => w.call('artie', 'GET', `${P}/files/${id}/still?t=0`));
    expect(still.status).toBe(503);
    await expect(missingTools().probe('/tmp/x.png')).rejects.toBeInstanceOf(ServiceUnavailable);
    // Nothing was cached by the failed attempt: with ffmpeg back, the thumbnail is made.
    expect((await w.call('artie', 'GET', `${P}/files/${id}/thumbnail`)).status).toBe(200);
  });
});

describe('stills', () => {
  it('gives the full-size frame of a video at t seconds', async () => {
    const res = await w.call('bob', 'GET', `${P}/files/${videoId}/still?t=0.5`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(jpegSize(res.bytes)).toEqual({ width: 320, height: 240 });
    // ffmpeg's test pattern shows a running frame counter: different times are different pictures.
    const start = await w.call('bob', 'GET', `${P}/files/${videoId}/still`);
    expect(start.status).toBe(200);
    expect(start.bytes.equals(res.bytes)).toBe(false);
  });

  it("gives an image's only frame, unscaled", async () => {
    const res = await w.call('bob', 'GET', `${P}/files/${pngId}/still?t=0`);
    expect(res.status).toBe(200);
    expect(jpegSize(res.bytes)).toEqual({ width: 800, height: 600 });
  });

  it('answers 404 past the end of the video and 422 for a time that is not one', async () => {
    expect((await w.call('bob', 'GET', `${P}/files/${videoId}/still?t=5`)).status).toBe(404);
    expect((await w.call('bob', 'GET', `${P}/files/${videoId}/still?t=1e300`)).status).toBe(404);
    // A time before the start is the first frame (AYON takes any number too).
    const negative = await w.call('bob', 'GET', `${P}/files/${videoId}/still?t=-1`);
    expect(negative.status).toBe(200);
    const start = await w.call('bob', 'GET', `${P}/files/${videoId}/still?t=0`);
    expect(negative.bytes.equals(start.bytes)).toBe(true);
    expect((await w.call('bob', 'GET', `${P}/files/${videoId}/still?t=soon`)).status).toBe(422);
    expect((await w.call('bob', 'GET', `${P}/files/${textId}/still?t=0`)).status).toBe(415);
  });
});
