import type { AddonContext } from '@pipewright/sdk';
import type { ViewStore } from './store.js';

/**
 * Views and default choices name their user; when a user is renamed they follow, in every scope at once. The
 * users addon announces the rename after it commits, so this runs just after it (in every server process; the
 * second run finds nothing left to change).
 */
export function followUserRenames(ctx: Pick<AddonContext, 'db' | 'events' | 'log'>, store: ViewStore): void {
  ctx.events.subscribe('user.renamed', async (message) => {
    const { userName, oldName } = message.summary;
    if (typeof userName !== 'string' || typeof oldName !== 'string') return;
    try {
      await ctx.db.transaction().execute(async () => {
        for (const schema of await store.schemas()) await store.renameUser(schema, oldName, userName);
      });
    } catch (error) {
      ctx.log.error({ err: error }, `Could not give the views of ${oldName} to ${userName}`);
    }
  });
}
