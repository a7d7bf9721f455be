import { addonPackage, defineAddon, renameUserIn } from '@pipewright/sdk';
import { usersRef } from '@pipewright/plugin-users/api';
import { noticesRef } from './api.js';
import { studioMigrations } from './migrations.js';
import { noticeRoutes } from './routes.js';
import { NoticeService } from './service.js';
import { NoticeStore } from './store.js';

// Notices: what the server tells a person that is not about an entity (a webhook of theirs paused), shown in their
// inbox beside the activities that address them.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { users: usersRef },
  migrations: { studio: studioMigrations },
  async setup(ctx, deps) {
    const notices = new NoticeService(ctx.db, new NoticeStore(ctx.db), ctx.events);
    ctx.provide(noticesRef, notices);
    // A renamed user keeps their notices.
    deps.users.onRename(renameUserIn(ctx.db, [['notices', 'user_name']]));
    await ctx.app.register(noticeRoutes(notices));
  },
});
