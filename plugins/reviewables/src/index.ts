import { defineAddon } from '@pipewright/sdk';
import { reviewableGraphQL } from './graphql.js';
import { ReviewableListing } from './listing.js';
import { ReviewAccess } from './permissions.js';
import { reviewableRoutes } from './routes.js';
import { ReviewableService } from './service.js';
import { VersionThumbnail } from './version-thumbnail.js';

// The media of a version's review: videos and images uploaded for it, described by ffprobe, listed for a version,
// a product, a task or a folder, ordered and labelled. A reviewable is an activity of the version (type
// "reviewable") with its file attached, so it shows in the version's feed and goes when the version goes. Nothing
// is transcoded here: availability tells clients whether a browser can play a file as it was uploaded.
export default defineAddon({
  name: 'reviewables',
  version: '1.0.0',
  title: 'Reviewables',
  description: 'Review media of versions, with media info, availability, order and labels',
  dependsOn: ['projects', 'entities', 'users', 'access', 'files', 'activities', 'thumbnails', 'graphql'],
  // The upload bar is also embedded by other screens (the overview's New version) through ScreenProps.Extension.
  frontendModules: { reviewables_screens: ['./Review', './UploadReviewable'] },
  frontendScopes: { project: { sidebar: 'Review' } },
  async setup(ctx) {
    const entities = ctx.use('entities');
    const files = ctx.use('files');
    const activities = ctx.use('activities');
    const access = new ReviewAccess(ctx.use('projects'), entities, ctx.use('access'));
    const listing = new ReviewableListing(ctx.use('projects'), entities, activities, files, ctx.use('users'));
    const service = new ReviewableService(ctx.db, access, listing, activities, files, ctx.events);
    const thumbnail = new VersionThumbnail(ctx.use('thumbnails'), files);
    await ctx.app.register(reviewableRoutes({ access, listing, service, thumbnail, log: ctx.log }));
    ctx.use('graphql').extend(reviewableGraphQL(ctx.db, (project) => ctx.projects.schemaName(project)));
  },
});
