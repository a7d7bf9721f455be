import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// Addons, bundles and addon settings for administrators, built with the addon preset.
export default defineConfig(
  addonFrontendConfig({ name: 'addons_screens', exposes: { './Addons': './src/AddonsScreen.tsx' } }),
);
