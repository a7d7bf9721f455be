import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The activity feed (embedded in other addons' screens through ScreenProps.Extension) and the inbox page, built
// with the same preset third-party addons use; the server serves dist/.
export default defineConfig(
  addonFrontendConfig({
    name: 'activities_screens',
    exposes: { './Inbox': './src/Inbox.tsx', './ActivityFeed': './src/ActivityFeed.tsx' },
  }),
);
