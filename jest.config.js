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
};
