import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from './addon-folder.js';

// `pipewright addon init <name>`: a new addon folder from sdk/templates/addon, with a route, a settings schema, a
// migration, a screen built with the sdk's rsbuild preset, and a test that boots the core with just this addon.

const TEMPLATE = fileURLToPath(new URL('../../templates/addon/', import.meta.url));
const SDK_PACKAGE = fileURLToPath(new URL('../../package.json', import.meta.url));
/** npm leaves .gitignore files out of published packages, so the template keeps it under another name. */
const RENAMED: Record<string, string> = { gitignore: '.gitignore' };
const NAME = /^[a-z][a-z0-9_-]{0,63}$/;

/** The words the template's placeholders stand for, derived from the addon's name. */
export function templateWords(name: string, sdkVersion: string): Record<string, string> {
  const words = name.split(/[-_]+/).filter(Boolean);
  return {
    __NAME__: name,
    __TITLE__: words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' '),
    __REMOTE__: words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join(''),
    __SNAKE__: words.join('_'),
    __SDK_VERSION__: sdkVersion,
  };
}

async function* templateFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* templateFiles(path);
    else yield path;
  }
}

/** Scaffold the addon `name` into `dir` (./{name} by default); answers the files written, relative to it. */
export async function initAddon(name: string, dir?: string): Promise<{ root: string; files: string[] }> {
  if (!NAME.test(name))
    throw new CliError(
      `"${name}" cannot name an addon: use lowercase letters, digits, - and _, starting with a letter`,
    );
  const root = resolve(dir ?? name);
  if (existsSync(root) && (await readdir(root)).length > 0)
    throw new CliError(`${root} already exists and is not empty: choose another folder with --dir`);
  const { version } = JSON.parse(await readFile(SDK_PACKAGE, 'utf8')) as { version: string };
  const words = templateWords(name, version);
  const files: string[] = [];
  for await (const source of templateFiles(TEMPLATE)) {
    const path = relative(TEMPLATE, source);
    const target = join(root, RENAMED[path] ?? path);
    let text = await readFile(source, 'utf8');
    for (const [placeholder, word] of Object.entries(words)) text = text.replaceAll(placeholder, word);
    await mkdir(join(target, '..'), { recursive: true });
    await writeFile(target, text);
    files.push(relative(root, target));
  }
  return { root, files: files.sort() };
}
