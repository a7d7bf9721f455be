import { addonPackage, defineAddon } from '@pipewright/sdk';
import { AyonHost } from './host.js';
import { serverCallbacks } from './callbacks.js';
import { ayonPackageReader } from './package-reader.js';
import { studioMigrations } from './migrations.js';
import { anatomyRef } from '@pipewright/plugin-anatomy/api';
import { authRef } from '@pipewright/plugin-auth/api';
import { ayonHostRef } from './api.js';
import { bundlesRef } from '@pipewright/plugin-bundles/api';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { secretsRef } from '@pipewright/plugin-secrets/api';
import { settingsRef } from '@pipewright/plugin-settings/api';

// AYON's own addons (ayon-core, ayon-applications, one per application) carry Python server code written on AYON's
// ayon_server package. This addon runs it in a Python sidecar with Pipewright's own ayon_server (python/), so their
// settings, actions and endpoints work as on AYON, while the code never holds database credentials.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: {
    anatomy: anatomyRef,
    bundles: bundlesRef,
    entities: entitiesRef,
    projects: projectsRef,
    secrets: secretsRef,
    settings: settingsRef,
    auth: authRef,
  },
  migrations: { studio: studioMigrations },
  async setup(ctx, deps) {
    const host = await AyonHost.start(
      ctx.server.addonPython,
      ctx.dataDir,
      serverCallbacks(ctx, deps),
      ctx.log,
    );
    if ('unavailable' in host) {
      ctx.log.warn(
        `AYON addon packages run without their server code (${host.unavailable}); settings saved at install are served`,
      );
    } else {
      ctx.log.info(`AYON addon host started, isolated with ${host.isolation}`);
      ctx.provide(ayonHostRef, host);
      ctx.onClose(() => host.close());
    }
    ctx.runtime.addPackageReader(ayonPackageReader(host));
  },
});
