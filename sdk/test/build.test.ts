import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

// The package as it is published: ES modules with type declarations, importable by plain Node (no TypeScript
// loader), the client included. Built into a folder inside the package so its dependencies resolve.

const SDK = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let out: string;

beforeAll(async () => {
  if (!existsSync(join(SDK, 'src', 'client', 'schema.d.ts')))
    throw new Error('The client types are missing: run npm run generate -w @pipewright/sdk (npm test does)');
  out = await mkdtemp(join(SDK, '.build-'));
  execFileSync(process.execPath, [join(SDK, 'scripts', 'build.mjs'), out], { stdio: 'pipe' });
}, 120_000);
afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

/** Import a built module in a fresh Node without loaders and list its exports. */
function exportsOf(module: string): string[] {
  const script = `import(${JSON.stringify(join(out, module))}).then((m) => console.log(JSON.stringify(Object.keys(m).sort())))`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, NODE_OPTIONS: '' },
    encoding: 'utf8',
  });
  return JSON.parse(stdout);
}

describe('the built sdk', () => {
  it('has a declaration beside every module', () => {
    for (const module of ['index', 'client/index', 'client/schema', 'rsbuild-preset', 'screen', 'cli/main'])
      expect(existsSync(join(out, `${module}.d.ts`))).toBe(true);
  });

  it('runs in plain Node as ES modules', () => {
    expect(exportsOf('index.js')).toEqual(
      expect.arrayContaining(['defineAddon', 'NotFound', 'Type', 'newId']),
    );
    expect(exportsOf('client/index.js')).toEqual(expect.arrayContaining(['createClient', 'ApiError']));
    expect(exportsOf('rsbuild-preset.js')).toEqual(
      expect.arrayContaining(['addonFrontendConfig', 'hostFrontendConfig', 'SHARED_MODULES']),
    );
    expect(exportsOf('jest-preset.js')).toEqual(['pipewrightJestConfig']);
  });
});
