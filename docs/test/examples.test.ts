import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve as resolvePath } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { DOCS_DIR } from './helpers.js';

// The code examples of the API pages are not copied into a test by hand: every fenced block is read out of the
// page sources and either run against a fresh server, written as a file, or, if it is not code to run, named as such
// below. A page whose example breaks fails here, and so does a block this file does not know what to do with.
//
// Per page, one fresh server; the blocks of one language run concatenated, in page order, in one process, so a
// later block can use what an earlier one defined: sh first (it may set up data), then graphql (each block is one
// complete query, sent to /graphql as the page's reader would paste it into the explorer), then js, ts (type-checked
// by tsc against the client's generated types, then run with `node --import tsx`, as a reader runs a TypeScript
// script without compiling it), python and cpp (each cpp block is a whole program, compiled and run on its own). The examples read the server from PIPEWRIGHT_URL and a session
// token from PIPEWRIGHT_TOKEN, as the pages tell readers to set them.
//
// Files: a block with a filename="path" meta is the content of that file, not code to run (whatever its language:
// ts, tsx, json...), and is written at that path of the work directory at its place in the page. The sh blocks and
// the file blocks make one bash script in page order, each file a heredoc, so an sh block sees exactly the files the
// page has shown above it (the addon walk-through scaffolds a folder, then changes files in it, then builds it). The
// other languages run after that script, when every file is written. A graphql block is a query even when it has a
// filename (the name is what the reader saves it as): it is written and sent. A page that shows files a command
// wrote, as they are (AS_WRITTEN), has those blocks compared with the files instead of written.
//
// The work directory is a folder of docs/ (.examples-*, git-ignored, removed afterwards), so that imports such as
// '@pipewright/sdk/client' and commands such as `npx pipewright` resolve from the repository the way they do for a
// reader who has run `npm install` in their project; the pages say `npm install` in prose, this test never runs
// it. The folder gets a package.json of its own, standing for the reader's project: with it npm takes the folder
// as a project rather than as part of the docs workspace (where npx would run commands in docs/), and .ts examples
// are ES modules (top-level await).

export const API_PAGES = [
  'dev_api_rest',
  'dev_api_graphql',
  'dev_api_python',
  'dev_api_cpp',
  'dev_api_usd_resolver',
  'dev_addon_creation',
];

/** Languages that are run, and how. */
const EXECUTED = ['sh', 'bash', 'graphql', 'js', 'ts', 'python', 'cpp'] as const;
/** Languages that are data, formats or output, never calls against a server. */
const NOT_CODE = ['text', 'json', 'console'] as const;
/** Every example on these pages runs: none may be labelled as describing something the server does not serve. */
const NOT_SERVED = /planned|not yet served/i;

/**
 * Files a command on the page writes and the page then shows as written (a tour of what `addon init` made): the
 * first block of each is compared with the file instead of written, so the page fails when the command's output
 * changes and the page does not. Later blocks for the same path are changes the reader makes, and are written.
 */
const AS_WRITTEN: Record<string, string[]> = {
  dev_addon_creation: [
    'shot-notes/manifest.json',
    'shot-notes/src/index.ts',
    'shot-notes/frontend/rsbuild.config.ts',
    'shot-notes/frontend/src/Panel.tsx',
  ],
};

/** The addons each page's server runs (with what they depend on). */
const ADDONS: Record<string, string[]> = {
  // The TypeScript client's section posts an event and hears it over /ws.
  dev_api_rest: ['onboarding', 'projects', 'entities', 'events', 'websocket'],
  dev_api_graphql: ['onboarding', 'projects', 'entities', 'graphql'],
  // What `pipewright addon upload` needs: the install route, the event it follows, and the settings the addon uses.
  dev_addon_creation: ['onboarding', 'addons', 'events', 'settings'],
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
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++)
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    if (j === lines.length) throw new Error(`unclosed code fence at line ${i + 1}`);
    blocks.push({ lang, meta: meta.trim(), code: body.join('\n'), line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The path a block's filename="..." meta names, or null: such a block is a file's content, written, not run. */
export function fileName(block: CodeBlock): string | null {
  return /(?:^|\s)filename="([^"]+)"/.exec(block.meta)?.[1] ?? null;
}

