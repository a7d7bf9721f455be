import { NoContent, type AddonApp } from '@pipewright/sdk';
import {
  Heartbeat,
  HeartbeatResponse,
  HostList,
  PatchParams,
  ServiceList,
  ServiceParams,
  ServicePatch,
  ServicePut,
} from './schemas.js';
import type { ServiceStore } from './service.js';

// Managers may look (the web app's services page), admins change; service users count as admins, as requireAdmin
// has it, because the service host itself runs as one and sends the heartbeats.
export function serviceRoutes(services: ServiceStore) {
  return async (app: AddonApp) => {
    app.get(
      '/api/services',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Every service, its host and whether it runs (managers)',
          response: { 200: ServiceList },
        },
      },
      async () => ({ services: await services.list() }),
    );

    app.put(
      '/api/services/:name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Assign a service of an addon to a host (administrators)',
          params: ServiceParams,
          body: ServicePut,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await services.create(request.params.name, request.body);
      },
    );

    app.patch(
      '/api/services/:service_name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Start or stop a service, or change how it runs (administrators)',
          params: PatchParams,
          body: ServicePatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await services.update(request.params.service_name, request.body);
      },
    );

    app.delete(
      '/api/services/:name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Delete a service (administrators)',
          params: ServiceParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await services.remove(request.params.name);
      },
    );

    app.get(
      '/api/hosts',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Every host that sent a heartbeat in the last day, with its health (managers)',
          response: { 200: HostList },
        },
      },
      async () => ({ hosts: await services.hosts() }),
    );

    app.post(
      '/api/hosts/heartbeat',
      {
        config: { access: 'admin' },
        schema: {
          summary:
            'A service host reports its health and running services; answers the services it should run',
          body: Heartbeat,
          response: { 200: HeartbeatResponse },
        },
      },
      async (request) => ({ services: await services.heartbeat(request.body) }),
    );
  };
}
