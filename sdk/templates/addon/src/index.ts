import { readFileSync } from 'node:fs';
import { Type, defineAddon, requireUser } from '@pipewright/sdk';

// __TITLE__: a route, a settings schema, a migration and a screen in the web app.
// Name, version and title are read from manifest.json (beside src/ and dist/ alike), so they live in one place.
const manifest = JSON.parse(readFileSync(new URL('../manifest.json', import.meta.url), 'utf8'));

// Tables of every addon share one database: prefix yours with the addon's name.
const VISITS = '__SNAKE___visits';

export default defineAddon({
  name: manifest.name,
  version: manifest.version,
  title: manifest.title,
  description: 'Greets its callers with a greeting from its settings',
  dependsOn: ['auth', 'settings'],
  migrations: {
    studio: [
      {
        name: '0001_visits',
        up: (db) =>
          db.schema
            .createTable(VISITS)
            .ifNotExists()
            .addColumn('user_name', 'text', (column) => column.primaryKey())
            .addColumn('visits', 'integer', (column) => column.notNull())
            .execute(),
      },
    ],
  },
  settings: {
    studio: Type.Object({
      greeting: Type.String({ default: 'Hello', title: 'Greeting', minLength: 1 }),
    }),
  },
  frontendScopes: { project: { sidebar: '__TITLE__' } },
  frontendModules: { __REMOTE__: ['./Panel'] },
  setup(ctx) {
    const settings = ctx.use('settings');
    // GET /api/addons/{name}/{version}/hello
    ctx.app.get('/hello', async (request) => {
      const user = requireUser(request);
      const values = await settings.values(ctx.addon.name, ctx.addon.version);
      const row = await ctx.db
        .insertInto(VISITS)
        .values({ user_name: user.name, visits: 1 })
        .onConflict((conflict) =>
          conflict.column('user_name').doUpdateSet((eb) => ({ visits: eb(`${VISITS}.visits`, '+', 1) })),
        )
        .returning('visits')
        .executeTakeFirstOrThrow();
      return { message: `${values?.greeting ?? 'Hello'}, ${user.name}`, visits: row.visits };
    });
  },
});