/** Where a file block goes: a relative path that stays inside the work directory. */
function filePath(workDir: string, docId: string, block: CodeBlock): string {
  const name = fileName(block)!;
  const path = resolvePath(workDir, name);
  if (isAbsolute(name) || relative(workDir, path).startsWith('..')) {
    throw new Error(`${where(docId, block)}: filename="${name}" must be a path inside the reader's folder`);
  }
  return path;
}

/**
 * A bash command that reads a file block on its standard input, from a heredoc quoted so that nothing in it is
 * expanded: `command` is the line up to the heredoc operator, `after` what follows the operator on that line.
 */
function withHeredoc(command: string, docId: string, block: CodeBlock, after = ''): string {
  const end = 'PIPEWRIGHT_DOCS_FILE_END';
  if (block.code.split('\n').includes(end))
    throw new Error(`${where(docId, block)}: a line of the file reads ${end}`);
  return `${command} <<'${end}'${after}\n${block.code}\n${end}`;
}

const shellQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A bash command that writes a file block at path. */
function writeFileCommand(path: string, docId: string, block: CodeBlock): string {
  return `mkdir -p "$(dirname ${shellQuoted(path)})"\n${withHeredoc(`cat > ${shellQuoted(path)}`, docId, block)}`;
}

/** A bash command that fails, showing the difference, unless the file at path holds exactly the block. */
function compareFileCommand(path: string, docId: string, block: CodeBlock): string {
  const message = `${where(docId, block)}: the page shows ${fileName(block)} otherwise than it was written (diff above)`;
  return withHeredoc(
    `diff -u ${shellQuoted(path)} -`,
    docId,
    block,
    ` || { echo ${shellQuoted(message)} >&2; exit 1; }`,
  );
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

/** A run that outlasts this is stopped (SIGTERM), so a hung example fails with its output rather than hanging Jest. */
const RUN_TIMEOUT_MS = 150_000;

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, timeout: RUN_TIMEOUT_MS });
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
    throw new Error(
      `${what} failed (exit ${result.code})\n--- stderr ---\n${result.stderr.slice(-6000)}\n--- stdout ---\n${result.stdout.slice(-4000)}`,
    );
  }
  return result;
}

const readPage = (docId: string) => readFile(join(DOCS_DIR, 'app/docs', docId, 'page.mdx'), 'utf8');
const where = (docId: string, block: CodeBlock) =>
  `${docId}/page.mdx:${block.line} (\`\`\`${block.lang || '<no language>'})`;

