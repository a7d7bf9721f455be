/**
 * AYON entity URIs, read and written in one place so that what /uris hands out, /resolve reads back.
 *
 *   ayon+entity://{project}/{folder/path}?product={name}&version={v003|3|latest|latestdone|hero}&representation={name}
 *   ayon+entity://{project}/{folder/path}?task={name}&workfile={file name}
 *
 * "ayon://" is a shorter alias of the scheme, and USD's ":SDF_FORMAT_ARGS..." suffix is ignored.
 */

/** Folder, product, task, representation and project names (and version words) as AYON accepts them. */
const NAME = /^[a-zA-Z0-9_]([a-zA-Z0-9_.-]*[a-zA-Z0-9_])?$/;
const SCHEME = /^(ayon|ayon\+entity):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?$/i;
const SDF_SUFFIX = /:SDF_FORMAT_ARGS.*$/;

/** Which versions a URI asks for. */
export type VersionSelector =
  | { kind: 'number'; number: number }
  | { kind: 'latest' }
  | { kind: 'latestdone' }
  | { kind: 'hero' }
  | { kind: 'any' };

/** The entity type a URI points at: the deepest level it names. */
export type UriTarget = 'folder' | 'product' | 'version' | 'representation' | 'task' | 'workfile';

export interface ParsedUri {
  project: string;
  /** Folder path without slashes at either end ("assets/chars/hero"); "*" for any folder; null when absent. */
  path: string | null;
  product: string | null;
  version: VersionSelector | null;
  representation: string | null;
  task: string | null;
  workfile: string | null;
  /** null when the URI names nothing below the project (it resolves to no entity). */
  target: UriTarget | null;
}

/** A URI that cannot be read; the message is what /resolve reports for it. */
export class UriError extends Error {}

/** vNNN, NNN, latest, latestdone, hero or *, in any letter case. */
export function parseVersion(text: string): VersionSelector {
  const word = text.trim().toLowerCase();
  if (word === '*') return { kind: 'any' };
  if (word === 'latest') return { kind: 'latest' };
  if (word === 'latestdone') return { kind: 'latestdone' };
  if (word === 'hero') return { kind: 'hero' };
  const digits = word.startsWith('v') ? word.slice(1) : word;
  if (/^\d{1,9}$/.test(digits)) return { kind: 'number', number: Number(digits) };
  throw new UriError(`Invalid version: ${text}`);
}

/** Read a URI; throws UriError with a message fit for the caller. */
export function parseUri(uri: string): ParsedUri {
  const match = SCHEME.exec(uri.trim().replace(SDF_SUFFIX, ''));
  if (!match) throw new UriError(`Invalid URI: ${uri} (expected ayon+entity://project/folder/path?...)`);
  const [, , project, rawPath, query = ''] = match;
  if (!NAME.test(project)) throw new UriError(`Invalid project name: ${project}`);

  let path: string | null = null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw new UriError(`Invalid path encoding: ${rawPath}`);
  }
  const trimmed = decoded.replace(/^\/+|\/+$/g, '');
  if (trimmed === '*') path = '*';
  else if (trimmed) {
    // A wildcard only stands for the whole path, never for one element of it.
    for (const element of trimmed.split('/')) {
      if (!NAME.test(element)) throw new UriError(`Invalid path element: ${element || '(empty)'}`);
    }
    path = trimmed;
  }

  // Like AYON: the first value of each argument counts, and an empty one counts as absent.
  const params = new URLSearchParams(query);
  const arg = (name: string, pattern: RegExp = NAME) => {
    const value = params.get(name);
    if (value === null || value === '') return null;
    if (value !== '*' && !pattern.test(value)) throw new UriError(`Invalid ${name} name: ${value}`);
    return value;
  };
  const product = arg('product');
  const versionText = arg('version');
  const representation = arg('representation');
  const task = arg('task');
  // Workfile names are file names: let anything through but separators.
  const workfile = arg('workfile', /^[^/\\]+$/);

  if (task !== null || workfile !== null) {
    const mixed = [
      product !== null && 'products',
      versionText !== null && 'versions',
      representation !== null && 'representations',
    ].filter(Boolean);
    if (mixed.length) throw new UriError(`Tasks and workfiles cannot be queried with ${mixed.join(' or ')}`);
  }
  const version = versionText === null ? null : parseVersion(versionText);

  let target: UriTarget | null = null;
  if (workfile !== null) target = 'workfile';
  else if (task !== null) target = 'task';
  else if (representation !== null) target = 'representation';
  else if (version !== null) target = 'version';
  else if (product !== null) target = 'product';
  else if (path !== null) target = 'folder';
  return { project, path, product, version, representation, task, workfile, target };
}

/** How a version number reads in a URI: v003, or hero for a negative (hero) version. */
export function versionName(version: number): string {
  return version < 0 ? 'hero' : `v${String(version).padStart(3, '0')}`;
}

export interface UriParts {
  project: string;
  /** Folder path, with or without slashes at the ends. */
  path: string;
  product?: string | null;
  /** A stored version number (negative for hero) or an already formatted name. */
  version?: number | string | null;
  representation?: string | null;
  task?: string | null;
  workfile?: string | null;
}

/** Write the URI of an entity; the parser reads it back to the same parts. */
export function formatUri(parts: UriParts): string {
  const path = parts.path.replace(/^\/+|\/+$/g, '');
  const args: [string, string][] = [];
  if (parts.task != null) {
    args.push(['task', parts.task]);
    if (parts.workfile != null) args.push(['workfile', parts.workfile]);
  } else {
    if (parts.product != null) args.push(['product', parts.product]);
    if (parts.version != null)
      args.push(['version', typeof parts.version === 'number' ? versionName(parts.version) : parts.version]);
    if (parts.representation != null) args.push(['representation', parts.representation]);
  }
  const query = args.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `ayon+entity://${parts.project}/${path}${query ? `?${query}` : ''}`;
}
