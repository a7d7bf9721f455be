import { fileURLToPath } from 'node:url';
import type { RsbuildConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';

// The one build setup for screens that run inside the web app, used by the host, the internal addons and
// third-party addons alike (`pipewright addon build` runs it). Host and remotes must agree on what they share:
// React is one singleton, so an addon's hooks run against the host's React.

/** Modules the host and every remote share; React must be a single copy on the page. */
export const SHARED_MODULES = {
  react: { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
};

// A remote needs an entry of its own although the host only ever loads what it exposes.
const EMPTY_ENTRY = fileURLToPath(new URL('./remote-entry.js', import.meta.url));

export interface AddonFrontendOptions {
  /** The remote's name, as the addon lists it in frontendModules: a JavaScript identifier. */
  name: string;
  /** Exposed module to its source file, relative to the frontend folder: {'./Panel': './src/Panel.tsx'}. */
  exposes: Record<string, string>;
}

/** The rsbuild configuration of an addon's screens: a Module Federation remote built into dist/. */
export function addonFrontendConfig({ name, exposes }: AddonFrontendOptions): RsbuildConfig {
  if (!/^[A-Za-z_$][\w$]*$/.test(name))
    throw new Error(`The remote name "${name}" must be a JavaScript identifier (letters, digits, _ and $)`);
  return {
    plugins: [pluginReact(), pluginModuleFederation({ name, exposes, shared: SHARED_MODULES, dts: false })],
    source: { entry: { index: EMPTY_ENTRY } },
    tools: {
      htmlPlugin: false,
      // The sdk's sources import each other as ./x.js (ES module style); rsbuild maps .js to .ts only when the
      // remote has a tsconfig, so say it here for every remote.
      rspack: { resolve: { extensionAlias: { '.js': ['.js', '.ts', '.tsx'] } } },
    },
    // Chunks are addressed relative to the manifest: the server decides the URL (/addons/{name}/{version}/frontend/).
    output: { distPath: { root: 'dist' }, assetPrefix: 'auto', cleanDistPath: true },
    // `rsbuild dev` of a remote is loaded by a host on another port; saying so also quiets the federation plugin.
    server: { cors: { origin: '*' } },
  };
}

/** The rsbuild configuration of the web app's shell: a host that learns its remotes at run time. */
export function hostFrontendConfig(): RsbuildConfig {
  return {
    plugins: [
      pluginReact(),
      pluginModuleFederation({ name: 'pipewright_host', remotes: {}, shared: SHARED_MODULES, dts: false }),
    ],
  };
}
