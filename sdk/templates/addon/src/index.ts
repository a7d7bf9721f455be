import { readFileSync } from 'node:fs';
import { defineAddon } from '@pipewright/sdk';
import { authRef } from '@pipewright/plugin-auth/api';
import { settingsRef } from '@pipewright/plugin-settings/api';
import { greetingsRef } from './api.js';
import { studioMigrations } from './migrations.js';
import { greetingRoutes } from './routes.js';
import { Settings } from './schemas.js';
import { GreetingService } from './service.js';
import { VisitStore } from './store.js';

// __TITLE__: a route, a settings schema, a migration, a service other addons may use and a screen in the web app.
// This file only wires the parts: routes.ts answers, service.ts decides, store.ts holds the SQL.
// Name, version and title are read from manifest.json (beside src/ and dist/ alike), so they live in one place.
const manifest = JSON.parse(readFileSync(new URL('../manifest.json', import.meta.url), 'utf8'));

export default defineAddon({
  name: manifest.name,
  version: manifest.version,
  title: manifest.title,
  description: 'Greets its callers with a greeting from its settings',
  // The services it uses, by reference: auth answers who calls, settings reads the values of the schema below.
  deps: { auth: authRef, settings: settingsRef },
  migrations: { studio: studioMigrations },
  settings: { studio: Settings },
  frontendScopes: { project: { sidebar: '__TITLE__' } },
  frontendModules: { __REMOTE__: ['./Panel'] },
  async setup(ctx, { settings }) {
    const service = new GreetingService(new VisitStore(ctx.db), settings, ctx.addon);
    ctx.provide(greetingsRef, service);
    await ctx.app.register(greetingRoutes(service));
  },
});
