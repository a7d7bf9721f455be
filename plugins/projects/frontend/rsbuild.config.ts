import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// The projects screen, built as every addon's screens are: a Module Federation remote the web app loads at run time.
export default defineConfig(
  addonFrontendConfig({ name: 'projects_remote', exposes: { './Projects': './src/Projects.tsx' } }),
);
