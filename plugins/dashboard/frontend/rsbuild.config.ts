import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The project dashboard screen, built with the same preset third-party addons use; the server serves dist/.
export default defineConfig(
  addonFrontendConfig({ name: 'dashboard_screens', exposes: { './Dashboard': './src/Dashboard.tsx' } }),
);
