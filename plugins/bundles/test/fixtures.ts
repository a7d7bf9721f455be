import { sql } from 'kysely';
import { addonRef, Conflict, defineAddon, type AddonDefinition } from '@pipewright/sdk';
import type { ServerConfig } from '@pipewright/core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { usersRef } from '@pipewright/plugin-users/api';
import { authRef } from '@pipewright/plugin-auth/api';
import { bundlesRef } from '../src/api.js';

// Small addons the tests switch on and off through bundles, and one that hooks into promotion.

export const probe = defineAddon({
  name: 'probe',
  version: '1.0.0',
  title: 'Probe',
  deps: { auth: authRef },
  setup(ctx) {
    ctx.app.get('/hello', async () => ({ addon: 'probe' }));
  },
});

export const probeChild = defineAddon({
  name: 'probe_child',
  version: '1.0.0',
  title: 'Probe child',
  deps: { probe: addonRef('probe') },
  setup(ctx) {
    ctx.app.get('/hello', async () => ({ addon: 'probe_child' }));
  },
});

/** Whether the witness refuses the next promotion (a failing settings copy). */
export const witnessControl = { fail: false };

/** Writes a row in the promote transaction, as the settings addon copies staging settings to production. */
export const witness = defineAddon({
  name: 'witness',
  version: '1.0.0',
  title: 'Promote witness',
  deps: { bundles: bundlesRef },
  migrations: {
    studio: [
      {
        name: '0001_promotions',
        up: (db) => sql`CREATE TABLE witness_promotions (bundle text NOT NULL, production text)`.execute(db),
      },
    ],
  },
  setup(ctx, { bundles }) {
    bundles.onPromote(async (bundle) => {
      // What the hook sees through the service, given no transaction: the bundle already is production.
      const production = await bundles.forVariant('production');
      await ctx.db
        .insertInto('witness_promotions')
        .values({ bundle: bundle.name, production: production?.name ?? null })
        .execute();
      if (witnessControl.fail) throw new Conflict('The witness refuses this promotion');
    });
  },
});

/** An addon package that could not be imported: the server lists it as broken. */
export const cracked = {
  definition: { name: 'cracked', version: '1.0.0', title: 'Cracked' } as AddonDefinition,
  directory: '/nonexistent/cracked',
  internal: false,
  loadError: 'SyntaxError: Unexpected token',
};

export const FIXTURE_ADDONS = ['bundles', 'users', 'probe', 'probe_child', 'witness', 'cracked'];

export const PASSWORD = 'correct horse battery';

export interface Logins {
  core: TestCore;
  admin: string;
  manager: string;
  artist: string;
}

/** A core with bundles, users, the fixtures above, and an admin (root), a manager (boss) and an artist (artie). */
export async function bootWithLogins(config: Partial<ServerConfig> = {}): Promise<Logins> {
  const core = await bootTestCore({
    addons: FIXTURE_ADDONS,
    extraAddons: [probe, probeChild, witness, cracked],
    config,
  });
  const seed = async (name: string, data: Record<string, unknown>) => {
    const users = core.services.get(usersRef);
    await users.create({ name, password: PASSWORD, data });
    const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
    return res.body.token as string;
  };
  return {
    core,
    admin: await seed('root', { isAdmin: true }),
    manager: await seed('boss', { isManager: true }),
    artist: await seed('artie', { accessGroups: { demo: ['artist'] } }),
  };
}

/** Dependency packages for every platform and an installer: a bundle that draws no warnings. */
export const COMPLETE = {
  installerVersion: '1.2.3',
  dependencyPackages: { windows: 'deps-win.zip', linux: 'deps-linux.zip', darwin: 'deps-mac.zip' },
};
