import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';

// The world of the interchange tests: a real 1920x1080 clip at 24 fps (24 frames) uploaded as a reviewable of a shot
// that starts at frame 1001; boss is a manager, artie an artist of the project, gus a guest.
export const FIRST = 1001;

/** One of each kind, on frames 1001, 1003 and 1024; the corners of the picture are (±8/9, ±0.5). */
export const DRAWN = [
  {
    frame: 1001,
    color: '#ff3300',
    shape: {
      kind: 'stroke',
      points: [
        [-0.8, 0.4, 0.004],
        [-0.5, 0.3, 0.009],
        [-0.2, 0.35, 0.006],
      ],
    },
  },
  { frame: 1001, color: '#ffffff', shape: { kind: 'eraser', points: [[-0.5, 0.3, 0.02]] } },
  {
    frame: 1003,
    color: '#00aaff',
    shape: { kind: 'rectangle', from: [0.3, -0.2], to: [-0.1, 0.25], width: 0.003 },
  },
  {
    frame: 1003,
    color: '#00ff00',
    shape: { kind: 'ellipse', from: [-16 / 18, -0.5], to: [16 / 18, 0.5], width: 0.002 },
  },
  { frame: 1003, color: '#ffff00', shape: { kind: 'line', from: [0, 0], to: [0.7, -0.45], width: 0.005 } },
  { frame: 1024, color: '#ff00ff', shape: { kind: 'arrow', from: [0.1, 0.1], to: [0.6, 0.2], width: 0.004 } },
  {
    frame: 1024,
    color: '#123456',
    shape: { kind: 'text', at: [-0.3, -0.4], text: 'Fix "edge"\nhere', size: 0.04 },
  },
];

export interface ReviewWorld {
  core: TestCore;
  /** The reviewable's annotations route. */
  base: string;
  boss: string;
  artie: string;
  gus: string;
  as(token: string): (method: string, url: string, body?: unknown) => ReturnType<TestCore['request']>;
  /** Every annotation of the reviewable, as artie reads them. */
  all(): Promise<any[]>;
  /** Remove every annotation (as boss). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export async function reviewWorld(): Promise<ReviewWorld> {
  const media = await mkdtemp(join(tmpdir(), 'annotations-interchange-'));
  const clip = join(media, 'plate.mp4');
  const made = promisify(execFile)('/usr/bin/ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=gray:s=1920x1080:r=24:d=1'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip],
  ]);
  const core = await bootTestCore({ addons: ['annotations', 'reviewables', 'access', 'users'] });
  const as = (token: string) => (method: string, url: string, body?: unknown) =>
    core.request(method, url, { token, body });
  const boss = await seedUser(core, 'boss', { isManager: true });
  const artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  const gus = await seedUser(core, 'gus', { isGuest: true, accessGroups: { show: ['artist'] } });
  const make = async (path: string, body: unknown) => {
    const res = await as(boss)('POST', path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body.id as string;
  };
  await make('/api/projects', { name: 'show', code: 'sh' });
  const folder = await make('/api/projects/show/folders', {
    name: 'sh010',
    folderType: 'Shot',
    attrib: { frameStart: FIRST },
  });
  const product = await make('/api/projects/show/products', {
    name: 'plate',
    productType: 'plate',
    folderId: folder,
  });
  const version = await make('/api/projects/show/versions', { version: 1, productId: product });
  await made;
  const upload = await core.request(
    'POST',
    `/api/projects/show/versions/${version}/reviewables?label=plate%20v001`,
    {
      token: boss,
      body: await readFile(clip),
      headers: { 'content-type': 'video/mp4', 'x-file-name': 'plate.mp4' },
    },
  );
  expect(upload.status).toBeLessThan(300);
  const base = `/api/projects/show/versions/${version}/reviewables/${upload.body.activityId}/annotations`;
  const all = async () => (await as(artie)('GET', base)).body.annotations as any[];
  return {
    core,
    base,
    boss,
    artie,
    gus,
    as,
    all,
    async clear() {
      for (const { id } of await all()) expect((await as(boss)('DELETE', `${base}/${id}`)).status).toBe(204);
    },
    async close() {
      await core.close();
      await rm(media, { recursive: true, force: true });
    },
  };
}
