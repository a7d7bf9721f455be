// What the project dashboard and the entity lists screens ask the server for, timed on a project of FOLDERS
// folders (default 10,000) with three tasks each and a version on every task of every tenth folder, each figure
// next to a baseline measured in this same run: the smallest SQL that reads the same rows.
//   dashboard: its five reads as the screen sends them (at once) vs the tasks counted per status in one SELECT;
//   lists: a list of VERSIONS versions created, read as the screen reads it (items with their entities), reordered,
//   and the overview's Add to list (latest versions of the chosen tasks, added in one request).
// Run: npm run bench:screens -w @pipewright/bench   (DATABASE_URL for PostgreSQL)
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createServer, readConfig } from '@pipewright/core';
import { createTestDatabase } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';

const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const BATCH = 1000;
const STATUSES = ['Not ready', 'Ready to start', 'In progress', 'Pending review', 'Approved'];
const DAY = 24 * 60 * 60 * 1000;

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const line = (label: string, value: string) => console.log(`${label.padEnd(62)} ${value}`);

/** The median of `runs` timings of `work`, in milliseconds, after one run that warms caches up. */
async function median(work: () => Promise<unknown>, runs = RUNS): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await work();
    times.push(ms(start));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Sequences of shots under episodes, three tasks per shot: creates for /operations, in order. */
