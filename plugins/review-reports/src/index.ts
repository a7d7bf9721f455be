import { addonPackage, defineAddon } from '@pipewright/sdk';
import { activitiesRef } from '@pipewright/plugin-activities/api';
import { annotationsRef } from '@pipewright/plugin-annotations/api';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { filesRef } from '@pipewright/plugin-files/api';
import { listsRef } from '@pipewright/plugin-lists/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { reportRoutes } from './routes.js';
import { ReviewReports } from './service.js';

// Review reports: a PDF of a review session (a list of versions) or of one version, with what was said and drawn.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: {
    projects: projectsRef,
    lists: listsRef,
    entities: entitiesRef,
    activities: activitiesRef,
    files: filesRef,
    annotations: annotationsRef,
  },
  async setup(ctx, deps) {
    await ctx.app.register(reportRoutes(new ReviewReports(deps)));
  },
});
