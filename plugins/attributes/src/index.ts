import { addonPackage, defineAddon } from '@pipewright/sdk';
import { AttributeService } from './library.js';
import { studioMigrations } from './migrations.js';
import { attributeRoutes } from './routes.js';
import { attributesRef } from './api.js';
import { authRef } from '@pipewright/plugin-auth/api';

// Which attributes each entity type carries, with their types, limits and defaults. The entity addons validate
// attrib through the library this provides and take defaults and inheritance from it.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    const library = new AttributeService(ctx.db, ctx.events);
    // Read before anyone writes: a first read inside a write's transaction would wait for it (see compiled()).
    await library.reload();
    // Other server processes change definitions too; their events reach this one through Redis.
    ctx.onClose(ctx.events.subscribe('attribute.*', () => library.invalidate()));
    ctx.provide(attributesRef, library);
    await ctx.app.register(attributeRoutes(library));
  },
});
