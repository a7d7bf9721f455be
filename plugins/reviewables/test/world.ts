import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bootTestCore, type TestCore, type TestResponse } from '@pipewright/core/testing';
import { usersRef } from '@pipewright/plugin-users/api';

// A small studio for the reviewables tests. Project "demo":
//   assets/tree: tasks modeling [artie, fran] and lookdev; products modelMain (v001, v002, v003 and a HERO) and
//                lookMain (v001, for the task modeling too)
//   shots/sh010: task animation [bea]; product animMain (v001, for the task animation)
// Users: root (admin), boss (manager), artie and bea (artists: read and publish anywhere), fran (freelancer: only
// the folders of her tasks), vic (reads everything, publishes nowhere), gus (a guest with the artist group),
// olga (an artist of the project "other" only), farm (a service user with an API key).
// Media are made by Debian's ffmpeg, as the server itself uses it.

export const PASSWORD = 'correct horse battery';
export const SERVICE_KEY = 'f0'.repeat(16);
export const P = '/api/projects/demo';

const run = promisify(execFile);

export type Person = 'root' | 'boss' | 'artie' | 'bea' | 'fran' | 'vic' | 'gus' | 'olga';

export interface Media {
  /** 1 s, 320x240, 24 fps, H.264 yuv420p in MP4: plays in every browser. */
  mp4: Buffer;
  /** 1 s ProRes 422 in QuickTime: no browser plays it. */
  mov: Buffer;
  /** 1 s MPEG-4 part 2 in AVI. */
  avi: Buffer;
  /** 1 s H.264 in MP4 with 4:4:4 chroma: some browsers play it. */
  yuv444: Buffer;
  /** An 800x600 PNG. */
  png: Buffer;
}

