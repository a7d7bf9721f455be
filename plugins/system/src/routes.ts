import { NoContent, NotFound, isManagerOrAbove, Type, type AddonApp } from '@pipewright/sdk';
import type { ProductionMetrics } from './metrics.js';
import { PROMETHEUS_CONTENT_TYPE, exposition, type MetricFamily } from './prometheus.js';
import type { RestartFlag } from './restart.js';
import {
  MetricsQuery,
  MetricsResponse,
  RestartRequired,
  RestartRequiredBody,
  SiteInfo,
  SiteParams,
  SitesQuery,
} from './schemas.js';
import type { SiteRegistry } from './sites.js';

interface Deps {
  metrics: ProductionMetrics;
  /** The Prometheus families of this process, gathered at each scrape. */
  systemFamilies: () => MetricFamily[];
  restart: RestartFlag;
  sites: SiteRegistry;
}

export function systemRoutes({ metrics, systemFamilies, restart, sites }: Deps) {
  return async (app: AddonApp) => {
    app.get(
      '/api/metrics',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Production metrics: users by role, projects and their events, sites, addons (managers)',
          querystring: MetricsQuery,
          response: { 200: MetricsResponse },
        },
      },
      async (request) => metrics.collect(request.query),
    );

    app.get(
      '/api/metrics/system',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Metrics of this server process in the Prometheus text format (managers)',
          response: {
            200: {
              description: 'Prometheus text exposition format, version 0.0.4',
              content: { 'text/plain': { schema: Type.String() } },
            },
          },
        },
      },
      async (request, reply) => {
        return reply.type(PROMETHEUS_CONTENT_TYPE).send(exposition(systemFamilies()));
      },
    );

    app.get(
      '/api/system/restartRequired',
      {
        schema: {
          summary: 'Whether the server needs a restart for a change to take effect, and why',
          response: { 200: RestartRequired },
        },
      },
      async () => restart.status(),
    );

    app.post(
      '/api/system/restartRequired',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Set or clear the restart-required flag (administrators)',
          body: RestartRequiredBody,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await restart.set(request.body.required, request.body.reason ?? null, request.caller.name);
      },
    );

    app.post(
      '/api/system/restart',
      {
        config: { access: 'admin' },
        schema: {
          summary:
            'Ask every server process to restart (administrators). Processes stop only when PIPEWRIGHT_ALLOW_RESTART is set',
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await restart.requestRestart({ user: request.caller.name });
      },
    );

    app.get(
      '/api/system/sites',
      {
        schema: {
          summary: 'Client sites seen by the server; managers see all, others the sites they worked from',
          querystring: SitesQuery,
          response: { 200: Type.Array(SiteInfo) },
        },
      },
      async (request) => {
        return sites.list({
          ...request.query,
          ...(isManagerOrAbove(request.caller) ? {} : { user: request.caller.name }),
        });
      },
    );

    app.delete(
      '/api/system/sites/:site_id',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Forget a site (managers); it registers again with its next request',
          params: SiteParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        if (!(await sites.remove(request.params.site_id))) {
          throw new NotFound(`Site ${request.params.site_id} not found`);
        }
      },
    );
  };
}
