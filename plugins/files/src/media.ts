import { spawn } from 'node:child_process';
import { ServiceUnavailable } from '@pipewright/sdk';
import type { AudioTrackInfo, MediaInfo } from './api.js';

/** Longest side of a thumbnail, as AYON's thumbnail_size. */
export const THUMBNAIL_SIZE = 500;
/** A frame that takes longer than this to decode is given up on (a damaged file must not hold a request forever). */
const FFMPEG_TIMEOUT_MS = 60_000;
/** Frames and probe reports are small; more output than this means something is wrong. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

interface RunResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Where the tools are: Debian's ffmpeg package installs both in /usr/bin. */
export interface MediaToolPaths {
  ffmpeg: string;
  ffprobe: string;
}

export const DEBIAN_MEDIA_TOOLS: MediaToolPaths = { ffmpeg: '/usr/bin/ffmpeg', ffprobe: '/usr/bin/ffprobe' };

/** ffprobe's "30000/1001" or "24" as a number; null for "0/0" and other non-rates. */
function rate(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const [numerator, denominator = '1'] = text.split('/');
  const value = Number(numerator) / Number(denominator);
  return Number.isFinite(value) && value > 0 ? value : null;
}

function numberOrNull(value: unknown): number | null {
  const parsed = typeof value === 'string' || typeof value === 'number' ? Number(value) : NaN;
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * ffprobe's JSON report (-show_format -show_streams) as AYON's mediaInfo, plus the frame count. Null when the file
 * has no picture stream (not media, or audio only). Attached pictures (cover art) do not count as video.
 */
export function describeProbe(report: any): MediaInfo | null {
  const streams: any[] = Array.isArray(report?.streams) ? report.streams : [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  if (!video) return null;
  const frameRate = rate(video.r_frame_rate) ?? rate(video.avg_frame_rate);
  const duration = numberOrNull(video.duration) ?? numberOrNull(report?.format?.duration) ?? 0;
  // An image is one frame; containers that do not store a frame count get one from duration and rate.
  const stored = numberOrNull(video.nb_frames);
  const frameCount =
    stored ?? (duration === 0 ? 1 : frameRate !== null ? Math.round(duration * frameRate) : null);
  const audioTracks: AudioTrackInfo[] = streams
    .filter((s) => s.codec_type === 'audio')
    .map((s) => ({
      index: s.index,
      codec: s.codec_name ?? null,
      sampleRate: numberOrNull(s.sample_rate),
      channels: numberOrNull(s.channels),
    }));
  return {
    probeVersion: 1,
    majorBrand: report?.format?.tags?.major_brand ?? null,
    videoTrackIndex: video.index ?? null,
    width: numberOrNull(video.width),
    height: numberOrNull(video.height),
    pixelFormat: video.pix_fmt ?? null,
    frameRate,
    duration,
    codec: video.codec_name ?? null,
    frameCount,
    iframeOnly: Number(video.has_b_frames ?? 1) === 0,
    audioTracks,
  };
}

/** Runs Debian's ffmpeg and ffprobe. When they are not installed, every call answers 503 saying so. */
export class MediaTools {
  constructor(private readonly paths: MediaToolPaths = DEBIAN_MEDIA_TOOLS) {}

  private run(tool: keyof MediaToolPaths, args: string[]): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.paths[tool], args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const chunks: Buffer[] = [];
      let size = 0;
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), FFMPEG_TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
        else chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 4096) stderr += chunk.toString();
      });
      child.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (error.code === 'ENOENT') {
          reject(
            new ServiceUnavailable(
              `${tool} is not installed on the server (expected at ${this.paths[tool]}); install Debian's ffmpeg package`,
              'ffmpeg-missing',
            ),
          );
        } else reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout: Buffer.concat(chunks), stderr });
      });
    });
  }

  /** What ffprobe reads from a path or URL; null when it is not a picture it can decode. */
  async probe(source: string): Promise<MediaInfo | null> {
    const result = await this.run('ffprobe', [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      source,
    ]);
    if (result.code !== 0) return null;
    try {
      return describeProbe(JSON.parse(result.stdout.toString()));
    } catch {
      return null;
    }
  }

  /**
   * One frame as a JPEG: the frame shown at `seconds`, scaled down to fit maxSize when given (never up). Null when
   * there is no such frame (past the end of a video, or not a picture at all).
   */
  async frame(source: string, seconds: number, maxSize?: number): Promise<Buffer | null> {
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
    // Before -i, -ss seeks the input instead of decoding every frame up to the time.
    if (seconds > 0) args.push('-ss', String(seconds));
    args.push('-i', source, '-frames:v', '1');
    if (maxSize) {
      const bound = (side: 'iw' | 'ih') => `min(${maxSize},${side})`;
      args.push('-vf', `scale='${bound('iw')}':'${bound('ih')}':force_original_aspect_ratio=decrease`);
    }
    // Full-range YUV is what JPEG expects; ffmpeg's mjpeg encoder refuses the limited range of most video.
    args.push('-pix_fmt', 'yuvj420p', '-c:v', 'mjpeg', '-q:v', '3', '-f', 'image2pipe', 'pipe:1');
    const result = await this.run('ffmpeg', args);
    if (result.code !== 0 || result.stdout.length === 0) return null;
    return result.stdout;
  }

  /**
   * JPEGs of the frames at these indexes (the first frame is 0), in one pass over the video: ffmpeg's select
   * filter counts decoded frames, so each picture is exactly its frame whatever the timestamps say.
   */
  async framesAt(source: string, indexes: number[], maxSize?: number): Promise<Map<number, Buffer>> {
    const wanted = [...new Set(indexes.filter((n) => Number.isInteger(n) && n >= 0))].sort((a, b) => a - b);
    if (!wanted.length) return new Map();
    const filters = [`select='${wanted.map((n) => `eq(n,${n})`).join('+')}'`];
    if (maxSize)
      filters.push(`scale='min(${maxSize},iw)':'min(${maxSize},ih)':force_original_aspect_ratio=decrease`);
    const result = await this.run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', source, '-vf', filters.join(',')],
      ...['-fps_mode', 'passthrough', '-frames:v', String(wanted.length), '-pix_fmt', 'yuvj420p'],
      ...['-c:v', 'mjpeg', '-q:v', '3', '-f', 'image2pipe', 'pipe:1'],
    ]);
    if (result.code !== 0) return new Map();
    // One JPEG after another: each starts with its SOI marker (FF D8 FF), which entropy-coded data never holds.
    const starts: number[] = [];
    for (
      let at = result.stdout.indexOf('ffd8ff', 0, 'hex');
      at >= 0;
      at = result.stdout.indexOf('ffd8ff', at + 3, 'hex')
    )
      starts.push(at);
    return new Map(
      starts
        .slice(0, wanted.length)
        .map((start, i) => [wanted[i]!, result.stdout.subarray(start, starts[i + 1])]),
    );
  }
}