describe('every fenced block of the API pages is known to this test', () => {
  test.each(API_PAGES)('/docs/%s: run, a file, or data', async (docId) => {
    const blocks = codeBlocks(await readPage(docId));
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      if (fileName(block) !== null) continue;
      if (
        (EXECUTED as readonly string[]).includes(block.lang) ||
        (NOT_CODE as readonly string[]).includes(block.lang)
      )
        continue;
      throw new Error(
        `${where(docId, block)}: give the block a language this test runs (${EXECUTED.join(', ')}), a filename="..." to write it to, or a language it knows as data (${NOT_CODE.join(', ')})`,
      );
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
    expect(blocks.map(fileName)).toEqual([null, 'x']);
  });

  test('a file block is written where it says, inside the work directory only, or compared', async () => {
    const block = (meta: string, code = "export const a = 'it''s';"): CodeBlock => ({
      lang: 'ts',
      meta,
      code,
      line: 1,
    });
    expect(fileName(block('filename="shot-notes/src/a.ts" {2-3}'))).toBe('shot-notes/src/a.ts');
    expect(filePath('/work', 'page', block('filename="shot-notes/src/a.ts"'))).toBe(
      '/work/shot-notes/src/a.ts',
    );
    expect(() => filePath('/work', 'page', block('filename="../a.ts"'))).toThrow('must be a path inside');
    expect(() => filePath('/work', 'page', block('filename="/etc/a.ts"'))).toThrow('must be a path inside');
    const dir = await mkdtemp(join(tmpdir(), 'pipewright-docs-file-'));
    try {
      const path = join(dir, "it's here", 'a.ts');
      execFileSync('bash', ['-c', writeFileCommand(path, 'page', block(''))]);
      expect(await readFile(path, 'utf8')).toBe("export const a = 'it''s';\n");
      execFileSync('bash', ['-c', compareFileCommand(path, 'page', block('filename="a.ts"'))]);
      expect(() =>
        execFileSync(
          'bash',
          ['-c', compareFileCommand(path, 'page', block('filename="a.ts"', 'export const a = 1;'))],
          { stdio: 'pipe' },
        ),
      ).toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** What the run of each page's examples must print, beyond exiting 0 (the examples check their answers too). */
const EXPECTED_OUTPUT: Record<string, { lang: string; pattern: RegExp }[]> = {
  dev_api_rest: [
    { lang: 'js', pattern: /^admin true$/m },
    // The TypeScript client: login and a typed GET, a typed POST, a 422, an operations batch, a live event.
    {
      lang: 'ts',
      pattern:
        /^logged in as admin, administrator: true\ndemo_commercial \(demo\) runs at 24 fps\ncreated \/sq010, a Sequence$/m,
    },
    {
      lang: 'ts',
      pattern:
        /^422: Validation error: body\.password: must NOT have fewer than 8 characters\n {2}body\.password: must NOT have fewer than 8 characters \(minLength\)$/m,
    },
    {
      lang: 'ts',
      pattern:
        /^create folder: 201\ncreate task: 201\ncreate folder: 409 unique-violation\nupdate folder: 204\nall succeeded: false$/m,
    },
    { lang: 'ts', pattern: /^review\.requested from admin: Please review sh010 \{"shot":"sh010"\}$/m },
  ],
  dev_api_python: [
    { lang: 'python', pattern: /^1\.11\.\d+$/m },
    { lang: 'python', pattern: /demo_python/ },
    { lang: 'python', pattern: /^404 /m },
  ],
  dev_addon_creation: [
    // init lists what it wrote, as the page shows it.
    {
      lang: 'sh',
      pattern:
        /^Created shot-notes in \/.+\/shot-notes:\n {2}\.gitignore\n {2}README\.md\n {2}frontend\/rsbuild\.config\.ts\n {2}frontend\/src\/Panel\.tsx\n {2}frontend\/tsconfig\.json\n {2}jest\.config\.js\n {2}manifest\.json\n {2}package\.json\n {2}public\/icon\.svg\n {2}src\/api\.ts\n {2}src\/index\.ts\n {2}src\/migrations\.ts\n {2}src\/routes\.ts\n {2}src\/schemas\.ts\n {2}src\/service\.ts\n {2}src\/store\.ts\n {2}test\/addon\.test\.ts\n {2}tsconfig\.json\nNext: cd \/.+\/shot-notes && npm install && npm test$/m,
    },
    { lang: 'sh', pattern: /^Built shot-notes 0\.1\.0$/m },
    { lang: 'sh', pattern: /^Wrote \/.+\/shot-notes\/package\/shot-notes-0\.1\.0\.zip \(\d+ KiB\)$/m },
    {
      lang: 'sh',
      pattern:
        /^Uploading shot-notes 0\.1\.0 \(\d+ KiB\) to http:\/\/127\.0\.0\.1:\d+\n(in_progress.*\n)*finished: Installed shot-notes 0\.1\.0\nInstalled shot-notes 0\.1\.0$/m,
    },
    // The new routes, the settings, and the screen offered to the web app.
    {
      lang: 'sh',
      pattern:
        /^\{"id":1,"shot":"sh010","text":"Matte edge flickers at frame 1012","author":"admin"\}\n\{"notes":\[\{"id":1,"shot":"sh010","text":"Matte edge flickers at frame 1012","author":"admin"\}\]\}$/m,
    },
    {
      lang: 'sh',
      pattern:
        /^\{"message":"Hello, admin","visits":1\}\n\{"greeting":"Hello"\}\n\{"message":"Welcome, admin","visits":2\}$/m,
    },
    {
      lang: 'sh',
      pattern:
        /^\{"addonName":"shot-notes","addonVersion":"0\.1\.0","modules":\{"shotNotes":\["\.\/Panel"\]\},"title":"Shot Notes","frontendScopes":\{"project":\{"sidebar":"Shot Notes"\}\}\}\n200$/m,
    },
  ],
  dev_api_cpp: [{ lang: 'cpp', pattern: /^Pipewright speaks AYON API 1\.11\.\d+$/m }],
  dev_api_usd_resolver: [{ lang: 'sh', pattern: /hero_usdModelMain_v012\.usd/ }],
  dev_api_graphql: [
    // first/after paging: every shot once, in order, over three pages of two.
    {
      lang: 'sh',
      pattern:
        /^\/sq010\/sh010\n\/sq010\/sh020\n\/sq010\/sh030\n\/sq010\/sh040\n\/sq010\/sh050\n5 shots in 3 pages$/m,
    },
    // The graphql blocks, in page order: roots, project, filters, attributes, links.
    {
      lang: 'graphql',
      pattern:
        /"projects":\{"edges":\[\{"node":\{"name":"demo_graphql","code":"dgql","active":true,"library":false\}\}\]\}/,
    },
    { lang: 'graphql', pattern: /"productTypes":\[\{"name":"render"/ },
    {
      lang: 'graphql',
      pattern:
        /"top":\{"edges":\[\{"node":\{"name":"hero","folderType":"Asset","hasChildren":false\}\},\{"node":\{"name":"sq010","folderType":"Sequence","hasChildren":true\}\}\]\}/,
    },
    {
      lang: 'graphql',
      pattern:
        /"firstShots":\{"edges":\[\{"node":\{"path":"\/sq010\/sh010"\}\},\{"node":\{"path":"\/sq010\/sh020"\}\},\{"node":\{"path":"\/sq010\/sh030"\}\}\]\}/,
    },
    {
      lang: 'graphql',
      pattern:
        /"latest":\{"edges":\[\{"node":\{"name":"v002","product":\{"name":"renderCompMain","folder":\{"path":"\/sq010\/sh010"\}\}\}\}/,
    },
    {
      lang: 'graphql',
      pattern: /"picked":\{"edges":\[\{"node":\{"name":"sh020"\}\},\{"node":\{"name":"sh040"\}\}\]\}/,
    },
    {
      lang: 'graphql',
      pattern:
        /"path":"\/sq010","attrib":\{"frameStart":1001,"frameEnd":1100,"fps":\d+\},"ownAttrib":\["frameEnd","frameStart"\]/,
    },
    {
      lang: 'graphql',
      pattern:
        /"path":"\/sq010\/sh010","attrib":\{"frameStart":1001,"frameEnd":1100,"fps":\d+\},"ownAttrib":\[\]/,
    },
    {
      lang: 'graphql',
      pattern:
        /"name":"hero","links":\{"edges":\[(\{"direction":"out","linkType":"breakdown","entityType":"folder","entityId":"[0-9a-f]{32}","author":"admin","node":\{"name":"sh0[1-5]0"\}\},?){2}\],"pageInfo":\{"hasNextPage":true\}\}/,
    },
    {
      lang: 'graphql',
      pattern:
        /"name":"sh010","links":\{"edges":\[\{"direction":"in","linkType":"breakdown","entityType":"folder","entityId":"[0-9a-f]{32}","author":"admin","node":\{"name":"hero"\}\}\],"pageInfo":\{"hasNextPage":false\}\}/,
    },
    // The folder tree read in one request, nested tasks and versions included.
    { lang: 'js', pattern: /^hero\nsq010\n( {2}sh0[1-5]0 {2}\(compositing: v001 v002\)\n){5}$/m },
    // client.paginate: every shot once, in order, with the frame range it inherits.
    { lang: 'ts', pattern: /^(\/sq010\/sh0[1-5]0 {2}frames 1001-1100\n){5}5 shots$/m },
    {
      lang: 'ts',
      pattern: /^\/sq010\/sh010 .*\n\/sq010\/sh020 .*\n\/sq010\/sh030 .*\n\/sq010\/sh040 .*\n\/sq010\/sh050 /,
    },
  ],
};

/** Send one graphql block to /graphql as a reader's explorer would; it must answer data and no errors. */
async function runGraphql(
  server: string,
  token: string | undefined,
  docId: string,
  block: CodeBlock,
): Promise<string> {
  if (!token)
    throw new Error(`${where(docId, block)}: a graphql block needs a logged-in reader (PIPEWRIGHT_TOKEN)`);
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
    throw new Error(
      `${where(docId, block)}: /graphql answered ${response.status} with no JSON: ${text.slice(0, 2000)}`,
    );
  }
  if (response.status !== 200 || answer.errors !== undefined || answer.data == null) {
    throw new Error(`${where(docId, block)}: /graphql answered ${response.status}: ${text.slice(0, 4000)}`);
  }
  return JSON.stringify(answer.data);
}

/**
 * The ts examples are type-checked before they run, strictly, as a reader's editor checks them: a typed call whose
 * path, parameters or body the client's types (generated from /openapi.json) no longer accept fails here.
 */
const TS_CONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  },
  files: ['examples.ts'],
};
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const CLIENT_TYPES = join(DOCS_DIR, '../sdk/src/client/schema.d.ts');

/** The reader's project folder, as far as npm and Node look at it (see the header). */
const PROJECT_PACKAGE = { name: 'docs-examples', private: true, type: 'module' };

describe.each(API_PAGES)('the examples of /docs/%s', (docId) => {
  let core: TestCore;
  let server: string;
  let workDir: string;

  beforeEach(async () => {
    core = await bootTestCore({ addons: ADDONS[docId] ?? DEFAULT_ADDONS });
    await core.app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(core.app.server.address() as { port: number }).port}`;
    workDir = await mkdtemp(join(DOCS_DIR, `.examples-${docId}-`));
    await writeFile(join(workDir, 'package.json'), JSON.stringify(PROJECT_PACKAGE, null, 2) + '\n');
  });

  afterEach(async () => {
    await core?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  test('run against a real server, and every check in them holds', async () => {
    const blocks = codeBlocks(await readPage(docId));
    const files = blocks.filter((b) => fileName(b) !== null);
    const byLang = (...langs: string[]) =>
      blocks.filter((b) => langs.includes(b.lang) && fileName(b) === null);
    const sh = byLang('sh', 'bash');
    const graphql = blocks.filter((b) => b.lang === 'graphql');
    const js = byLang('js');
    const ts = byLang('ts');
    const python = byLang('python');
    const cpp = byLang('cpp');
    expect(sh.length + graphql.length + js.length + ts.length + python.length + cpp.length).toBeGreaterThan(
      0,
    );
    if (docId === 'dev_api_rest') {
      expect(sh.length).toBeGreaterThanOrEqual(8);
      expect(ts.length).toBeGreaterThanOrEqual(4);
    }
    if (docId === 'dev_api_graphql') {
      expect(sh.length).toBeGreaterThanOrEqual(3);
      expect(graphql.length).toBeGreaterThanOrEqual(4);
      expect(js.length).toBeGreaterThanOrEqual(1);
      expect(ts.length).toBeGreaterThanOrEqual(1);
    }
    if (docId === 'dev_addon_creation') {
      expect(sh.length).toBeGreaterThanOrEqual(4);
      // The walk-through changes the scaffold: at least one file of the addon's sources is written by the page.
      expect(
        files.map(fileName).filter((name) => name!.startsWith('shot-notes/src/')).length,
      ).toBeGreaterThanOrEqual(1);
    }

    const tools = [
      ...(sh.length ? ['bash', 'curl', 'jq'] : files.length ? ['bash'] : []),
      ...(js.length || ts.length ? ['node'] : []),
      ...(python.length ? ['python3'] : []),
      ...(cpp.length ? ['g++'] : []),
    ];
    for (const tool of tools) {
      if (!have(tool))
        throw new Error(`the examples need ${tool}: apt-get install -y ${tool === 'g++' ? 'g++' : tool}`);
    }

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PIPEWRIGHT_URL: server,
      PIPEWRIGHT_USER: 'admin',
      PIPEWRIGHT_PASSWORD: ADMIN_PASSWORD,
    };
    // As a reader's shell would have it: no jest-run settings, no colours forced into the output checked below, and
    // no credentials of another server (the CLI prefers an API key to a token).
    for (const name of ['SERVER', 'NODE_OPTIONS', 'FORCE_COLOR', 'PIPEWRIGHT_TOKEN', 'PIPEWRIGHT_API_KEY'])
      delete env[name];
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

    const output: Record<string, string> = { sh: '', graphql: '', js: '', ts: '', python: '', cpp: '' };
    const marked = (list: CodeBlock[], comment: string) =>
      list.flatMap((b) => [`${comment} --- ${docId}/page.mdx:${b.line}`, b.code]).join('\n') + '\n';

    // The sh blocks and the file blocks, in page order, as one script (see the header).
    const scripted = blocks.filter((b) => sh.includes(b) || files.includes(b));
    const asWritten = AS_WRITTEN[docId] ?? [];
    for (const name of asWritten) expect(files.map(fileName)).toContain(name);
    const compared = new Set(asWritten.map((name) => files.find((b) => fileName(b) === name)));
    if (scripted.length) {
      const script = [
        'set -euo pipefail',
        ...scripted.flatMap((b) => {
          if (sh.includes(b))
            return [`echo "=== example ${sh.indexOf(b) + 1} (page.mdx:${b.line}) ===" >&2`, b.code];
          const path = filePath(workDir, docId, b);
          return compared.has(b)
            ? [
                `echo "=== file ${fileName(b)}, as written (page.mdx:${b.line}) ===" >&2`,
                compareFileCommand(path, docId, b),
              ]
            : [
                `echo "=== file ${fileName(b)} (page.mdx:${b.line}) ===" >&2`,
                writeFileCommand(path, docId, b),
              ];
        }),
        `echo "=== end of the page ===" >&2`,
      ].join('\n');
      const result = mustSucceed('the sh examples', await run('bash', ['-c', script], workDir, env));
      expect(result.stderr).toContain('=== end of the page ===');
      output.sh = result.stdout;
    }
    for (const block of graphql)
      output.graphql += (await runGraphql(server, env.PIPEWRIGHT_TOKEN, docId, block)) + '\n';
    if (js.length) {
      await writeFile(join(workDir, 'examples.mjs'), marked(js, '//'));
      output.js = mustSucceed(
        'the js examples (node examples.mjs)',
        await run('node', ['examples.mjs'], workDir, env),
      ).stdout;
    }
    if (ts.length) {
      await writeFile(join(workDir, 'examples.ts'), marked(ts, '//'));
      if (!existsSync(CLIENT_TYPES)) {
        throw new Error(
          `${CLIENT_TYPES} is missing: generate the client's types (npm run generate -w @pipewright/sdk)`,
        );
      }
      await writeFile(join(workDir, 'tsconfig.json'), JSON.stringify(TS_CONFIG, null, 2) + '\n');
      mustSucceed(
        'type-checking the ts examples (tsc -p tsconfig.json)',
        await run('node', [TSC, '-p', 'tsconfig.json'], workDir, env),
      );
      output.ts = mustSucceed(
        'the ts examples (node --import tsx examples.ts)',
        await run('node', ['--import', 'tsx', 'examples.ts'], workDir, env),
      ).stdout;
    }
    if (python.length) {
      await writeFile(join(workDir, 'examples.py'), marked(python, '#'));
      output.python = mustSucceed(
        'the python examples (python3 examples.py)',
        await run('python3', ['examples.py'], workDir, env),
      ).stdout;
    }
    for (const [i, block] of cpp.entries()) {
      await writeFile(join(workDir, `example${i}.cpp`), block.code + '\n');
      mustSucceed(
        `compiling ${where(docId, block)}`,
        await run('g++', ['-std=c++17', '-O0', `example${i}.cpp`, '-o', `example${i}`], workDir, env),
      );
      output.cpp += mustSucceed(
        `running ${where(docId, block)}`,
        await run(join(workDir, `example${i}`), [], workDir, env),
      ).stdout;
    }

    if (process.env.DOCS_EXAMPLES_VERBOSE) console.log(`${docId}\n${JSON.stringify(output, null, 2)}`);
    for (const { lang, pattern } of EXPECTED_OUTPUT[docId] ?? []) expect(output[lang]).toMatch(pattern);
  });
});
