import { Forbidden, NoContent, type AddonApp } from '@pipewright/sdk';
import { cloudSettings } from './cloud.js';
import { AuthorizeQuery, CloudInfo, ConnectRequest, FeedbackAnswer, FeedbackQuery } from './schemas.js';
import type { ConnectService } from './service.js';

export function connectRoutes(connect: ConnectService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/connect',
      {
        schema: {
          summary: 'Whether a Ynput Cloud key is set, with what the cloud says about this server',
          response: { 200: CloudInfo },
        },
      },
      async (request) => {
        if (request.caller.isGuest) throw new Forbidden('Guests cannot load Ynput Cloud information');
        return connect.info();
      },
    );

    app.post(
      '/api/connect',
      {
        config: { access: 'admin' },
        schema: {
          summary:
            'Store the Ynput Cloud key (admins) and answer the cloud info; stored unverified when offline',
          body: ConnectRequest,
          response: { 200: CloudInfo },
        },
      },
      async (request) => connect.connect(request.body.key, request.caller.name),
    );

    app.delete(
      '/api/connect',
      {
        config: { access: 'admin' },
        schema: { summary: 'Forget the Ynput Cloud key (admins)', response: { 204: NoContent } },
      },
      async (request) => {
        await connect.disconnect(request.caller.name);
      },
    );

    // A browser navigates here (it sends no Authorization header), as the AYON web app does: the route is open, and
    // tells the cloud nothing but this server's instance id and the page to come back to.
    app.get(
      '/api/connect/authorize',
      {
        schema: {
          summary: 'Redirect (307) to the Ynput Cloud page that authorises this server',
          security: [],
          querystring: AuthorizeQuery,
        },
      },
      async (request, reply) => {
        const { baseUrl } = cloudSettings();
        const target = new URL(`${baseUrl}/api/v1/connect`);
        target.searchParams.set('instance_redirect', request.query.origin_url);
        target.searchParams.set('instance_id', await connect.instanceId());
        return reply.redirect(target.toString(), 307);
      },
    );

    app.get(
      '/api/connect/feedback',
      {
        schema: {
          summary:
            'Whether the caller may send feedback to Ynput, with the verification data the cloud gives',
          querystring: FeedbackQuery,
          response: { 200: FeedbackAnswer },
        },
      },
      async (request) => connect.feedback(request.caller, request.query.force === true),
    );
  };
}
