import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The webhooks settings screen, built with the same preset third-party addons use; the server serves dist/.
export default defineConfig(
  addonFrontendConfig({ name: 'webhooks_screens', exposes: { './Webhooks': './src/WebhooksScreen.tsx' } }),
);
