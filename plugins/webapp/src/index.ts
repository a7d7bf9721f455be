import { addonPackage, defineAddon } from '@pipewright/sdk';
import { webAppRoutes } from './routes.js';

// The browser's way in: the built frontend-host at /, so `npm start` gives the whole app. The server's API
// keeps its own paths; this addon only takes the GET requests nobody else answers.
export default defineAddon({
  ...addonPackage(import.meta.url),
  async setup(ctx) {
    await ctx.app.register(webAppRoutes(ctx.log));
  },
});
