import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FastifyReply } from 'fastify';
import { NotFound, type AddonInfo } from '@pipewright/sdk';

/** The three folders an addon may ship files in, as they appear in the URL. */
export type StaticFolder = 'frontend' | 'public' | 'private';

/** Where each folder lives inside the addon's package. */
const FOLDER_PATHS: Record<StaticFolder, string[]> = {
  frontend: ['frontend', 'dist'],
  public: ['public'],
  private: ['private'],
};

// These name the chunks of the current build; a stale copy after an upgrade would load chunks that are gone.
const ALWAYS_REVALIDATE = new Set(['index.html', 'remoteEntry.js', 'mf-manifest.json']);

// Every URL carries the addon version, so the rest only changes when the version does; an hour keeps a
// development build that is rebuilt in place from looking stuck for long.
const MAX_AGE_SECONDS = 3600;

/** A file ready to be sent: the folder it must stay inside, its path below it, and how it may be cached. */
export interface StaticFile {
  root: string;
  path: string;
  cacheControl: string;
}

/**
 * The requested path as a plain downward path, or null. Find-my-way has already decoded %2e%2e and %2f by
 * the time the path gets here, so checking the decoded segments covers the encoded attacks too. Hidden files
 * (.env, .git) are refused along with "." and "..".
 */
export function downwardPath(requested: string): string | null {
  const segments = requested.split('/');
  const plain = segments.every(
    (s) => s !== '' && !s.startsWith('.') && !s.includes('\\') && !s.includes('\0'),
  );
  return plain ? segments.join('/') : null;
}

function cacheControl(folder: StaticFolder, path: string): string {
  // Private files were fetched with credentials: shared caches must not keep them.
  const audience = folder === 'private' ? 'private' : 'public';
  return ALWAYS_REVALIDATE.has(basename(path))
    ? `${audience}, no-cache`
    : `${audience}, max-age=${MAX_AGE_SECONDS}`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Resolve a requested file of an addon's folder, or throw NotFound. The frontend's root answers index.html. */
export async function locateStaticFile(
  addon: AddonInfo,
  folder: StaticFolder,
  requested: string,
): Promise<StaticFile> {
  const path = folder === 'frontend' && requested === '' ? 'index.html' : downwardPath(requested);
  const root = join(addon.directory, ...FOLDER_PATHS[folder]);
  if (path === null || !(await isFile(join(root, path)))) {
    throw new NotFound(`No ${folder} file "${requested}" in addon ${addon.name} ${addon.version}`);
  }
  return { root, path, cacheControl: cacheControl(folder, path) };
}

/** @fastify/static, which the core registers with serve:false, adds sendFile to every reply; the sdk does not declare it. */
interface FileSending {
  sendFile(path: string, root: string, options: { cacheControl: boolean }): FastifyReply;
}

/** Stream the file with its content type, ETag and Last-Modified (so conditional requests answer 304). */
export function sendStaticFile(reply: FastifyReply, file: StaticFile): FastifyReply {
  reply.header('cache-control', file.cacheControl);
  // Addon files come from the server's own origin; never let a browser guess a more dangerous type.
  reply.header('x-content-type-options', 'nosniff');
  return (reply as FastifyReply & FileSending).sendFile(file.path, file.root, { cacheControl: false });
}
