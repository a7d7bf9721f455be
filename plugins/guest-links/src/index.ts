import { addonPackage, defineAddon } from '@pipewright/sdk';
import { accessRef } from '@pipewright/plugin-access/api';
import { activitiesRef } from '@pipewright/plugin-activities/api';
import { annotationsRef } from '@pipewright/plugin-annotations/api';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { filesRef } from '@pipewright/plugin-files/api';
import { listsRef } from '@pipewright/plugin-lists/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { GuestConnections } from './connections.js';
import { guestRoutes } from './guest-routes.js';
import { GuestService } from './guest-service.js';
import { REVOKED_TOPIC } from './links.js';
import { studioMigrations } from './migrations.js';
import { linkRoutes } from './routes.js';
import { GuestLinkService } from './service.js';
import { GuestLinkStore } from './store.js';

// Guest links: a list of versions or one version shown to people without an account (clients, vendors), who give
// a name, watch and stream the reviewables with their annotations, and comment, download or approve as the link
// allows. Revoking a link ends what its guests hold open in every server process.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: {
    projects: projectsRef,
    entities: entitiesRef,
    lists: listsRef,
    activities: activitiesRef,
    files: filesRef,
    annotations: annotationsRef,
    access: accessRef,
  },
  migrations: { studio: studioMigrations },
  async setup(ctx, deps) {
    const store = new GuestLinkStore(ctx.db);
    const connections = new GuestConnections();
    const links = new GuestLinkService(ctx.db, store, deps, ctx.events, connections);
    const guests = new GuestService(ctx.db, store, deps);
    // Revoked in any process (this one included): end the connections this process holds for the link.
    const stop = ctx.events.subscribe(REVOKED_TOPIC, (message) => {
      if (typeof message.summary.linkId === 'string')
        connections.closeLink(message.summary.linkId, 'revoked');
    });
    ctx.onClose(() => {
      stop();
      connections.closeAll();
    });
    await ctx.app.register(linkRoutes(links));
    await ctx.app.register(guestRoutes(guests, connections));
  },
});
