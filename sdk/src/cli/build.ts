import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build as esbuild } from 'esbuild';
import { CliError, type AddonFolder } from './addon-folder.js';

// `pipewright addon build`: the server side bundled into one ES module (the sdk and every other dependency
// inside, since an installed addon lives in the server's data folder, far from any node_modules), and the screens
// built with the sdk's rsbuild preset into frontend/dist.

/** Bundle src/index.ts into dist/index.js. */
export async function buildServer(addon: AddonFolder): Promise<void> {
  try {
    await esbuild({
      entryPoints: [addon.serverEntry],
      outfile: addon.serverOutput,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      // CommonJS dependencies bundled into an ES module still call require() for Node's own modules.
      banner: {
        js: "import { createRequire as __pwRequire } from 'node:module'; const require = __pwRequire(import.meta.url);",
      },
      sourcemap: 'linked',
      logLevel: 'silent',
    });
  } catch (error) {
    throw new CliError(`The server side did not build:\n${(error as Error).message}`);
  }
}

/** Build frontend/ with its rsbuild.config.ts into frontend/dist (nothing to do for an addon without screens). */
export async function buildFrontend(addon: AddonFolder): Promise<void> {
  if (!addon.frontend) return;
  const { createRsbuild, loadConfig } = await import('@rsbuild/core');
  const { content } = await loadConfig({ cwd: addon.frontend });
  // A production build whatever NODE_ENV the shell has (rsbuild would follow it), telling only warnings and errors:
  // the author wants to know that it built, not every file's size.
  const rsbuild = await createRsbuild({
    cwd: addon.frontend,
    rsbuildConfig: { ...content, mode: 'production', logLevel: 'warn' },
  });
  try {
    const result = await rsbuild.build();
    await result.close();
  } catch (error) {
    throw new CliError(`The screens did not build: ${(error as Error).message}`);
  }
}

/**
 * The web app loads a screen by the remote name and module the addon declares in frontendModules; a remote built
 * under another name or without that module would only fail in the browser, so say so now.
 */
export async function checkScreens(addon: AddonFolder): Promise<void> {
  const module = await import(`${pathToFileURL(addon.serverOutput).href}?t=${Date.now()}`);
  const declared: Record<string, string[]> = module.default?.frontendModules ?? {};
  const manifestPath = addon.frontend ? join(addon.frontend, 'dist', 'mf-manifest.json') : null;
  if (Object.keys(declared).length === 0) return;
  if (!manifestPath || !existsSync(manifestPath))
    throw new CliError(
      'src/index.ts declares frontendModules, but the addon has no frontend/rsbuild.config.ts to build them',
    );
  const built = JSON.parse(await readFile(manifestPath, 'utf8')) as {
    name: string;
    exposes: { path: string }[];
  };
  for (const [remote, modules] of Object.entries(declared)) {
    if (remote !== built.name)
      throw new CliError(
        `frontendModules names the remote "${remote}", but frontend/ builds "${built.name}"`,
      );
    const exposed = built.exposes.map((entry) => entry.path);
    for (const path of modules) {
      if (!exposed.includes(path))
        throw new CliError(
          `frontendModules lists ${path}, which the remote does not expose (it has ${exposed.join(', ') || 'none'})`,
        );
    }
  }
}

/** Everything `addon build` does. */
export async function buildAddon(addon: AddonFolder): Promise<void> {
  await buildServer(addon);
  await buildFrontend(addon);
  await checkScreens(addon);
}
