import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The addon's screens: a Module Federation remote the web app loads at run time. The remote's name and exposed
// modules must match frontendModules in src/index.ts.
export default defineConfig(
  addonFrontendConfig({ name: '__REMOTE__', exposes: { './Panel': './src/Panel.tsx' } }),
);
