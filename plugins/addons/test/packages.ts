import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';

// Addon packages for the install tests: the example addon built as its author builds it (`pipewright addon
// build` and `package`), and small hand-made packages.

const HERE = dirname(fileURLToPath(import.meta.url));
const EXAMPLE = join(HERE, 'fixtures', 'shot-notes');
const CLI = join(HERE, '..', '..', '..', 'sdk', 'bin', 'pipewright.js');
/** Builds happen inside the repository (a git-ignored folder), where the addon's imports resolve as after npm install. */
const WORK = join(HERE, '..', 'scratch');

/** The shot-notes example addon, built and packaged by the CLI, as the given version. */
export async function buildShotNotes(version = '1.0.0'): Promise<Buffer> {
  await mkdir(WORK, { recursive: true });
  const work = await mkdtemp(join(WORK, 'shot-notes-'));
  try {
    await cp(EXAMPLE, work, { recursive: true });
    const manifest = JSON.parse(await readFile(join(work, 'manifest.json'), 'utf8'));
    await writeFile(join(work, 'manifest.json'), JSON.stringify({ ...manifest, version }));
    const env = { ...process.env, NODE_OPTIONS: '' };
    for (const command of ['build', 'package'])
      await promisify(execFile)(process.execPath, [CLI, 'addon', command], { cwd: work, env });
    return await readFile(join(work, 'package', `shot-notes-${version}.zip`));
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

/**
 * A large package: a working addon (its code first, as packagers write it) followed by `files` public files of
 * `size` bytes each. The files compress well, so the zip is small while unpacking it takes a while.
 */
export function bulkyZip(name: string, version: string, files: number, size: number): Buffer {
  const zip = new AdmZip();
  zip.addFile('manifest.json', Buffer.from(JSON.stringify({ name, version })));
  zip.addFile(
    'package.json',
    Buffer.from(JSON.stringify({ name, version, type: 'module', exports: './index.js' })),
  );
  zip.addFile(
    'index.js',
    Buffer.from(`export default { name: '${name}', version: '${version}', title: 'Bulky' };`),
  );
  for (let i = 0; i < files; i++) {
    zip.addFile(`public/part-${String(i).padStart(4, '0')}.bin`, Buffer.alloc(size, i % 251));
  }
  return zip.toBuffer();
}
