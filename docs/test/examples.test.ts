import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { DOCS_DIR } from './helpers.js';

// The code examples of the API pages are not copied into a test by hand: every fenced block is read out of the
// page sources and either run against a fresh server or, if it is not code to run, named as such below. A page
// whose example breaks fails here, and so does a block this file does not know what to do with.
//
// Per page, one fresh server; the blocks of one language run concatenated, in page order, in one process, so a
// later block can use what an earlier one defined: sh first (it may set up data), then js, python and cpp (each
// cpp block is a whole program, compiled and run on its own). The examples read the server from PIPEWRIGHT_URL
// and a session token from PIPEWRIGHT_TOKEN, as the pages tell readers to set them.

export const API_PAGES = ['dev_api_rest', 'dev_api_graphql', 'dev_api_python', 'dev_api_cpp', 'dev_api_usd_resolver'];

/** Languages that are run, and how. */
const EXECUTED = ['sh', 'bash', 'js', 'python', 'cpp'] as const;
/** Languages that are data, formats or output, never calls against a server. */
const NOT_CODE = ['text', 'json', 'console'] as const;
/** A block of a feature the server does not serve yet must say so in its fence: ```graphql filename="… planned — not yet served". */
const PLANNED_LABEL = 'planned — not yet served';
const PLANNED_ONLY = ['graphql'] as const;

/** The password the pages use for the first administrator ("admin"). */
const ADMIN_PASSWORD = 'correct horse battery';

export interface CodeBlock {
  lang: string;
  meta: string;
  code: string;
  line: number;
}

/** Every fenced block of an MDX page (also ones indented inside lists), in order. */
export function codeBlocks(source: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```([^\s`]*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, lang, meta] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    if (j === lines.length) throw new Error(`unclosed code fence at line ${i + 1}`);
    blocks.push({ lang, meta: meta.trim(), code: body.join('\n'), line: i + 1 });
    i = j;
  }
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

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ code: -1, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function mustSucceed(what: string, result: Run): Run {
  if (result.code !== 0) {
    throw new Error(`${what} failed (exit ${result.code})\n--- stderr ---\n${result.stderr.slice(-6000)}\n--- stdout ---\n${result.stdout.slice(-4000)}`);
  }
  return result;
}

const readPage = (docId: string) => readFile(join(DOCS_DIR, 'app/docs', docId, 'page.mdx'), 'utf8');
const where = (docId: string, block: CodeBlock) => `${docId}/page.mdx:${block.line} (\`\`\`${block.lang || '<no language>'})`;

describe('every fenced block of the API pages is known to this test', () => {
  test.each(API_PAGES)('/docs/%s: run, data, or labelled planned', async (docId) => {
    const blocks = codeBlocks(await readPage(docId));
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      if ((EXECUTED as readonly string[]).includes(block.lang) || (NOT_CODE as readonly string[]).includes(block.lang)) continue;
      if ((PLANNED_ONLY as readonly string[]).includes(block.lang)) {
        if (!block.meta.includes(PLANNED_LABEL)) {
          throw new Error(`${where(docId, block)} is not run by the docs test: label it filename="… ${PLANNED_LABEL}" or make it runnable here`);
        }
        continue;
      }
      throw new Error(`${where(docId, block)}: give the block a language this test runs (${EXECUTED.join(', ')}) or knows as data (${NOT_CODE.join(', ')})`);
    }
  });

  test('planned blocks appear only on the GraphQL page, and every example there is one', async () => {
    for (const docId of API_PAGES) {
      const blocks = codeBlocks(await readPage(docId));
      const planned = blocks.filter((b) => b.meta.includes(PLANNED_LABEL));
      if (docId === 'dev_api_graphql') {
        // The day /graphql is served, its examples must run here (issue 8): drop the label and add graphql above.
        expect(planned.length).toBeGreaterThan(0);
        expect(blocks.filter((b) => !b.meta.includes(PLANNED_LABEL)).map((b) => where(docId, b))).toEqual([]);
      } else {
        expect(planned.map((b) => where(docId, b))).toEqual([]);
      }
    }
  });

  test('the extractor finds indented blocks and their language', () => {
    const blocks = codeBlocks('text\n\n  ```json\n  {"a": 1}\n  ```\n\n```sh filename="x"\necho hi\n```\n');
    expect(blocks).toEqual([
      { lang: 'json', meta: '', code: '{"a": 1}', line: 3 },
      { lang: 'sh', meta: 'filename="x"', code: 'echo hi', line: 7 },
    ]);
  });
});

