import { addonPackage, defineAddon } from '@pipewright/sdk';
import { reviewableGraphQL } from './graphql.js';
import { ReviewableListing } from './listing.js';
import { ReviewAccess } from './permissions.js';
import { reviewableRoutes } from './routes.js';
import { ReviewableService } from './service.js';
import { VersionThumbnail } from './version-thumbnail.js';
import { accessRef } from '@pipewright/plugin-access/api';
import { activitiesRef } from '@pipewright/plugin-activities/api';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { filesRef } from '@pipewright/plugin-files/api';
import { graphqlRef } from '@pipewright/plugin-graphql/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { thumbnailsRef } from '@pipewright/plugin-thumbnails/api';
import { usersRef } from '@pipewright/plugin-users/api';

// The media of a version's review: videos and images uploaded for it, described by ffprobe, listed for a version,
// a product, a task or a folder, ordered and labelled. A reviewable is an activity of the version (type
// "reviewable") with its file attached, so it shows in the version's feed and goes when the version goes. Nothing
// is transcoded here: availability tells clients whether a browser can play a file as it was uploaded.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: {
    access: accessRef,
    activities: activitiesRef,
    entities: entitiesRef,
    files: filesRef,
    graphql: graphqlRef,
    projects: projectsRef,
    thumbnails: thumbnailsRef,
    users: usersRef,
  },
  // The upload bar is also embedded by other screens (the overview's New version) through ScreenProps.Extension.
  frontendModules: { reviewables_screens: ['./Review', './UploadReviewable'] },
  frontendScopes: { project: { sidebar: 'Review' } },
  async setup(ctx, deps) {
    const entities = deps.entities;
    const files = deps.files;
    const activities = deps.activities;
    const access = new ReviewAccess(deps.projects, entities, deps.access);
    const listing = new ReviewableListing(deps.projects, entities, activities, files, deps.users);
    const service = new ReviewableService(ctx.db, access, listing, activities, files, ctx.events);
    const thumbnail = new VersionThumbnail(deps.thumbnails, files);
    await ctx.app.register(reviewableRoutes({ access, listing, service, thumbnail, log: ctx.log }));
    deps.graphql.extend(reviewableGraphQL(ctx.db, (project) => ctx.projects.schemaName(project)));
  },
});
