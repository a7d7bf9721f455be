import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

// The shape every addon keeps, checked over the repository's sources:
// - Events leave through one door: the service that writes a change emits its events inside the change's own unit
//   of work, so they reach the outbox in the same transaction and are never lost after a commit. A route file that
//   emits after the service returned, or a service that hands out a general emit for its routes, opens a second door.
// - Route files read parameters, call a service and answer: no SQL, no transaction of their own.
// - Addons use each other through the sdk's service contract only, never by importing another addon's files.
// - No source file grows past 400 lines: a file that long holds more than one idea.
// Each list of files not there yet only shrinks: a file that complies must leave it.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const plugins = join(root, 'plugins');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const read = (paths: string[]) =>
  paths.map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));
const existing = (dir: string) => (existsSync(dir) ? sources(dir) : []);
const pluginNames = readdirSync(plugins, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const pluginSources = read(pluginNames.flatMap((name) => existing(join(plugins, name, 'src'))));
const screenSources = read(pluginNames.flatMap((name) => existing(join(plugins, name, 'frontend', 'src'))));
const allSources = [
  ...read(['core/src', 'sdk/src', 'frontend-host/src'].flatMap((dir) => existing(join(root, dir)))),
  ...pluginSources,
  ...screenSources,
];

const isRouteFile = (path: string) => /(^|[/-])routes?\.tsx?$/.test(path) || path.includes('/routes/');

/** Route files that still emit, each to move into its service (the list only shrinks). */
const ROUTES_STILL_EMITTING = new Map<string, string>([]);

/** Services that still hand their routes a general emit (the list only shrinks). */
const SERVICES_WITH_PUBLIC_EMIT = new Set<string>([]);

describe('events leave through the unit of work', () => {
  it('no route file emits, but those not moved yet', () => {
    const emitting = pluginSources
      .filter(({ path, text }) => isRouteFile(path) && /\.emit(Many)?\(/.test(text))
      .map(({ path }) => path)
      .sort();
    expect(emitting).toEqual([...ROUTES_STILL_EMITTING.keys()].sort());
  });

  it('no service offers a public emit, but those not moved yet', () => {
    const offering = pluginSources
      .filter(({ path, text }) => !isRouteFile(path) && /^ {2}(public |async )?emit(Many)?\(/m.test(text))
      .map(({ path }) => path)
      .sort();
    expect(offering).toEqual([...SERVICES_WITH_PUBLIC_EMIT].sort());
  });
});

/** Route files that still query the database themselves, each to move into its service (the list only shrinks). */
const ROUTES_STILL_QUERYING = new Set<string>([]);

/** Source files over 400 lines, each with the length it may not exceed until split (the list only shrinks). */
const LONG_FILES = new Map([
  ['plugins/entities/frontend/src/HierarchyDialogs.tsx', 467],
  ['plugins/entities/frontend/src/Overview.tsx', 745],
  ['plugins/entities/frontend/src/store.ts', 589],
]);
const MAX_LINES = 400;

describe('each addon keeps the shape', () => {
  it('no route file runs SQL or opens a transaction: its service does', () => {
    const querying = pluginSources
      .filter(
        ({ path, text }) =>
          isRouteFile(path) &&
          /from 'kysely'|\bsql`|\.(selectFrom|insertInto|updateTable|deleteFrom|transaction)\(/.test(text),
      )
      .map(({ path }) => path)
      .sort();
    expect(querying).toEqual([...ROUTES_STILL_QUERYING].sort());
  });

  it("no addon imports another addon's files: they meet through the sdk's services", () => {
    const crossing = [...pluginSources, ...screenSources].flatMap(({ path, text }) => {
      const own = path.split('/').slice(0, 2).join('/');
      return [...text.matchAll(/(?:from|import\()\s*'([^']+)'/g)]
        .map((match) => match[1])
        .filter((specifier) =>
          specifier.startsWith('.')
            ? !join(dirname(path), specifier).startsWith(`${own}/`)
            : /^@pipewright\/(?!sdk(\/|$))/.test(specifier),
        )
        .map((specifier) => `${path} imports ${specifier}`);
    });
    expect(crossing).toEqual([]);
  });

  it(`no source file is over ${MAX_LINES} lines, but those not split yet, which may not grow`, () => {
    const lines = new Map(allSources.map(({ path, text }) => [path, text.split('\n').length - 1]));
    const tooLong = [...lines]
      .filter(([path, count]) => count > (LONG_FILES.get(path) ?? MAX_LINES))
      .map(([path, count]) => `${path}: ${count} lines`);
    expect(tooLong).toEqual([]);
    const splitSince = [...LONG_FILES.keys()].filter((path) => (lines.get(path) ?? 0) <= MAX_LINES);
    expect(splitSince).toEqual([]);
  });
});
