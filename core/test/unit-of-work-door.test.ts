import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

// Events leave through one door: the service that writes a change emits its events inside the change's own unit of
// work, so they reach the outbox in the same transaction and are never lost after a commit. A route file that
// emits after the service returned, or a service that hands out a general emit for its routes, opens a second door.

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const plugins = join(root, 'plugins');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const pluginSources = readdirSync(plugins, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => {
    try {
      return sources(join(plugins, entry.name, 'src'));
    } catch {
      return [];
    }
  })
  .map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }));

const isRouteFile = (path: string) => /(^|[/-])routes?\.tsx?$/.test(path) || path.includes('/routes/');

/** Route files that still emit, each to move into its service (the list only shrinks). */
const ROUTES_STILL_EMITTING = new Map([
  // The event API itself: the request is the event, and the bus is the service that stores it.
  ['plugins/events/src/routes.ts', 'POST /api/events dispatches the event it is sent'],
  ['plugins/projects/src/routes.ts', 'to move with the projects service writes'],
  ['plugins/users/src/avatar-routes.ts', 'to move with the user directory writes'],
  ['plugins/users/src/routes.ts', 'to move with the user directory writes'],
]);

/** Services that still hand their routes a general emit (the list only shrinks). */
const SERVICES_WITH_PUBLIC_EMIT = new Set([
  'plugins/projects/src/service.ts',
  'plugins/users/src/service.ts',
]);

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
