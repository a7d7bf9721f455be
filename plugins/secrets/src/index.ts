import { addonPackage, defineAddon } from '@pipewright/sdk';
import { KEY_VARIABLE, SecretCipher, loadKey } from './cipher.js';
import { studioMigrations } from './migrations.js';
import { secretRoutes } from './routes.js';
import { SecretService } from './service.js';
import { authRef } from '@pipewright/plugin-auth/api';
import { secretsRef } from './api.js';

// Credentials the studio's services and integrations need (tracker API keys, cloud tokens). Values are encrypted
// with a key kept outside the database, so a leaked dump or backup does not leak them.
//
// The key: PIPEWRIGHT_SECRETS_KEY (64 hex characters) when set, otherwise DATA_DIR/secrets.key, created on first
// start. Servers sharing one database must share the key: set the variable on each, or copy the file.
// Addons have no configuration object of their own yet, so the variable is read here, once, at setup.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    const { key, source, path } = await loadKey(ctx.dataDir, process.env[KEY_VARIABLE]);
    ctx.log.info(
      { source, path },
      source === 'new file' ? 'Created a new secrets key' : 'Loaded the secrets key',
    );
    const secrets = new SecretService(ctx.db, new SecretCipher(key), ctx.events, ctx.log);
    ctx.provide(secretsRef, secrets);
    await ctx.app.register(secretRoutes(secrets));
  },
});
