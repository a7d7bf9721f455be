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
// later block can use what an earlier one defined: sh first (it may set up data), then graphql (each block is one
// complete query, sent to /graphql as the page's reader would paste it into the explorer), then js, python and cpp
// (each cpp block is a whole program, compiled and run on its own). The examples read the server from
// PIPEWRIGHT_URL and a session token from PIPEWRIGHT_TOKEN, as the pages tell readers to set them.

export const API_PAGES = ['dev_api_rest', 'dev_api_graphql', 'dev_api_python', 'dev_api_cpp', 'dev_api_usd_resolver'];

/** Languages that are run, and how. */
const EXECUTED = ['sh', 'bash', 'graphql', 'js', 'python', 'cpp'] as const;
/** Languages that are data, formats or output, never calls against a server. */
const NOT_CODE = ['text', 'json', 'console'] as const;
/** Every example on these pages runs: none may be labelled as describing something the server does not serve. */
const NOT_SERVED = /planned|not yet served/i;

/** The addons each page's server runs (with what they depend on). */
const ADDONS: Record<string, string[]> = {
  dev_api_graphql: ['onboarding', 'projects', 'entities', 'graphql'],
};
const DEFAULT_ADDONS = ['onboarding', 'projects', 'entities'];

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
  test.each(API_PAGES)('/docs/%s: run, or data', async (docId) => {
    const blocks = codeBlocks(await readPage(docId));
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      if ((EXECUTED as readonly string[]).includes(block.lang) || (NOT_CODE as readonly string[]).includes(block.lang)) continue;
      throw new Error(`${where(docId, block)}: give the block a language this test runs (${EXECUTED.join(', ')}) or knows as data (${NOT_CODE.join(', ')})`);
    }
  });

  test('no example is labelled as planned or not served: every one of them runs', async () => {
    for (const docId of API_PAGES) {
      const labelled = codeBlocks(await readPage(docId)).filter((b) => NOT_SERVED.test(b.meta));
      expect(labelled.map((b) => where(docId, b))).toEqual([]);
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
  dev_api_graphql: [
    // first/after paging: every shot once, in order, over three pages of two.
    { lang: 'sh', pattern: /^\/sq010\/sh010\n\/sq010\/sh020\n\/sq010\/sh030\n\/sq010\/sh040\n\/sq010\/sh050\n5 shots in 3 pages$/m },
    // The graphql blocks, in page order: roots, project, filters, attributes, links.
    { lang: 'graphql', pattern: /"projects":\{"edges":\[\{"node":\{"name":"demo_graphql","code":"dgql","active":true,"library":false\}\}\]\}/ },
    { lang: 'graphql', pattern: /"productTypes":\[\{"name":"render"/ },
    { lang: 'graphql', pattern: /"top":\{"edges":\[\{"node":\{"name":"hero","folderType":"Asset","hasChildren":false\}\},\{"node":\{"name":"sq010","folderType":"Sequence","hasChildren":true\}\}\]\}/ },
    { lang: 'graphql', pattern: /"firstShots":\{"edges":\[\{"node":\{"path":"\/sq010\/sh010"\}\},\{"node":\{"path":"\/sq010\/sh020"\}\},\{"node":\{"path":"\/sq010\/sh030"\}\}\]\}/ },
    { lang: 'graphql', pattern: /"latest":\{"edges":\[\{"node":\{"name":"v002","product":\{"name":"renderCompMain","folder":\{"path":"\/sq010\/sh010"\}\}\}\}/ },
    { lang: 'graphql', pattern: /"picked":\{"edges":\[\{"node":\{"name":"sh020"\}\},\{"node":\{"name":"sh040"\}\}\]\}/ },
    { lang: 'graphql', pattern: /"path":"\/sq010","attrib":\{"frameStart":1001,"frameEnd":1100,"fps":\d+\},"ownAttrib":\["frameEnd","frameStart"\]/ },
    { lang: 'graphql', pattern: /"path":"\/sq010\/sh010","attrib":\{"frameStart":1001,"frameEnd":1100,"fps":\d+\},"ownAttrib":\[\]/ },
    { lang: 'graphql', pattern: /"links":\{"edges":\[(\{"node":\{"linkType":"breakdown","inputType":"folder","outputType":"folder","author":"admin"\}\},?){2}\],"pageInfo":\{"hasNextPage":true\}\}/ },
    { lang: 'graphql', pattern: /"name":"sh010","links":\{"edges":\[\{"node":\{"direction":"in","linkType":"breakdown","entityType":"folder","entityId":"[0-9a-f]{32}"\}\}\]\}/ },
    // The folder tree read in one request, nested tasks and versions included.
    { lang: 'js', pattern: /^hero\nsq010\n(  sh0[1-5]0  \(compositing: v001 v002\)\n){5}$/m },
  ],
};

/** Send one graphql block to /graphql as a reader's explorer would; it must answer data and no errors. */
async function runGraphql(server: string, token: string | undefined, docId: string, block: CodeBlock): Promise<string> {
  if (!token) throw new Error(`${where(docId, block)}: a graphql block needs a logged-in reader (PIPEWRIGHT_TOKEN)`);
  const response = await fetch(`${server}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: block.code }),
  });
  const text = await response.text();
  let answer: { data?: unknown; errors?: unknown };
  try {
    answer = JSON.parse(text);
  } catch {
    throw new Error(`${where(docId, block)}: /graphql answered ${response.status} with no JSON: ${text.slice(0, 2000)}`);
  }
  if (response.status !== 200 || answer.errors !== undefined || answer.data == null) {
    throw new Error(`${where(docId, block)}: /graphql answered ${response.status}: ${text.slice(0, 4000)}`);
  }
  return JSON.stringify(answer.data);
}

describe.each(API_PAGES)('the examples of /docs/%s', (docId) => {
  let core: TestCore;
  let server: string;
  let workDir: string;

  beforeEach(async () => {
    core = await bootTestCore({ addons: ADDONS[docId] ?? DEFAULT_ADDONS });
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
    const graphql = byLang('graphql');
    const js = byLang('js');
    const python = byLang('python');
    const cpp = byLang('cpp');
    expect(sh.length + graphql.length + js.length + python.length + cpp.length).toBeGreaterThan(0);
    if (docId === 'dev_api_rest') expect(sh.length).toBeGreaterThanOrEqual(8);
    if (docId === 'dev_api_graphql') {
      expect(sh.length).toBeGreaterThanOrEqual(3);
      expect(graphql.length).toBeGreaterThanOrEqual(4);
      expect(js.length).toBeGreaterThanOrEqual(1);
    }

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

    const output: Record<string, string> = { sh: '', graphql: '', js: '', python: '', cpp: '' };
    const marked = (list: CodeBlock[], comment: string) =>
      list.flatMap((b) => [`${comment} --- ${docId}/page.mdx:${b.line}`, b.code]).join('\n') + '\n';

    if (sh.length) {
      const script = ['set -euo pipefail', ...sh.flatMap((b, i) => [`echo "=== example ${i + 1} (page.mdx:${b.line}) ===" >&2`, b.code])].join('\n');
      const result = mustSucceed('the sh examples', await run('bash', ['-c', script], workDir, env));
      expect(result.stderr).toContain(`=== example ${sh.length} `);
      output.sh = result.stdout;
    }
    for (const block of graphql) output.graphql += (await runGraphql(server, env.PIPEWRIGHT_TOKEN, docId, block)) + '\n';
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
