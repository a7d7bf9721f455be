// One /operations batch of BATCH_FOLDERS folder creates (default 10,000), timed from request to answer, RUNS times
// (default 5) into one project: the median and the fastest. The answer comes once the batch's rows and its
// events are committed. Run: node --import tsx bench/src/operations-batch.ts   (DATABASE_URL for PostgreSQL)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, readConfig } from '@pipewright/core';
import { createTestDatabase } from '@pipewright/core/testing';
import { benchAdmin } from './admin.js';

const FOLDERS = Number(process.env.BATCH_FOLDERS ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 5);
// AYON's waitForEvents (WAIT_FOR_EVENTS=1): servers that write a batch's events after answering then wait for them.
const WAIT_FOR_EVENTS = process.env.WAIT_FOR_EVENTS === '1';

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-bench-'));
  const database = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL) : null;
  const config = {
    ...readConfig({ ...process.env, LOG_LEVEL: 'warn' }),
    dataDir,
    redisUrl: null,
    databaseUrl: database?.url ?? null,
  };
  const server = await createServer({ config, only: ['entities', 'users'] });
  try {
    await server.housekeeping?.stop();
    const token = await benchAdmin(server);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers,
      payload: { name: 'batch', code: 'b' },
    });
    if (created.statusCode !== 201) throw new Error(created.body);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const payload = JSON.stringify({
        waitForEvents: WAIT_FOR_EVENTS,
        operations: Array.from({ length: FOLDERS }, (_, i) => ({
          type: 'create',
          entityType: 'folder',
          data: { name: `r${run}f${i}`, folderType: 'Shot' },
        })),
      });
      const start = performance.now();
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/projects/batch/operations',
        headers,
        payload,
      });
      times.push(performance.now() - start);
      if (!res.body.endsWith('"success":true}')) throw new Error(res.body.slice(-300));
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `${FOLDERS}-folder /operations batch on ${server.database.kind}: median ${Math.round(sorted[sorted.length >> 1])} ms, ` +
        `fastest ${Math.round(sorted[0])} ms (${RUNS} runs: ${times.map(Math.round).join(', ')})`,
    );
  } finally {
    await server.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
