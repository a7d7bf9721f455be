import { type AddonApp, AddonVersionParams } from '@pipewright/sdk';
import {
  AddonParams,
  LicenseList,
  LicenseQuery,
  MarketAddonDetail,
  MarketAddonList,
  MarketAddonVersionDetail,
  ReleaseInfo,
  ReleaseList,
  ReleaseListQuery,
  ReleaseParams,
} from './schemas.js';
import type { MarketService } from './service.js';

// Who: the addon pages and licenses are for admins, as in AYON (installing addons and reading the studio's
// licenses is their business). Releases, which AYON serves to anyone, need a logged-in user here: every client that
// asks (the onboarding, the bundle editor) is logged in, and nothing of the server is read anonymously without need.
export function marketRoutes(market: MarketService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/market/addons',
      {
        config: { access: 'admin' },
        schema: {
          summary:
            'Addons in the market, with what this server has installed and runs in production (admins)',
          response: { 200: MarketAddonList },
        },
      },
      async () => market.list(),
    );

    app.get(
      '/api/market/addons/:addon_name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'One market addon with its versions, newest first (admins)',
          params: AddonParams,
          response: { 200: MarketAddonDetail },
        },
      },
      async (request) => market.addon(request.params.addon_name),
    );

    app.get(
      '/api/market/addons/:addon_name/:addon_version',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'One version of a market addon, with the URL to install it from (admins)',
          params: AddonVersionParams,
          response: { 200: MarketAddonVersionDetail },
        },
      },
      async (request) => market.version(request.params.addon_name, request.params.addon_version),
    );

    app.get(
      '/api/market/licenses',
      {
        config: { access: 'admin' },
        schema: {
          summary: "The studio's licenses, from Ynput Cloud (admins; needs the cloud connection)",
          querystring: LicenseQuery,
          response: { 200: LicenseList },
        },
      },
      async (request) => market.licenses(request.query.refresh === true),
    );

    app.get(
      '/api/market/releases',
      {
        schema: {
          summary: 'Releases (curated sets of addon versions): the newest, or all of them',
          querystring: ReleaseListQuery,
          response: { 200: ReleaseList },
        },
      },
      async (request) => market.releases(request.query.all === true),
    );

    app.get(
      '/api/market/releases/:release_name',
      {
        schema: {
          summary: 'One release with its addon versions, installers and dependency packages',
          params: ReleaseParams,
          response: { 200: ReleaseInfo },
        },
      },
      async (request) => market.release(request.params.release_name),
    );
  };
}
