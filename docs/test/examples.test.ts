import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { DOCS_DIR } from './helpers.js';

// The shell examples of the API pages are not copied into a test by hand: they are read out of the page sources
// and run, in order, against a fresh server. A page whose example breaks fails here.

const PAGES_WITH_RUNNABLE_EXAMPLES = ['dev_api_rest'];

/** The ```sh blocks of an MDX page, in order. */
export function shellBlocks(source: string): string[] {
  const blocks: string[] = [];
  const fence = /^```(sh|bash)[^\n]*\n([\s\S]*?)^```\s*$/gm;
  for (let match = fence.exec(source); match; match = fence.exec(source)) blocks.push(match[2]);
  return blocks;
}

function have(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let core: TestCore;
let server: string;
let workDir: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['onboarding', 'projects'] });
  await core.app.listen({ port: 0, host: '127.0.0.1' });
  server = `http://127.0.0.1:${(core.app.server.address() as { port: number }).port}`;
  workDir = await mkdtemp(join(tmpdir(), 'pipewright-docs-examples-'));
});

afterAll(async () => {
  await core?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe.each(PAGES_WITH_RUNNABLE_EXAMPLES)('the examples of /docs/%s', (docId) => {
  test('run against a real server, top to bottom, and every check in them holds', async () => {
    for (const tool of ['bash', 'curl', 'jq']) {
      if (!have(tool)) throw new Error(`the examples need ${tool}: apt-get install -y ${tool}`);
    }
    const source = await readFile(join(DOCS_DIR, 'app/docs', docId, 'page.mdx'), 'utf8');
    const blocks = shellBlocks(source);
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const script = ['set -euo pipefail', ...blocks.flatMap((block, i) => [`echo "=== example ${i + 1} ===" >&2`, block])].join('\n');
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', script], { cwd: workDir, env: { ...process.env, SERVER: server } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    if (result.code !== 0) {
      throw new Error(`example script failed (exit ${result.code})\n--- stderr ---\n${result.stderr}\n--- stdout ---\n${result.stdout.slice(-4000)}`);
    }
    expect(result.stderr).toContain(`=== example ${blocks.length} ===`);
  });
});
