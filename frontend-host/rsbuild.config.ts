import { defineConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';

// The host declares no remotes at build time: it learns them from GET /api/frontendModules when it runs.
// React is shared as a singleton so an addon's hooks run against the host's React.
export default defineConfig({
  plugins: [
    pluginReact(),
    pluginModuleFederation({
      name: 'pipewright_host',
      remotes: {},
      shared: {
        react: { singleton: true, requiredVersion: '^19.0.0' },
        'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
      },
      dts: false,
    }),
  ],
  source: { entry: { index: './src/main.tsx' } },
  html: { title: 'Pipewright' },
  output: { distPath: { root: 'dist' }, cleanDistPath: true },
  server: {
    // `npm run dev` talks to a server started with `npm start` on its default port.
    proxy: { '/api': 'http://127.0.0.1:5000', '/addons': 'http://127.0.0.1:5000' },
  },
  performance: { chunkSplit: { strategy: 'split-by-experience' } },
});