/** What the run of each page's examples must print, beyond exiting 0 (the examples check their answers too). */
const EXPECTED_OUTPUT: Record<string, { lang: string; pattern: RegExp }[]> = {
  dev_api_rest: [{ lang: 'js', pattern: /^admin true$/m }],
  dev_api_python: [
    { lang: 'python', pattern: /^1\.11\.\d+$/m },
    { lang: 'python', pattern: /demo_python/ },
    { lang: 'python', pattern: /^404 /m },
  ],
  dev_api_cpp: [{ lang: 'cpp', pattern: /^Pipewright speaks AYON API 1\.11\.\d+$/m }],
  dev_api_usd_resolver: [{ lang: 'sh', pattern: /hero_usdModelMain_v012\.usd/ }],
};

describe.each(API_PAGES.filter((docId) => docId !== 'dev_api_graphql'))('the examples of /docs/%s', (docId) => {
  let core: TestCore;
  let server: string;
  let workDir: string;

  beforeEach(async () => {
    core = await bootTestCore({ addons: ['onboarding', 'projects', 'entities'] });
    await core.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(core.app.server.address() as { port: number }).port}`;
    workDir = await mkdtemp(join(tmpdir(), `pipewright-docs-${docId}-`));
  });

  afterEach(async () => {
    await core?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  test('run against a real server, and every check in them holds', async () => {
    const blocks = codeBlocks(await readPage(docId));
    const byLang = (...langs: string[]) => blocks.filter((b) => langs.includes(b.lang));
    const sh = byLang('sh', 'bash');
    const js = byLang('js');
    const python = byLang('python');
    const cpp = byLang('cpp');
    expect(sh.length + js.length + python.length + cpp.length).toBeGreaterThan(0);
    if (docId === 'dev_api_rest') expect(sh.length).toBeGreaterThanOrEqual(8);

    const tools = [...(sh.length ? ['bash', 'curl', 'jq'] : []), ...(js.length ? ['node'] : []), ...(python.length ? ['python3'] : []), ...(cpp.length ? ['g++'] : [])];
    for (const tool of tools) {
      if (!have(tool)) throw new Error(`the examples need ${tool}: apt-get install -y ${tool === 'g++' ? 'g++' : tool}`);
    }

    const env: NodeJS.ProcessEnv = { ...process.env, PIPEWRIGHT_URL: server, PIPEWRIGHT_USER: 'admin', PIPEWRIGHT_PASSWORD: ADMIN_PASSWORD };
    // As a reader's shell would have it: no jest-run settings, and no colours forced into the output checked below.
    for (const name of ['SERVER', 'NODE_OPTIONS', 'FORCE_COLOR']) delete env[name];
    env.NO_COLOR = '1';
    if (docId !== 'dev_api_rest') {
      // Every page but the REST one (which walks through it) starts where a reader would: an administrator exists
      // and PIPEWRIGHT_TOKEN holds their session token.
      const onboarding = await core.request('POST', '/api/onboarding/initialize', {
        body: { adminName: 'admin', adminPassword: ADMIN_PASSWORD, adminFullName: 'Studio Admin' },
      });
      expect(onboarding.status).toBe(200);
      env.PIPEWRIGHT_TOKEN = onboarding.body.token;
    }

    const output: Record<string, string> = { sh: '', js: '', python: '', cpp: '' };
    const marked = (list: CodeBlock[], comment: string) =>
      list.flatMap((b) => [`${comment} --- ${docId}/page.mdx:${b.line}`, b.code]).join('\n') + '\n';

    if (sh.length) {
      const script = ['set -euo pipefail', ...sh.flatMap((b, i) => [`echo "=== example ${i + 1} (page.mdx:${b.line}) ===" >&2`, b.code])].join('\n');
      const result = mustSucceed('the sh examples', await run('bash', ['-c', script], workDir, env));
      expect(result.stderr).toContain(`=== example ${sh.length} `);
      output.sh = result.stdout;
    }
    if (js.length) {
      await writeFile(join(workDir, 'examples.mjs'), marked(js, '//'));
      output.js = mustSucceed('the js examples (node examples.mjs)', await run('node', ['examples.mjs'], workDir, env)).stdout;
    }
    if (python.length) {
      await writeFile(join(workDir, 'examples.py'), marked(python, '#'));
      output.python = mustSucceed('the python examples (python3 examples.py)', await run('python3', ['examples.py'], workDir, env)).stdout;
    }
    for (const [i, block] of cpp.entries()) {
      await writeFile(join(workDir, `example${i}.cpp`), block.code + '\n');
      mustSucceed(`compiling ${where(docId, block)}`, await run('g++', ['-std=c++17', '-O0', `example${i}.cpp`, '-o', `example${i}`], workDir, env));
      output.cpp += mustSucceed(`running ${where(docId, block)}`, await run(join(workDir, `example${i}`), [], workDir, env)).stdout;
    }

    if (process.env.DOCS_EXAMPLES_VERBOSE) console.log(`${docId}\n${JSON.stringify(output, null, 2)}`);
    for (const { lang, pattern } of EXPECTED_OUTPUT[docId] ?? []) expect(output[lang]).toMatch(pattern);
  });
});
