import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The entity lists screen, built with the same preset third-party addons use; the server serves dist/.
export default defineConfig(
  addonFrontendConfig({
    name: 'lists_screens',
    exposes: {
      './Lists': './src/Lists.tsx',
      './ListStrip': './src/ListStrip.tsx',
      './ShareVersion': './src/ShareVersion.tsx',
    },
  }),
);
