import { join } from 'node:path';
import { addonPackage, defineAddon, renameUserIn } from '@pipewright/sdk';
import { MediaTools } from './media.js';
import { projectMigrations } from './migrations.js';
import { fileRoutes } from './routes.js';
import { FileService } from './service.js';
import { LocalDiskStorage } from './storage.js';
import { filesRef } from './api.js';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { usersRef } from '@pipewright/plugin-users/api';

// Files of a project: comment attachments today, review media for the reviewables addon. Records live in the
// project's schema, bytes in a FileStorage (local disk under DATA_DIR/projects/{project}/uploads; an
// S3-compatible store can implement the same interface later). Previews are made with Debian's ffmpeg.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { projects: projectsRef, users: usersRef },
  migrations: { project: projectMigrations },
  async setup(ctx, deps) {
    const projects = deps.projects;
    const storage = new LocalDiskStorage(join(ctx.dataDir, 'projects'));
    const files = new FileService(ctx.db, ctx.projects.schemaName, storage, new MediaTools());
    ctx.provide(filesRef, files);
    deps.users.onRename(renameUserIn(ctx.db, [['files', 'author']]));
    // The project's schema (and with it every record) is gone; its bytes follow. A project created again under
    // the same name before this runs keeps its new files.
    ctx.events.subscribe('entity.project.deleted', async (message) => {
      if (message.project && !(await projects.find(message.project)))
        await files.dropProject(message.project);
    });
    await ctx.app.register(fileRoutes({ files, projects }));
  },
});
