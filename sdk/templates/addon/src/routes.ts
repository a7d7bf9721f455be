import type { AddonApp } from '@pipewright/sdk';
import { Greeting } from './schemas.js';
import type { Greetings } from './api.js';

/** Each route reads its parameters, makes one call to the service and answers. */
export function greetingRoutes(greetings: Greetings) {
  return async (app: AddonApp) => {
    // GET /api/addons/{name}/{version}/hello
    app.get(
      '/hello',
      { schema: { summary: 'Greet the caller', response: { 200: Greeting } } },
      async (request) => greetings.greet(request.caller.name),
    );
  };
}
