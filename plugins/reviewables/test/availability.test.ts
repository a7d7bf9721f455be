import { describe, expect, it } from '@jest/globals';
import type { MediaInfo } from '@pipewright/plugin-files/api';
import { availabilityOf } from '../src/availability.js';

/** A 1080p H.264 MP4 as ffprobe describes it, changed where a test says. */
const video = (change: Partial<MediaInfo> = {}): MediaInfo => ({
  probeVersion: 1,
  majorBrand: 'isom',
  videoTrackIndex: 0,
  width: 1920,
  height: 1080,
  pixelFormat: 'yuv420p',
  frameRate: 24,
  duration: 10,
  codec: 'h264',
  frameCount: 240,
  iframeOnly: false,
  audioTracks: [],
  ...change,
});
const image = (codec: string): MediaInfo => video({ codec, duration: 0, majorBrand: null, frameCount: 1 });

describe('availability', () => {
  it('is unknown without media info or without a picture', () => {
    expect(availabilityOf(null, 'video/mp4')).toBe('unknown');
    expect(availabilityOf(video({ videoTrackIndex: null }), 'video/mp4')).toBe('unknown');
  });

  it('is ready for H.264, VP9 and AV1 in MP4 with 8-bit 4:2:0 and even sides, B-frames or not', () => {
    for (const codec of ['h264', 'vp9', 'av1'])
      expect(availabilityOf(video({ codec }), 'video/mp4')).toBe('ready');
    for (const majorBrand of ['mp42', 'mp41', 'iso5', 'M4V ']) {
      expect(availabilityOf(video({ majorBrand }), 'video/mp4')).toBe('ready');
    }
    expect(availabilityOf(video({ iframeOnly: true }), 'video/mp4')).toBe('ready');
    expect(availabilityOf(video({ pixelFormat: 'yuvj420p' }), 'video/mp4')).toBe('ready');
  });

  it('takes a file declared as WebM without an ISO brand for WebM', () => {
    expect(availabilityOf(video({ majorBrand: null, codec: 'vp9' }), 'video/webm')).toBe('ready');
    expect(availabilityOf(video({ majorBrand: null, codec: 'vp9' }), 'video/x-matroska')).toBe(
      'conversionRequired',
    );
  });

  it('requires conversion of other codecs and containers', () => {
    for (const codec of ['prores', 'mpeg4', 'hevc', 'dnxhd', 'mpeg2video'])
      expect(availabilityOf(video({ codec }), 'video/mp4')).toBe('conversionRequired');
    expect(availabilityOf(video({ majorBrand: 'qt  ' }), 'video/quicktime')).toBe('conversionRequired');
    expect(availabilityOf(video({ majorBrand: null }), 'video/x-msvideo')).toBe('conversionRequired');
  });

  it('recommends conversion of other pixel formats and odd sizes', () => {
    for (const pixelFormat of ['yuv444p', 'yuv422p', 'yuv420p10le', null])
      expect(availabilityOf(video({ pixelFormat }), 'video/mp4')).toBe('conversionRecommended');
    expect(availabilityOf(video({ width: 1919 }), 'video/mp4')).toBe('conversionRecommended');
    expect(availabilityOf(video({ height: 1081 }), 'video/mp4')).toBe('conversionRecommended');
    expect(availabilityOf(video({ width: null }), 'video/mp4')).toBe('conversionRecommended');
  });

  it('is ready for images browsers draw, and requires conversion of others', () => {
    for (const codec of ['png', 'mjpeg', 'webp', 'gif', 'bmp'])
      expect(availabilityOf(image(codec), 'image/png')).toBe('ready');
    for (const codec of ['tiff', 'exr', 'dpx', 'jpeg2000'])
      expect(availabilityOf(image(codec), 'image/tiff')).toBe('conversionRequired');
  });
});
