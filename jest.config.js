// Every package's tests in one Jest run, so that test files of all packages share the machine's workers: Jest
// starts the slowest files first (by their durations in earlier runs, else by size) and keeps both cores busy.
import { readdirSync } from 'node:fs';
import { pipewrightJestConfig } from './sdk/src/jest-preset.js';

const plugins = readdirSync(new URL('./plugins', import.meta.url)).map((name) => `plugins/${name}`);

export default {
  projects: ['core', 'sdk', 'sdk-tests', ...plugins, 'frontend-host', 'docs'].map(
    (dir) => `<rootDir>/${dir}`,
  ),
  // Jest reads the timeout of a run with several projects from here, not from each project's configuration. Two
  // files share the two cores here, so each gets twice what it has alone; the browser suites set theirs in setup.
  testTimeout: 2 * pipewrightJestConfig().testTimeout,
  // Each test file's ES modules stay on a worker's heap after the file ends (Jest's vm contexts are not freed), so a
  // worker that has run sixty files holds 1.4 GB and spends its time collecting garbage: files ran 2-3 times slower
  // late in a run than alone. A worker past this much is replaced by a fresh one between files.
  workerIdleMemoryLimit: '400MB',
};
