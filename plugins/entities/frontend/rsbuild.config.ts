import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The overview screen (folders and tasks of a project), built as every addon's screens are: a Module Federation remote.
export default defineConfig(
  addonFrontendConfig({ name: 'overview_remote', exposes: { './Overview': './src/Overview.tsx' } }),
);
