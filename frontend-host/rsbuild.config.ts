import { defineConfig, mergeRsbuildConfig } from '@rsbuild/core';
import { hostFrontendConfig } from '@pipewright/sdk/rsbuild';

// The host declares no remotes at build time: it learns them from GET /api/frontendModules when it runs.
export default defineConfig(
  mergeRsbuildConfig(hostFrontendConfig(), {
    source: { entry: { index: './src/main.tsx' } },
    html: { title: 'Pipewright', favicon: './public/favicon.svg' },
    output: { distPath: { root: 'dist' }, cleanDistPath: true },
    server: {
      // `npm run dev` talks to a server started with `npm start` on its default port.
      proxy: { '/api': 'http://127.0.0.1:5000', '/addons': 'http://127.0.0.1:5000' },
    },
    performance: { chunkSplit: { strategy: 'split-by-experience' } },
  }),
);
