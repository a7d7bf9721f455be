import { join } from 'node:path';
import { addonPackage, defineAddon } from '@pipewright/sdk';
import { UrlDownloads } from './downloads.js';
import { DesktopFiles } from './files.js';
import { studioMigrations } from './migrations.js';
import { desktopRoutes } from './routes.js';
import { DEPENDENCY_PACKAGES, INSTALLERS, PackageStore, bundleInstallerVersion } from './service.js';
import { authRef } from '@pipewright/plugin-auth/api';

// What the desktop launcher installs on artists' machines: the launcher's own installers and the dependency
// packages (Python environments built for a bundle's addons). Administrators register a file's metadata, then
// upload it (or name where to fetch it); every logged-in user, launchers included, lists and downloads them.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    const files = new DesktopFiles(join(ctx.dataDir, 'desktop'));
    const installers = new PackageStore(ctx.db, files, INSTALLERS);
    const packages = new PackageStore(ctx.db, files, DEPENDENCY_PACKAGES);
    const downloads = new UrlDownloads(ctx.events, files, ctx.log);
    // What a killed process left behind: downloads it never finished, and their half-written files.
    await downloads.recover();
    await files.removeAbandoned();
    ctx.onClose(() => downloads.close());
    await ctx.app.register(
      desktopRoutes({
        bundleInstallerVersion: (variant) => bundleInstallerVersion(ctx.db, variant),
        files,
        downloads,
        installers,
        packages,
      }),
    );
  },
});
