import { addonPackage, defineAddon, renameUserIn } from '@pipewright/sdk';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { usersRef } from '@pipewright/plugin-users/api';
import { historyRef } from './api.js';
import { projectMigrations } from './migrations.js';
import { keepFor, retentionDays } from './retention.js';
import { historyRoutes } from './routes.js';
import { HistoryService } from './service.js';
import { HistoryStore } from './store.js';

// Field history: who changed what, when and from where, one row per changed field, written by the transaction
// that makes the change (the entities write path tells it, inside the transaction), kept apart from the event log.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { entities: entitiesRef, projects: projectsRef, users: usersRef },
  migrations: { project: projectMigrations },
  frontendModules: { history_screens: ['./EntityHistory', './LastChange'] },
  async setup(ctx, deps) {
    const store = new HistoryStore(ctx.db, ctx.projects.schemaName);
    const history = new HistoryService(store, deps.projects, deps.entities);
    deps.entities.onWrite((projectName, caller, changes) => history.record(projectName, caller, changes));
    ctx.provide(historyRef, {
      record: (projectName, caller, changes) => history.record(projectName, caller, changes),
    });
    // Who made a change follows a renamed user, as everything else that names them does.
    deps.users.onRename(renameUserIn(ctx.db, [['field_history', 'user_name']]));
    const days = retentionDays(process.env.HISTORY_RETENTION_DAYS);
    if (days !== null) {
      const stop = keepFor(
        days,
        (cutoff) => store.prune(cutoff),
        (err) => ctx.log.error({ err }, 'pruning history'),
      );
      ctx.onClose(stop);
    }
    await ctx.app.register(historyRoutes(history));
  },
});
