import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';
import { build } from 'esbuild';

// Addon packages for the install tests: the example addon built as an addon author would (TypeScript bundled to
// one ES module with the sdk inside, zipped with its manifest and files), and small hand-made packages.

const HERE = dirname(fileURLToPath(import.meta.url));
const EXAMPLE = join(HERE, 'fixtures', 'shot-notes');
/** The copy is built outside the repository, so packages are looked up in the repository's node_modules. */
const NODE_MODULES = join(HERE, '..', '..', '..', 'node_modules');

/** The shot-notes example addon, built and zipped, as the given version. */
export async function buildShotNotes(version = '1.0.0'): Promise<Buffer> {
  const work = await mkdtemp(join(tmpdir(), 'shot-notes-'));
  try {
    await cp(EXAMPLE, work, { recursive: true });
    const manifest = JSON.parse(await readFile(join(work, 'manifest.json'), 'utf8'));
    await writeFile(join(work, 'manifest.json'), JSON.stringify({ ...manifest, version }));
    await build({
      entryPoints: [join(work, 'src', 'index.ts')],
      outfile: join(work, 'dist', 'index.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      nodePaths: [NODE_MODULES],
      logLevel: 'silent',
    });
    const zip = new AdmZip();
    for (const file of ['manifest.json', 'package.json']) zip.addLocalFile(join(work, file));
    for (const folder of ['dist', 'public', 'frontend']) zip.addLocalFolder(join(work, folder), folder);
    return zip.toBuffer();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** A zip of these files (path -> text). */
export function zipOf(files: Record<string, string>): Buffer {
  const zip = new AdmZip();
  for (const [path, text] of Object.entries(files)) zip.addFile(path, Buffer.from(text));
  return zip.toBuffer();
}

/**
 * A zip whose entry names may climb out of the folder: zip libraries clean such names when adding files, so the
 * entry is added under a placeholder of the same length and renamed in the bytes, as a hostile tool would write it.
 */
export function zipWithRawName(files: Record<string, string>, rawName: string): Buffer {
  const placeholder = 'x'.repeat(rawName.length);
  const zip = zipOf({ ...files, [placeholder]: 'escaped' });
  return Buffer.from(zip.toString('latin1').split(placeholder).join(rawName), 'latin1');
}

/** A minimal package: manifest, package.json and an entry module with this source. */
export function addonZip(
  name: string,
  version: string,
  entry: string,
  manifest: Record<string, unknown> = {},
) {
  return zipOf({
    'manifest.json': JSON.stringify({ name, version, ...manifest }),
    'package.json': JSON.stringify({ name, version, type: 'module', exports: './index.js' }),
    'index.js': entry,
  });
}
