import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RangeNotSatisfiable } from '../src/errors.js';
import { requestedRange } from '../src/ranges.js';
import { buildWorld, makeMedia, P, type World } from './world.js';

let w: World;
let video: Buffer;
let id: string;

beforeAll(async () => {
  w = await buildWorld();
  ({ video } = await makeMedia(await mkdtemp(join(tmpdir(), 'files-media-'))));
  id = await w.uploaded('artie', video, { 'content-type': 'video/mp4', 'x-file-name': 'clip.mp4' });
});
afterAll(() => w.core.close());

const get = (range?: string) =>
  w.call('bob', 'GET', `${P}/files/${id}/payload`, { headers: range ? { range } : {} });

describe('Range headers', () => {
  it('reads them as RFC 9110 says', () => {
    expect(requestedRange(undefined, 100)).toBeNull();
    expect(requestedRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(requestedRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(requestedRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(requestedRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(requestedRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    // Not understood (other units, several ranges, reversed): the whole file.
    for (const header of ['items=0-1', 'bytes=0-1,5-6', 'bytes=9-2', 'bytes=-', 'bytes=a-b']) {
      expect(requestedRange(header, 100)).toBeNull();
    }
    expect(() => requestedRange('bytes=100-', 100)).toThrow(RangeNotSatisfiable);
    expect(() => requestedRange('bytes=-0', 100)).toThrow(RangeNotSatisfiable);
  });
});

describe('ranged payloads, as video players ask', () => {
  it('answers the whole video with 200 when no range is asked', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.bytes.equals(video)).toBe(true);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-type']).toBe('video/mp4');
  });

  it('answers the first bytes a player probes with 206 and Content-Range', async () => {
    const res = await get('bytes=0-99');
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-99/${video.length}`);
    expect(res.headers['content-length']).toBe('100');
    expect(res.bytes.equals(video.subarray(0, 100))).toBe(true);
  });

  it('answers open-ended and suffix ranges', async () => {
    const tail = await get('bytes=1000-');
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes 1000-${video.length - 1}/${video.length}`);
    expect(tail.bytes.equals(video.subarray(1000))).toBe(true);
    const suffix = await get('bytes=-64');
    expect(suffix.status).toBe(206);
    expect(suffix.bytes.equals(video.subarray(video.length - 64))).toBe(true);
    const all = await get('bytes=0-');
    expect(all.status).toBe(206);
    expect(all.bytes.equals(video)).toBe(true);
  });

  it('answers 416 with the size for a range beyond the end', async () => {
    const res = await get(`bytes=${video.length}-`);
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${video.length}`);
    expect(res.json().code).toBe(416);
  });

  it('serves the whole file for a Range header it does not understand', async () => {
    const res = await get('bytes=0-1,5-6');
    expect(res.status).toBe(200);
    expect(res.bytes.equals(video)).toBe(true);
  });

  it('answers HEAD of the payload and of the file with headers only', async () => {
    for (const url of [`${P}/files/${id}/payload`, `${P}/files/${id}`]) {
      const res = await w.call('bob', 'HEAD', url);
      expect(res.status).toBe(200);
      expect(res.bytes.length).toBe(0);
      expect(res.headers['content-length']).toBe(String(video.length));
      expect(res.headers['content-type']).toBe('video/mp4');
      expect(res.headers['content-disposition']).toMatch(/filename="clip.mp4"/);
    }
  });

  it('redirects GET of the file to its payload, as AYON does', async () => {
    const res = await w.call('bob', 'GET', `${P}/files/${id}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/api/projects/show/files/${id}/payload`);
  });
});
