import { join } from 'node:path';
import { addonPackage, defineAddon } from '@pipewright/sdk';
import { CatalogueSource, operatorCataloguePath } from './catalogue.js';
import { marketRoutes } from './routes.js';
import { MarketService } from './service.js';
import { ynputCloudRef } from '@pipewright/plugin-connect/api';

// The addon market. Addons, their versions and the releases come from a catalogue file, so the market works with
// no internet: the one shipped beside this file (catalogue.json), or the operator's own at
// DATA_DIR/market/catalogue.json, picked up when it changes without a restart. Installing is the client's next
// step: POST /api/addons/install?url=<the version's url>. Licenses exist only in Ynput Cloud (connect addon).
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { ynputCloud: ynputCloudRef },
  async setup(ctx, deps) {
    const catalogue = new CatalogueSource(
      join(ctx.addon.directory, 'catalogue.json'),
      operatorCataloguePath(ctx.dataDir),
      ctx.log,
    );
    const market = new MarketService(catalogue, ctx.db, ctx.addons, deps.ynputCloud);
    await ctx.app.register(marketRoutes(market));
  },
});
