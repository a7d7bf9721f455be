import { addonPackage, defineAddon, type PipewrightError } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { connectRoutes } from './routes.js';
import { ConnectService, type KeyStore } from './service.js';
import { ynputCloudRef } from './api.js';
import { secretsRef } from '@pipewright/plugin-secrets/api';
import { usersRef } from '@pipewright/plugin-users/api';
import type { SecretStore } from '@pipewright/plugin-secrets/api';

// The connection to Ynput Cloud: an admin stores the cloud key, the server answers what the cloud says about it,
// and other addons (the market's licenses) call the cloud through the ynputCloud service. The machine may have no
// internet: every call that needs the cloud says which URL it could not reach and why, and storing a key works
// offline. The cloud is at YNPUT_CLOUD_URL (default https://im.ayon.cloud), waited for YNPUT_CLOUD_TIMEOUT seconds
// (default 5); both are read at each call.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { secrets: secretsRef, users: usersRef },
  migrations: { studio: studioMigrations },
  async setup(ctx, deps) {
    const connect = new ConnectService(ctx.db, keyStore(deps.secrets), deps.users, ctx.log);
    ctx.provide(ynputCloudRef, connect);
    await ctx.app.register(connectRoutes(connect));
  },
});

/** The secrets service as the key's store: forgetting a key that is not there is no error for DELETE. */
function keyStore(secrets: SecretStore): KeyStore {
  return {
    get: (name) => secrets.get(name),
    set: (name, value, actor) => secrets.set(name, value, actor),
    async remove(name, actor) {
      try {
        await secrets.remove(name, actor);
      } catch (error) {
        if ((error as PipewrightError).status !== 404) throw error;
      }
    },
  };
}
