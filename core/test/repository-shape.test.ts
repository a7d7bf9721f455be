import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

// The shape every addon keeps, checked over the repository's sources:
// - Events leave through one door: the service that writes a change emits its events inside the change's own unit
//   of work, so they reach the outbox in the same transaction and are never lost after a commit. A route file that
//   emits after the service returned, or a service that hands out a general emit for its routes, opens a second door.
// - Route files read parameters, call a service and answer: no SQL, no transaction of their own.
// - Addons use each other through typed service references, which each addon exports from its api entry: no
//   other file of another addon is imported, and the importing package declares the dependency.
// - An addon's tables are its own: others read them through its service, never with SQL of their own.
// - No source file grows past 400 lines: a file that long holds more than one idea.

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

describe('events leave through the unit of work', () => {
  it('no route file emits', () => {
    const emitting = pluginSources
      .filter(({ path, text }) => isRouteFile(path) && /\.emit(Many)?\(/.test(text))
      .map(({ path }) => path)
      .sort();
    expect(emitting).toEqual([]);
  });

  it('no service offers a public emit', () => {
    const offering = pluginSources
      .filter(({ path, text }) => !isRouteFile(path) && /^ {2}(public |async )?emit(Many)?\(/m.test(text))
      .map(({ path }) => path)
      .sort();
    expect(offering).toEqual([]);
  });
});

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
    expect(querying).toEqual([]);
  });

  it("the event log is read through the bus and the events addon's read models: no other addon queries it", () => {
    const reading = pluginSources
      .filter(
        ({ path, text }) =>
          !path.startsWith('plugins/events/') &&
          /public\.events\b|\b(selectFrom|updateTable|deleteFrom)\('(public\.)?events'|FROM events\b/.test(
            text,
          ),
      )
      .map(({ path }) => path)
      .sort();
    expect(reading).toEqual([]);
  });

  it("no addon queries another addon's tables: it asks the owner's service (read models)", () => {
    const owner = new Map<string, string>();
    for (const { path, text } of pluginSources.filter(({ path }) => path.endsWith('/src/migrations.ts')))
      for (const [, created, built] of text.matchAll(
        /CREATE TABLE (?:IF NOT EXISTS )?(?:\w+\.)?(\w+)|createTable\('(?:\w+\.)?(\w+)'\)/g,
      ))
        owner.set((created ?? built)!, path.split('/')[1]!);
    const reading = pluginSources.flatMap(({ path, text }) =>
      [...owner]
        .filter(([table, plugin]) => {
          if (path.split('/')[1] === plugin) return false;
          const named = `(\\w+\\.)?${table}`;
          const query = new RegExp(
            `(selectFrom|insertInto|updateTable|deleteFrom)\\('${named}'|\\b(FROM|JOIN|INTO|UPDATE)\\s+${named}\\b`,
          );
          return query.test(text);
        })
        .map(([table, plugin]) => `${path} queries ${plugin}'s ${table}`),
    );
    expect(reading).toEqual([]);
  });

  it("no addon imports another addon's files, only the api entry of an addon its package depends on", () => {
    const dependencies = (plugin: string) =>
      Object.keys(JSON.parse(readFileSync(join(plugins, plugin, 'package.json'), 'utf8')).dependencies ?? {});
    const crossing = [...pluginSources, ...screenSources].flatMap(({ path, text }) => {
      const own = path.split('/').slice(0, 2).join('/');
      const declared = dependencies(path.split('/')[1]!);
      return [...text.matchAll(/(?:from|import\()\s*'([^']+)'/g)]
        .map((match) => match[1]!)
        .filter((specifier) => {
          if (specifier.startsWith('.')) return !join(dirname(path), specifier).startsWith(`${own}/`);
          const api = /^(@pipewright\/plugin-[\w-]+)\/api$/.exec(specifier);
          if (api) return !declared.includes(api[1]!);
          return /^@pipewright\/(?!sdk(\/|$))/.test(specifier);
        })
        .map((specifier) => `${path} imports ${specifier}`);
    });
    expect(crossing).toEqual([]);
  });

  it('an api entry holds interfaces and references: it imports nothing of its addon but types', () => {
    const apis = pluginSources.filter(({ path }) => path.endsWith('/src/api.ts'));
    const providers = new Set(
      pluginSources.filter(({ text }) => /ctx\.provide\(/.test(text)).map(({ path }) => path.split('/')[1]),
    );
    expect(apis.map(({ path }) => path.split('/')[1]).sort()).toEqual([...providers].sort());
    const running = apis.flatMap(({ path, text }) =>
      [...text.matchAll(/^import (?!type )[^;]*from '([^']+)'/gm)]
        .map((match) => match[1]!)
        .filter((specifier) => specifier !== '@pipewright/sdk')
        .map((specifier) => `${path} imports ${specifier}`),
    );
    expect(running).toEqual([]);
  });

  it(`no source file is over ${MAX_LINES} lines`, () => {
    const tooLong = allSources
      .map(({ path, text }) => ({ path, count: text.split('\n').length - 1 }))
      .filter(({ count }) => count > MAX_LINES)
      .map(({ path, count }) => `${path}: ${count} lines`);
    expect(tooLong).toEqual([]);
  });
});

/** The files a source imports by relative path (type-only imports included: they tie the modules as tightly). */
function localImports(path: string, text: string, known: Set<string>): string[] {
  return [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].flatMap((match) => {
    const base = join(dirname(path), match[1]).replace(/\.js$/, '');
    const found = ['.ts', '.tsx', '/index.ts', '/index.tsx', '']
      .map((end) => base + end)
      .find((p) => known.has(p));
    return found ? [found] : [];
  });
}

/** Groups of modules that import each other in a ring (Tarjan's strongly connected components of two or more). */
function importCycles(files: { path: string; text: string }[]): string[][] {
  const known = new Set(files.map((file) => file.path));
  const edges = new Map(files.map(({ path, text }) => [path, localImports(path, text, known)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const { path } of files) if (!index.has(path)) visit(path);
  return cycles;
}

describe('every addon has the same skeleton', () => {
  const registersRoutes = /\b(app|scope|instance|fastify)\.(get|post|put|patch|delete|head|route)\(/;
  const runsSql = /from 'kysely'|\bsql`|\.(selectFrom|insertInto|updateTable|deleteFrom|transaction)\(/;
  const files = (plugin: string) =>
    pluginSources.filter(({ path }) => path.startsWith(`plugins/${plugin}/src/`));

  it('index.ts wires the parts: no route, no SQL of its own', () => {
    const missing = pluginNames.filter((plugin) => !existsSync(join(plugins, plugin, 'src', 'index.ts')));
    expect(missing).toEqual([]);
    const doing = pluginNames.flatMap((plugin) =>
      files(plugin)
        .filter(({ path }) => path === `plugins/${plugin}/src/index.ts`)
        .filter(({ text }) => registersRoutes.test(text) || runsSql.test(text))
        .map(({ path }) => path),
    );
    expect(doing).toEqual([]);
  });

  it('routes are registered in route files only, and an addon with routes has routes.ts', () => {
    const outside = pluginSources
      .filter(({ path, text }) => !isRouteFile(path) && registersRoutes.test(text))
      .map(({ path }) => path);
    expect(outside).toEqual([]);
    const withoutRoutesFile = pluginNames.filter(
      (plugin) =>
        files(plugin).some(({ path }) => isRouteFile(path)) &&
        !existsSync(join(plugins, plugin, 'src', 'routes.ts')) &&
        !existsSync(join(plugins, plugin, 'src', 'routes')),
    );
    expect(withoutRoutesFile).toEqual([]);
  });

  it('migrations are written in migrations.ts', () => {
    const outside = pluginSources
      .filter(({ path, text }) => !/\/migrations(\.ts|\/)/.test(path) && /^\s+up: (async )?\(/m.test(text))
      .map(({ path }) => path);
    expect(outside).toEqual([]);
  });
});

describe('modules import in one direction', () => {
  it('no modules import each other in a ring: each reads top to bottom', () => {
    expect(importCycles(allSources)).toEqual([]);
  });
});
