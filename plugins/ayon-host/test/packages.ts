import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';

// The real AYON addons the tests install: built with their own create_package.py from the release trees kept in
// ../shared/compat/ayon-addons (CI reaches no repository), by scripts/build-ayon-addons.sh.

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** name -> version of the six packages. */
export const PACKAGES = {
  core: '1.9.7',
  applications: '1.4.4',
  maya: '0.6.5',
  houdini: '0.10.6',
  deadline: '0.7.3',
  blender: '1.1.8',
} as const;

let built: string | null = null;

/** The folder scripts/build-ayon-addons.sh built into (zips/, unpacked/). */
export function builtPackages(): string {
  built ??= execFileSync(join(REPO, 'scripts/build-ayon-addons.sh'), { encoding: 'utf8' }).trim();
  return built;
}

export function packageZip(name: keyof typeof PACKAGES): Buffer {
  return readFileSync(join(builtPackages(), 'zips', `${name}-${PACKAGES[name]}.zip`));
}

/** The unpacked package, as the server keeps it once installed (what the reference extraction reads). */
export function unpackedPackage(name: keyof typeof PACKAGES): string {
  return join(builtPackages(), 'unpacked', name, PACKAGES[name]);
}

/**
 * A package relabelled with another version: stands in for an older release of the addon (same code, another
 * version in package.py), so conversions that depend on the version the overrides were stored for can be tried.
 */
export function relabelledZip(name: keyof typeof PACKAGES, version: string): Buffer {
  const zip = new AdmZip(packageZip(name));
  const entry = zip.getEntry('package.py')!;
  const text = entry
    .getData()
    .toString('utf8')
    .replace(/^version = ".*"$/m, `version = "${version}"`);
  zip.updateFile(entry, Buffer.from(text, 'utf8'));
  return zip.toBuffer();
}

/**
 * What the package's own code makes of it in a Python of its own, as a server with this primary anatomy and nothing
 * stored would answer: the reference the server's answers are compared with.
 */
export function extractedByPython(
  name: keyof typeof PACKAGES,
  anatomyFile: string,
): {
  schema: Record<string, unknown>;
  defaults: Record<string, unknown>;
  siteSchema: Record<string, unknown> | null;
  siteDefaults: Record<string, unknown> | null;
} {
  const python = join(REPO, 'plugins/ayon-host/python');
  const output = execFileSync(
    process.env.ADDON_PYTHON || '/usr/bin/python3',
    ['-m', 'pipewright_ayon_host', 'extract', unpackedPackage(name), anatomyFile],
    {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, PYTHONPATH: `${python}:${python}/shims`, PYTHONDONTWRITEBYTECODE: '1' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(output);
}

/**
 * A hand-made AYON package (a fixture, not a real addon): package.py with services, as ayon-ftrack's declares them
 * (an f-string, so package.py must be run to read it), and server code that raises at import when broken is set.
 */
export function fixturePackage(name: string, version: string, broken: boolean): Buffer {
  const zip = new AdmZip();
  const packagePy = [
    `name = "${name}"`,
    `title = "Studio tools"`,
    `version = "${version}"`,
    `services = {"sync": {"image": f"studio/{name}-sync:{version}"}}`,
    '',
  ].join('\n');
  const server = broken
    ? 'raise RuntimeError("the studio database is not configured")\n'
    : [
        'from ayon_server.addons import BaseServerAddon',
        '',
        '',
        'class StudioTools(BaseServerAddon):',
        '    pass',
        '',
      ].join('\n');
  zip.addFile('package.py', Buffer.from(packagePy));
  zip.addFile('server/__init__.py', Buffer.from(server));
  return zip.toBuffer();
}
