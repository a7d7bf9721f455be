// Review reports (issue 37), over real HTTP, on PGlite or on the PostgreSQL server of DATABASE_URL: a review
// session (a list) of VERSIONS versions (default 5), each with a 1920x1080 clip at 24 fps that ffmpeg makes here,
// FRAMES annotated frames a version (default 10: 50 in all; each a 200-point stroke, a rectangle, a text and an
// eraser), three comments on frames and a status change. ROUNDS rounds (default 3) each fetch:
// - the baseline: every annotated frame as a full-size still (GET .../files/{id}/still), one after another, as a
//   client would fetch them to make such a report itself;
// - the report: GET .../lists/{id}/review-report (the PDF).
// Printed: the median of each, the median ratio report / stills, the PDF's size, and whether the report of all 50
// frames is under the 15 s.
// Run: [DATABASE_URL=postgres://...] node --import tsx bench/src/review-report.ts
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer, readConfig } from '@pipewright/core';
import { createTestDatabase } from '@pipewright/core/testing';
import { benchAdmin } from './admin.js';

const VERSIONS = Number(process.env.VERSIONS ?? 5);
const FRAMES = Number(process.env.FRAMES ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const FIRST = 1001;
const LIMIT_MS = 15_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-bench-'));
const database = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL) : null;
const clip = join(dataDir, 'plate.mp4');
await promisify(execFile)('/usr/bin/ffmpeg', [
  ...[
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1920x1080:rate=24:duration=3',
  ],
  ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', clip],
]);
const config = { ...readConfig({ ...process.env, LOG_LEVEL: 'warn' }), dataDir, redisUrl: null };
const server = await createServer({
  config: { ...config, databaseUrl: database?.url ?? null },
  only: ['review-reports', 'reviewables', 'annotations', 'lists', 'activities', 'files'],
});
await server.housekeeping?.stop();
const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
const auth = { authorization: `Bearer ${await benchAdmin(server)}` };

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const raw = Buffer.isBuffer(body);
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...auth, ...(raw ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : raw ? new Uint8Array(body) : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}
const json = async (method: string, path: string, body?: unknown) => (await call(method, path, body)).json();

const P = '/api/projects/bench';
await json('POST', '/api/projects', { name: 'bench', code: 'b' });
const shot = (
  await json('POST', `${P}/folders`, { name: 'sh010', folderType: 'Shot', attrib: { frameStart: FIRST } })
).id;
const product = (
  await json('POST', `${P}/products`, { name: 'compMain', productType: 'render', folderId: shot })
).id;
const bytes = await readFile(clip);
const stills: string[] = [];
const versions: string[] = [];
for (let v = 1; v <= VERSIONS; v++) {
  const version = (await json('POST', `${P}/versions`, { version: v, productId: product })).id;
  versions.push(version);
  const upload = await (
    await call('POST', `${P}/versions/${version}/reviewables`, bytes, {
      'content-type': 'video/mp4',
      'x-file-name': `plate_v${v}.mp4`,
    })
  ).json();
  const annotations = `${P}/versions/${version}/reviewables/${upload.activityId}/annotations`;
  for (let f = 0; f < FRAMES; f++) {
    const index = 3 + f * 6;
    const frame = FIRST + index;
    const points = Array.from({ length: 200 }, (_, i) => [
      -0.7 + i * 0.007,
      0.2 * Math.sin(i / 10),
      0.004 + (i % 5) * 0.001,
    ]);
    for (const shape of [
      { kind: 'stroke', points },
      { kind: 'rectangle', from: [-0.4, -0.3], to: [0.3, 0.2], width: 0.004 },
      { kind: 'text', at: [-0.6, 0.35], text: `v${v} frame ${frame}: tighten the edge`, size: 0.05 },
      {
        kind: 'eraser',
        points: [
          [0, 0.3, 0.05],
          [0, -0.3, 0.05],
        ],
      },
    ])
      await json('POST', annotations, { frame, color: '#ff3b30', shape });
    stills.push(`${P}/files/${upload.fileId}/still?t=${(index + 0.5) / 24}`);
  }
  for (const frame of [FIRST + 3, FIRST + 9, FIRST + 15])
    await json('POST', `${P}/versions/${version}/activities`, {
      activityType: 'comment',
      body: `Frame ${frame}: the edge flickers`,
      data: { frame, reviewableId: upload.activityId },
    });
  await call('PATCH', `${P}/versions/${version}`, { status: 'Approved' });
}
const list = (
  await json('POST', `${P}/lists`, {
    label: 'Dailies',
    entityListType: 'review-session',
    entityType: 'version',
    items: versions.map((entityId) => ({ entityId })),
  })
).id;

const baseline: number[] = [];
const report: number[] = [];
let size = 0;
for (let round = 1; round <= ROUNDS; round++) {
  let start = performance.now();
  for (const still of stills) await (await call('GET', still)).arrayBuffer();
  baseline.push(performance.now() - start);
  start = performance.now();
  size = (await (await call('GET', `${P}/lists/${list}/review-report`)).arrayBuffer()).byteLength;
  report.push(performance.now() - start);
  console.log(
    `round ${round}: ${stills.length} stills ${seconds(baseline.at(-1)!)}, report ${seconds(report.at(-1)!)}`,
  );
}
const ratios = report.map((ms, i) => ms / baseline[i]!);
console.log(
  `\n${database ? 'PostgreSQL' : 'PGlite'}: report of ${VERSIONS} versions, ${stills.length} annotated frames: ` +
    `median ${seconds(median(report))} (max ${seconds(Math.max(...report))}), ${(size / 1e6).toFixed(1)} MB; ` +
    `the stills alone ${seconds(median(baseline))}; ratio ${median(ratios).toFixed(2)}x. ` +
    `Under ${LIMIT_MS / 1000} s: ${Math.max(...report) < LIMIT_MS ? 'yes' : 'NO'}`,
);
await server.close();
await database?.drop();
await rm(dataDir, { recursive: true, force: true });
