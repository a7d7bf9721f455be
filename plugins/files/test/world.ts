import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import type { FileService } from '../src/service.js';
import { filesRef } from '../src/api.js';
import { usersRef } from '@pipewright/plugin-users/api';

// One studio per test file: an administrator, a manager, two artists and a guest of the project "show", and an
// artist of another project. Media are made with Debian's ffmpeg, as the server itself uses it.

const PASSWORD = 'correct horse battery';
export const P = '/api/projects/show';

const run = promisify(execFile);

/** A 1 s video (ffmpeg's test pattern, 320x240 at 24 fps, H.264) and an 800x600 PNG, made in a folder. */
export async function makeMedia(dir: string): Promise<{ video: Buffer; png: Buffer }> {
  const video = join(dir, 'testsrc.mp4');
  const png = join(dir, 'testsrc.png');
  const quiet = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'];
  await run('/usr/bin/ffmpeg', [
    ...quiet,
    '-i',
    'testsrc=duration=1:size=320x240:rate=24',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    video,
  ]);
  await run('/usr/bin/ffmpeg', [...quiet, '-i', 'testsrc=size=800x600', '-frames:v', '1', png]);
  return { video: await readFile(video), png: await readFile(png) };
}

/** What a test sees of an answer, with the raw bytes (the core's helper reads bodies as text). */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  json(): any;
}

export interface World {
  core: TestCore;
  files: FileService;
  token: Record<string, string>;
  /** Send a request as a user (undefined: anonymous) and get the raw answer. */
  call(
    user: string | undefined,
    method: string,
    url: string,
    options?: { body?: Buffer | string; headers?: Record<string, string> },
  ): Promise<RawResponse>;
  /** Upload bytes as a user; headers default to a PNG named image.png. */
  upload(user: string, bytes: Buffer | string, headers?: Record<string, string>): Promise<RawResponse>;
  /** Upload as a user and answer the new id (fails the test on anything but 201). */
  uploaded(user: string, bytes: Buffer | string, headers?: Record<string, string>): Promise<string>;
  /** Where the files of a project live on disk. */
  projectDir(project?: string): string;
}

/** Users: root (admin), boss (manager), artie and bob (artists on show), gus (a guest of show), eve (elsewhere). */
export async function buildWorld(): Promise<World> {
  const core = await bootTestCore({ addons: ['files', 'users'] });
  const users = core.services.get(usersRef);
  const people: Record<string, Record<string, unknown>> = {
    root: { isAdmin: true },
    boss: { isManager: true },
    artie: { accessGroups: { show: ['artist'] } },
    bob: { accessGroups: { show: ['artist'] } },
    gus: { isGuest: true, accessGroups: { show: ['artist'] } },
    eve: { accessGroups: { elsewhere: ['artist'] } },
  };
  const token: Record<string, string> = {};
  for (const [name, data] of Object.entries(people)) {
    await users.create({ name, password: PASSWORD, data });
    token[name] = (
      await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } })
    ).body.token;
  }
  const created = await core.request('POST', '/api/projects', {
    token: token.boss,
    body: { name: 'show', code: 'sh' },
  });
  if (created.status !== 201) throw new Error(`project: ${created.status} ${created.text}`);

  const call: World['call'] = async (user, method, url, { body, headers = {} } = {}) => {
    const all: Record<string, string> = { ...headers };
    if (user) all.authorization = `Bearer ${token[user]}`;
    const res = await core.app.inject({ method: method as any, url, headers: all, payload: body });
    return {
      status: res.statusCode,
      headers: res.headers as RawResponse['headers'],
      bytes: res.rawPayload,
      json: () => JSON.parse(res.body),
    };
  };
  const upload: World['upload'] = (user, bytes, headers = {}) =>
    call(user, 'POST', `${P}/files`, {
      body: bytes,
      headers: { 'content-type': 'image/png', 'x-file-name': 'image.png', ...headers },
    });
  const uploaded: World['uploaded'] = async (user, bytes, headers) => {
    const res = await upload(user, bytes, headers);
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.bytes.toString()}`);
    return res.json().id;
  };
  return {
    core,
    files: core.services.get(filesRef) as FileService,
    token,
    call,
    upload,
    uploaded,
    projectDir: (project = 'show') => join(core.config.dataDir, 'projects', project),
  };
}
