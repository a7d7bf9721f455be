import { defineAddon } from '@pipewright/sdk';
import { AyonHost } from './host.js';
import { serverCallbacks } from './callbacks.js';
import { ayonPackageReader } from './package-reader.js';
import { studioMigrations } from './migrations.js';

// AYON's own addons (ayon-core, ayon-applications, one per application) carry Python server code written on AYON's
// ayon_server package. This addon runs it in a Python sidecar with Pipewright's own ayon_server (python/), so their
// settings, actions and endpoints work as on AYON, while the code never holds database credentials.
export default defineAddon({
  name: 'ayon-host',
  version: '1.0.0',
  title: 'AYON addon host',
  description:
    'Runs the server code of AYON addon packages (settings, actions, endpoints) in a Python sidecar',
  dependsOn: ['auth', 'projects', 'entities', 'anatomy', 'secrets', 'bundles', 'settings'],
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    const host = await AyonHost.start(ctx.server.addonPython, ctx.dataDir, serverCallbacks(ctx), ctx.log);
    if ('unavailable' in host) {
      ctx.log.warn(
        `AYON addon packages run without their server code (${host.unavailable}); settings saved at install are served`,
      );
    } else {
      ctx.log.info(`AYON addon host started, isolated with ${host.isolation}`);
      ctx.provide('ayonHost', host);
      ctx.onClose(() => host.close());
    }
    ctx.runtime.addPackageReader(ayonPackageReader(host));
  },
});

declare module '@pipewright/sdk' {
  interface ServiceMap {
    /** The sidecar running AYON packages' server code (tests reach its process through it). */
    ayonHost: AyonHost;
  }
}