/** Make the test media in a temporary folder. */
export async function makeMedia(): Promise<Media> {
  const dir = await mkdtemp(join(tmpdir(), 'reviewables-media-'));
  const ffmpeg = (...args: string[]) =>
    run('/usr/bin/ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', ...args]);
  const clip = ['-i', 'testsrc=duration=1:size=320x240:rate=24'];
  try {
    await ffmpeg(...clip, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', join(dir, 'clip.mp4'));
    await ffmpeg(...clip, '-c:v', 'prores_ks', '-pix_fmt', 'yuv422p10le', join(dir, 'clip.mov'));
    await ffmpeg(...clip, '-c:v', 'mpeg4', join(dir, 'clip.avi'));
    await ffmpeg(...clip, '-pix_fmt', 'yuv444p', '-c:v', 'libx264', join(dir, 'clip444.mp4'));
    await ffmpeg('-i', 'testsrc=size=800x600', '-frames:v', '1', join(dir, 'still.png'));
    const read = (name: string) => readFile(join(dir, name));
    return {
      mp4: await read('clip.mp4'),
      mov: await read('clip.mov'),
      avi: await read('clip.avi'),
      yuv444: await read('clip444.mp4'),
      png: await read('still.png'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Width and height of an image, as ffprobe reads them. */
export async function imageSize(bytes: Buffer): Promise<{ width: number; height: number; codec: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'reviewables-probe-'));
  try {
    await writeFile(join(dir, 'image'), bytes);
    const { stdout } = await run('/usr/bin/ffprobe', [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_streams',
      join(dir, 'image'),
    ]);
    const stream = JSON.parse(stdout).streams[0];
    return { width: stream.width, height: stream.height, codec: stream.codec_name };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface World {
  core: TestCore;
  tokens: Record<Person, string>;
  ids: Record<string, string>;
  /** A request as a person (undefined: anonymous), or as the service user with 'farm'. */
  as(person: Person | 'farm' | undefined, method: string, url: string, body?: unknown): Promise<TestResponse>;
  /** Upload a reviewable; headers default to an MP4 named clip.mp4. */
  upload(
    person: Person | 'farm' | undefined,
    versionId: string,
    bytes: Buffer | string,
    options?: { label?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  /** The raw bytes and headers of a GET (thumbnails). */
  raw(
    person: Person,
    url: string,
  ): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }>;
  /** Where the files of the project live on disk. */
  uploadsDir(): string;
  /** Rows of a table in the project's schema. */
  rows(table: string): Promise<Record<string, any>[]>;
}

/** Boot a core with the reviewables addon and build the studio described above. */
export async function buildWorld(): Promise<World> {
  const core = await bootTestCore({ addons: ['reviewables'] });
  const users = core.services.get(usersRef);
  const people: [Person, Record<string, unknown>][] = [
    ['root', { isAdmin: true }],
    ['boss', { isManager: true }],
    ['artie', { accessGroups: { demo: ['artist'] } }],
    ['bea', { accessGroups: { demo: ['artist'] } }],
    ['fran', { accessGroups: { demo: ['freelancer'] } }],
    ['vic', { accessGroups: { demo: ['viewer'] } }],
    ['gus', { isGuest: true, accessGroups: { demo: ['artist'] } }],
    ['olga', { accessGroups: { other: ['artist'] } }],
  ];
  await core.db.transaction().execute(async () => {
    for (const [name, data] of people)
      await users.create({
        name,
        password: PASSWORD,
        data,
        attrib: { fullName: `${name[0].toUpperCase()}${name.slice(1)} Person` },
      });
  });
  const tokens = {} as Record<Person, string>;
  for (const [name] of people) {
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    if (res.status !== 200) throw new Error(`login ${name}: ${res.status} ${res.text}`);
    tokens[name] = res.body.token;
  }
  const ok = (res: TestResponse, what: string) => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res;
  };
  ok(
    await core.request('PUT', '/api/users/farm', {
      token: tokens.root,
      body: { password: PASSWORD, apiKey: SERVICE_KEY, data: { isService: true } },
    }),
    'service user',
  );
  // Reads everything (the default), publishes nowhere.
  ok(
    await core.request('PUT', '/api/accessGroups/viewer/_', {
      token: tokens.root,
      body: { publish: { enabled: true, access_list: [] } },
    }),
    'viewer group',
  );
  for (const name of ['demo', 'other'])
    ok(
      await core.request('POST', '/api/projects', { token: tokens.boss, body: { name, code: name } }),
      `project ${name}`,
    );

  const ids: Record<string, string> = {};
  const create = async (plural: string, body: Record<string, unknown>) =>
    ok(await core.request('POST', `${P}/${plural}`, { token: tokens.root, body }), plural).body.id as string;
  ids.assets = await create('folders', { name: 'assets', folderType: 'Folder' });
  ids.tree = await create('folders', { name: 'tree', folderType: 'Asset', parentId: ids.assets });
  ids.shots = await create('folders', { name: 'shots', folderType: 'Folder' });
  ids.sh010 = await create('folders', { name: 'sh010', folderType: 'Shot', parentId: ids.shots });
  ids.modeling = await create('tasks', {
    name: 'modeling',
    taskType: 'Modeling',
    folderId: ids.tree,
    assignees: ['artie', 'fran'],
  });
  ids.animation = await create('tasks', {
    name: 'animation',
    taskType: 'Animation',
    folderId: ids.sh010,
    assignees: ['bea'],
  });
  ids.modelMain = await create('products', { name: 'modelMain', folderId: ids.tree, productType: 'model' });
  ids.lookMain = await create('products', { name: 'lookMain', folderId: ids.tree, productType: 'look' });
  ids.animMain = await create('products', {
    name: 'animMain',
    folderId: ids.sh010,
    productType: 'animation',
  });
  // Created out of order, to see that listings order versions by number.
  for (const n of [2, 1, 3])
    ids[`model${n}`] = await create('versions', {
      version: n,
      productId: ids.modelMain,
      taskId: ids.modeling,
      author: 'artie',
    });
  ids.modelHero = await create('versions', { version: -3, productId: ids.modelMain, taskId: ids.modeling });
  ids.look1 = await create('versions', { version: 1, productId: ids.lookMain, taskId: ids.modeling });
  ids.anim1 = await create('versions', { version: 1, productId: ids.animMain, taskId: ids.animation });

  const as: World['as'] = (person, method, url, body) =>
    core.request(method, url, {
      ...(person === 'farm' ? { apiKey: SERVICE_KEY } : person ? { token: tokens[person] } : {}),
      body,
    });
  return {
    core,
    tokens,
    ids,
    as,
    upload: (person, versionId, bytes, { label, headers = {} } = {}) =>
      core.request(
        'POST',
        `${P}/versions/${versionId}/reviewables${label !== undefined ? `?label=${encodeURIComponent(label)}` : ''}`,
        {
          ...(person === 'farm' ? { apiKey: SERVICE_KEY } : person ? { token: tokens[person] } : {}),
          body: bytes,
          headers: { 'content-type': 'video/mp4', 'x-file-name': 'clip.mp4', ...headers },
        },
      ),
    async raw(person, url) {
      const res = await core.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${tokens[person]}` },
      });
      return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
    },
    uploadsDir: () => join(core.config.dataDir, 'projects', 'demo', 'uploads'),
    rows: (table) => core.db.withSchema('project_demo').selectFrom(table).selectAll().execute(),
  };
}

/** Every file (not folder) under a directory; none when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
