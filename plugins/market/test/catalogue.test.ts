import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyBaseLogger } from 'fastify';
import { CatalogueSource } from '../src/catalogue.js';
import { compareVersions, highest, satisfies } from '../src/versions.js';

const SHIPPED = fileURLToPath(new URL('../catalogue.json', import.meta.url));

/** A logger that remembers what was logged, for the "is logged" half of a malformed catalogue. */
function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push({ level, fields, message });
  const log = { info: at('info'), error: at('error'), warn: at('warn') } as unknown as FastifyBaseLogger;
  return { log, lines };
}

describe('the catalogue source', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'market-catalogue-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('ships a catalogue that passes its own checks', async () => {
    const { log, lines } = recordingLogger();
    const catalogue = await new CatalogueSource(SHIPPED, join(dir, 'absent.json'), log).current();
    expect([...catalogue.addons.keys()]).toEqual(['core', 'maya', 'nuke', 'kitsu', 'flow']);
    expect(catalogue.releases.map((r) => r.name)).toEqual([
      '2025.06-animation',
      '2025.06-vfx',
      '2025.01-vfx',
    ]);
    expect(lines).toEqual([
      {
        level: 'info',
        fields: { path: SHIPPED, addons: 5, releases: 3 },
        message: 'Loaded the market catalogue',
      },
    ]);
  });

  it('logs a malformed catalogue once per version of the file, and answers 503 every time', async () => {
    const path = join(dir, 'catalogue.json');
    await writeFile(path, '{"addons": [{"name": "x"}]}');
    const { log, lines } = recordingLogger();
    const source = new CatalogueSource(SHIPPED, path, log);
    for (let i = 0; i < 3; i++) {
      await expect(source.current()).rejects.toMatchObject({
        status: 503,
        message: `The market catalogue is unusable: ${path} is malformed: addons.0.title: must have required property 'title'; addons.0.versions: must have required property 'versions'`,
      });
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', message: 'The market catalogue cannot be used' });
    expect(lines[0].fields.path).toBe(path);

    await writeFile(path, '{"addons": []}');
    await utimes(path, 2_000_000_000, 2_000_000_000);
    expect((await source.current()).addons.size).toBe(0);
    expect(lines.map((line) => line.level)).toEqual(['error', 'info']);
  });

  it('reports at most five problems, and how many more there are', async () => {
    const path = join(dir, 'many.json');
    await writeFile(path, JSON.stringify({ addons: Array.from({ length: 7 }, () => ({ versions: [] })) }));
    const { log } = recordingLogger();
    const error = await new CatalogueSource(SHIPPED, path, log).current().catch((e: Error) => e);
    expect((error as Error).message).toMatch(/ \(and 9 more\)$/);
  });
});

describe('versions', () => {
  it('orders versions by semantic-version precedence', () => {
    const sorted = [
      '1.10.0',
      '1.2.0',
      '1.2.0-rc.1',
      '1.2.0-rc.10',
      '1.2.0-rc.2',
      '0.9.9',
      '1.2.0-alpha',
      '2.0.0',
    ].sort(compareVersions);
    expect(sorted).toEqual([
      '0.9.9',
      '1.2.0-alpha',
      '1.2.0-rc.1',
      '1.2.0-rc.2',
      '1.2.0-rc.10',
      '1.2.0',
      '1.10.0',
      '2.0.0',
    ]);
    expect(compareVersions('1.2.0+git', '1.2.0')).toBe(0);
    expect(highest(['0.3.4', '0.10.0', '0.4.2'])).toBe('0.10.0');
    expect(highest([])).toBeNull();
  });

  it('checks server-version requirements as AYON writes them', () => {
    expect(satisfies('1.11.3', '>=1.1.0')).toBe(true);
    expect(satisfies('1.11.3', '>=1.12.0')).toBe(false);
    expect(satisfies('1.11.3', '>=1.0.0,<2.0.0')).toBe(true);
    expect(satisfies('1.11.3', '>=1.0.0, <1.11.3')).toBe(false);
    expect(satisfies('1.11.3', '1.11.3')).toBe(true);
    expect(satisfies('1.11.3', '==1.11')).toBe(false);
    expect(satisfies('1.11.3', '!=1.11.3')).toBe(false);
    expect(satisfies('1.11.3', '>1.11.2')).toBe(true);
    expect(satisfies('1.11.3', '<=1.11.3')).toBe(true);
    expect(satisfies('1.11.3', undefined)).toBe(true);
  });
});
