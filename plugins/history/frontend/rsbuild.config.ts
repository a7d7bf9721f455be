import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// An entity's history, embedded in other addons' screens (the overview's detail panel) through
// ScreenProps.Extension; built with the preset third-party addons use; the server serves dist/.
export default defineConfig(
  addonFrontendConfig({
    name: 'history_screens',
    exposes: { './EntityHistory': './src/EntityHistory.tsx', './LastChange': './src/LastChange.tsx' },
  }),
);
