import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The events screen, built with the same preset third-party addons use; the server serves dist/.
export default defineConfig(
  addonFrontendConfig({ name: 'events_screens', exposes: { './Events': './src/EventsScreen.tsx' } }),
);
