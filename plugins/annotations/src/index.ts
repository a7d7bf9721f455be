import { addonPackage, defineAddon } from '@pipewright/sdk';
import { activitiesRef } from '@pipewright/plugin-activities/api';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { filesRef } from '@pipewright/plugin-files/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { projectMigrations } from './migrations.js';
import { annotationsRef } from './api.js';
import { AnnotationExchange } from './exchange.js';
import { annotationRoutes } from './routes.js';
import { AnnotationService } from './service.js';
import { AnnotationStore } from './store.js';

// Vector annotations of review media: strokes with a width per point, rectangles, ellipses, lines, arrows and
// texts, each an object of its own on an integer frame of a reviewable, in resolution-independent coordinates;
// exported and imported as OTIO (OpenRV's annotation schemas) and as an OpenRV paint fragment.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { projects: projectsRef, entities: entitiesRef, activities: activitiesRef, files: filesRef },
  migrations: { project: projectMigrations },
  async setup(ctx, deps) {
    const store = new AnnotationStore(ctx.db, ctx.projects.schemaName);
    const annotations = new AnnotationService(ctx.db, store, deps, ctx.events);
    const exchange = new AnnotationExchange(ctx.db, store, annotations, deps, ctx.events);
    ctx.provide(annotationsRef, { read: (...args) => exchange.annotationsOf(...args) });
    await ctx.app.register(annotationRoutes(annotations, exchange));
  },
});