function buildProject(total: number) {
  const operations: Record<string, unknown>[] = [];
  const tasks: string[] = [];
  const shots: string[] = [];
  const folder = (name: string, folderType: string, parentId: string | null, attrib?: object) => {
    const id = newId();
    operations.push({
      type: 'create',
      entityType: 'folder',
      entityId: id,
      data: { name, folderType, parentId, ...(attrib ? { attrib } : {}) },
    });
    return id;
  };
  const episodes = Array.from({ length: 10 }, (_, e) => folder(`ep${e}`, 'Episode', null));
  const sequences = Array.from({ length: 100 }, (_, s) => folder(`sq${s}`, 'Sequence', episodes[s % 10]!));
  for (let n = 0; n < total - 110; n++) {
    // A fifth of the shots ended last week: their unfinished tasks are overdue.
    const ended = n % 5 === 0 ? { endDate: new Date(Date.now() - 7 * DAY).toISOString() } : undefined;
    const shot = folder(`sh${n}`, 'Shot', sequences[n % 100]!, ended);
    shots.push(shot);
    for (const [i, name] of ['anim', 'lighting', 'comp'].entries()) {
      const id = newId();
      tasks.push(id);
      operations.push({
        type: 'create',
        entityType: 'task',
        entityId: id,
        data: {
          name,
          taskType: ['Animation', 'Lighting', 'Compositing'][i],
          folderId: shot,
          status: STATUSES[(n + i) % 5],
        },
      });
    }
  }
  return { operations, tasks, shots };
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-bench-'));
  const database = process.env.DATABASE_URL ? await createTestDatabase(process.env.DATABASE_URL) : null;
  const config = {
    ...readConfig({ ...process.env, LOG_LEVEL: 'warn' }),
    dataDir,
    redisUrl: null,
    databaseUrl: database?.url ?? null,
  };
  const server = await createServer({
    config,
    only: ['onboarding', 'users', 'entities', 'graphql', 'dashboard', 'lists', 'teams', 'files'],
  });
  await server.housekeeping?.stop();
  let token = '';
  const call = async (method: string, url: string, payload?: unknown) => {
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode >= 300)
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.body ? res.json() : null;
  };
  const graphql = async (query: string, variables: object) => {
    const answer = await call('POST', '/graphql', { query, variables });
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    return answer.data;
  };
  try {
    token = (
      await call('POST', '/api/onboarding/initialize', {
        adminName: 'bench',
        adminPassword: 'bench password',
      })
    ).token;
    await call('POST', '/api/projects', { name: 'bench', code: 'bench' });

    const { operations, tasks, shots } = buildProject(FOLDERS);
    const seeded = process.hrtime.bigint();
    for (let i = 0; i < operations.length; i += BATCH)
      await call('POST', '/api/projects/bench/operations', { operations: operations.slice(i, i + BATCH) });
    // A product on every tenth shot, with a version of each of its three tasks: v1, v2, v3.
    const versions: { id: string; taskId: string }[] = [];
    const publish: Record<string, unknown>[] = [];
    for (let n = 0; n < shots.length; n += 10) {
      const productId = newId();
      publish.push({
        type: 'create',
        entityType: 'product',
        entityId: productId,
        data: { name: 'renderMain', productType: 'render', folderId: shots[n] },
      });
      for (let t = 0; t < 3; t++) {
        const version = { id: newId(), taskId: tasks[n * 3 + t]! };
        versions.push(version);
        publish.push({
          type: 'create',
          entityType: 'version',
          entityId: version.id,
          data: { version: t + 1, productId, taskId: version.taskId },
        });
      }
    }
    for (let i = 0; i < publish.length; i += BATCH)
      await call('POST', '/api/projects/bench/operations', { operations: publish.slice(i, i + BATCH) });
    console.log(
      `Pipewright screens benchmark: ${FOLDERS} folders, ${tasks.length} tasks, ${versions.length} versions, ` +
        `storage ${server.database.kind}; seeded in ${(ms(seeded) / 1000).toFixed(1)} s; medians of ${RUNS} runs`,
    );

    // The dashboard: what Dashboard.tsx reads when it opens, all at once.
    const dashboard = await median(() =>
      Promise.all([
        call('GET', '/api/projects/bench/dashboard/entities'),
        call('GET', '/api/projects/bench/dashboard/health'),
        call('GET', '/api/projects/bench/dashboard/users'),
        call('GET', '/api/projects/bench/dashboard/activity?days=30'),
        call('GET', '/api/projects/bench'),
      ]),
    );
    for (const part of ['entities', 'health', 'users', 'activity?days=30'])
      line(
        `  ${part.replace(/\?.*/, '')} alone`,
        `${(await median(() => call('GET', `/api/projects/bench/dashboard/${part}`))).toFixed(1)} ms`,
      );
    const health = await call('GET', '/api/projects/bench/dashboard/health');
    const countBaseline = await median(() =>
      sql`SELECT status, count(*) FROM project_bench.tasks GROUP BY status`.execute(server.db),
    );
    line("dashboard: the screen's five reads, at once", `${dashboard.toFixed(1)} ms`);
    line('  tasks per status in one SELECT (baseline)', `${countBaseline.toFixed(1)} ms`);
    line('  ratio', `${(dashboard / countBaseline).toFixed(1)}x`);
    line(
      '  figures',
      `${health.tasks.total} tasks, ${health.tasks.overdue} overdue, ${health.completion.percentage}% done`,
    );

    // Lists: a day's dailies (200 versions) and one of every version, made as the lists screen makes them, read as it
    // reads them, next to their items joined to versions and products in SQL.
    const LIST = `query List($project: String!, $id: String!) { project(name: $project) { entityList(id: $id) {
      id label entityType entityListType count owner updatedAt
      items(first: 10000) { edges { id entityId position folderPath node { name ... on VersionNode { path version } } } } } } }`;
    const ids = versions.map((v) => v.id);
    let start = process.hrtime.bigint();
    let list: { id: string } = { id: '' };
    for (const size of [200, ids.length]) {
      start = process.hrtime.bigint();
      list = await call('POST', '/api/projects/bench/lists', {
        label: `Dailies of ${size}`,
        entityType: 'version',
        entityListType: 'review-session',
        items: ids.slice(0, size).map((entityId) => ({ entityId })),
      });
      line(`lists: create a list of ${size} versions`, `${ms(start).toFixed(1)} ms`);
      const read = await median(() => graphql(LIST, { project: 'bench', id: list.id }));
      const baseline = await median(() =>
        sql`SELECT i.*, v.version, p.name FROM project_bench.entity_list_items i
            JOIN project_bench.versions v ON v.id = i.entity_id JOIN project_bench.products p ON p.id = v.product_id
            WHERE i.entity_list_id = ${list.id} ORDER BY i.position`.execute(server.db),
      );
      line('  read it as the screen does (items, entities, paths)', `${read.toFixed(1)} ms`);
      line('  its items joined to versions and products in SQL (baseline)', `${baseline.toFixed(1)} ms`);
      line('  ratio', `${(read / baseline).toFixed(1)}x`);
    }
    const items = (await call('GET', `/api/projects/bench/lists/${list.id}`)).items as { id: string }[];
    let reversed = items.map((item) => item.id);
    const reorder = await median(() => {
      reversed = [...reversed].reverse();
      return call('POST', `/api/projects/bench/lists/${list.id}/order`, { order: reversed });
    }, 5);
    line(`  reorder all ${items.length} items (one drag)`, `${reorder.toFixed(1)} ms`);

    // The overview's Add to list: the latest versions of 300 chosen tasks into a new list, then into it again.
    const chosen = versions.slice(0, 300).map((v) => v.taskId);
    const LATEST = `query LatestVersions($project: String!, $taskIds: [String!], $folderIds: [String!]) { project(name: $project) {
      versions(taskIds: $taskIds, latestOnly: true, first: 5000) { edges { node { id } } }
      products(folderIds: $folderIds, first: 5000) { edges { node { latestVersion { id } } } } } }`;
    start = process.hrtime.bigint();
    const latest = await graphql(LATEST, { project: 'bench', taskIds: chosen, folderIds: ['0'.repeat(32)] });
    const found = latest.project.versions.edges.map((edge: { node: { id: string } }) => edge.node.id);
    const target = await call('POST', '/api/projects/bench/lists', {
      label: 'From the overview',
      entityType: 'version',
      items: found.map((entityId: string) => ({ entityId })),
    });
    line(
      `add to list: latest versions of ${chosen.length} tasks, new list`,
      `${ms(start).toFixed(1)} ms (${found.length} added)`,
    );
    start = process.hrtime.bigint();
    await call('PATCH', `/api/projects/bench/lists/${target.id}/items`, {
      mode: 'merge',
      items: ids.slice(300, 600).map((entityId) => ({ entityId })),
    });
    line('  300 more into the existing list, one request', `${ms(start).toFixed(1)} ms`);
  } finally {
    await server.close();
    await database?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
