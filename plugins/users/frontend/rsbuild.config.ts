import { defineConfig } from '@rsbuild/core';
import { addonFrontendConfig } from '@pipewright/sdk/rsbuild';

// People and access: users, access groups, teams and service users' API keys, built with the addon preset.
export default defineConfig(
  addonFrontendConfig({ name: 'users_screens', exposes: { './Users': './src/UsersScreen.tsx' } }),
);
