// Prebuild step: boot the Pipewright core on a throwaway embedded database, ask it for its OpenAPI description
// and write it to public/openapi.json, the copy /api falls back to when no live server answers.
// Run with: node --import tsx scripts/export-openapi.ts
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const target = resolve(here, '../public/openapi.json');

// An internal addon that is still being written (its package exists, its entry does not yet) must not stop the
// docs build: when the first boot fails, a resolve hook stands in an empty addon for entries that are missing.
const placeholderHook = `
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    const m = /\\/plugins\\/([^/]+)\\/src\\/index\\.ts$/.exec(specifier);
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && m) {
      const source = 'export default ' + JSON.stringify({ name: m[1] + '-placeholder', version: '0.0.0', title: m[1] + ' (not built yet)' });
      return { url: 'data:text/javascript,' + encodeURIComponent(source), shortCircuit: true };
    }
    throw error;
  }
}`;

async function exportOnce(): Promise<Record<string, unknown>> {
  const { createServer, readConfig } = await import('@pipewright/core');
  const dataDir = await mkdtemp(join(tmpdir(), 'pipewright-docs-openapi-'));
  try {
    const server = await createServer({
      config: { ...readConfig({ LOG_LEVEL: 'silent' }), dataDir, databaseUrl: null, redisUrl: null },
    });
    try {
      return server.app.swagger() as unknown as Record<string, unknown>;
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const started = Date.now();
  let document: Record<string, unknown>;
  try {
    document = await exportOnce();
  } catch (error) {
    console.warn(
      `export-openapi: the full core did not boot (${(error as Error).message}); retrying with placeholders`,
    );
    register('data:text/javascript,' + encodeURIComponent(placeholderHook));
    try {
      document = await exportOnce();
    } catch (second) {
      if (existsSync(target)) {
        console.warn(
          `export-openapi: still failing (${(second as Error).message}); keeping the existing ${target}`,
        );
        return;
      }
      throw second;
    }
  }
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, JSON.stringify(document, null, 2) + '\n');
  const paths = Object.keys((document.paths as object) ?? {}).length;
  console.log(`export-openapi: wrote ${target} (${paths} paths) in ${Date.now() - started} ms`);
}

await main();
