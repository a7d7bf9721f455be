import { NoContent, type AddonApp, type RequestUser } from '@pipewright/sdk';
import { Secret, SecretList, SecretParams, SecretPut, StoredSecretParams } from './schemas.js';
import type { SecretService } from './service.js';

// Service users count as admins here, as requireAdmin has it: farm and pipeline services read secrets to do their work.
const seesValues = (user: RequestUser) => user.isAdmin || user.isService;

export function secretRoutes(secrets: SecretService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/secrets',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Stored secrets: names for managers, names and values for admins',
          response: { 200: SecretList },
        },
      },
      async (request) => {
        if (seesValues(request.caller)) return secrets.list();
        return (await secrets.names()).map((name) => ({ name }));
      },
    );

    app.get(
      '/api/secrets/:secret_name',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'One secret: its value for admins, its name only for managers',
          params: SecretParams,
          response: { 200: Secret },
        },
      },
      async (request) => {
        const secret = await secrets.require(request.params.secret_name);
        return seesValues(request.caller) ? secret : { name: secret.name };
      },
    );

    app.put(
      '/api/secrets/:secret_name',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Create or replace a secret (admins)',
          params: StoredSecretParams,
          body: SecretPut,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await secrets.set(request.params.secret_name, request.body.value, request.caller.name);
      },
    );

    app.delete(
      '/api/secrets/:secret_name',
      {
        config: { access: 'admin' },
        schema: { summary: 'Delete a secret (admins)', params: SecretParams, response: { 204: NoContent } },
      },
      async (request) => {
        await secrets.remove(request.params.secret_name, request.caller.name);
      },
    );
  };
}
