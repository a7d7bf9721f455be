import { NoContent, type AddonApp } from '@pipewright/sdk';
import {
  Created,
  DeliveryDetail,
  DeliveryList,
  DeliveryParams,
  DeliveryQuery,
  PingAnswer,
  Queued,
  ReplayRequest,
  Secret,
  Webhook,
  WebhookCreate,
  WebhookList,
  WebhookParams,
  WebhookPatch,
} from './schemas.js';
import type { WebhookService } from './service.js';

const BASE = '/api/webhooks';
const ONE = `${BASE}/:webhook_id`;
// Managers manage their projects' webhooks, administrators every webhook (the service tells them apart).
const config = { access: 'manager' as const };

/** The routes of outbound webhooks: endpoints, their secrets, the delivery log, redelivery, replay and a ping. */
export function webhookRoutes(webhooks: WebhookService) {
  return async (app: AddonApp) => {
    app.get(
      BASE,
      { config, schema: { summary: 'The webhooks the caller manages', response: { 200: WebhookList } } },
      async (request) => ({ webhooks: await webhooks.list(request.caller) }),
    );

    app.post(
      BASE,
      {
        config,
        schema: {
          summary: 'Create a webhook; its signing secret is shown this once',
          description:
            'Messages are posted as JSON ({type, timestamp, sequence, data}) and signed as Standard Webhooks ' +
            '(webhook-id, webhook-timestamp, webhook-signature). Targets on private or local addresses are ' +
            'refused unless the server allows them (WEBHOOKS_ALLOW_PRIVATE). Studio-wide webhooks (no ' +
            'projectName) are for administrators.',
          body: WebhookCreate,
          response: { 201: Created },
        },
      },
      async (request, reply) => reply.code(201).send(await webhooks.create(request.caller, request.body)),
    );

    app.get(
      ONE,
      { config, schema: { summary: 'One webhook', params: WebhookParams, response: { 200: Webhook } } },
      async (request) => webhooks.get(request.caller, request.params.webhook_id),
    );

    app.patch(
      ONE,
      {
        config,
        schema: {
          summary: 'Change, pause or resume a webhook',
          params: WebhookParams,
          body: WebhookPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await webhooks.update(request.caller, request.params.webhook_id, request.body);
      },
    );

    app.delete(
      ONE,
      {
        config,
        schema: {
          summary: 'Delete a webhook and its log',
          params: WebhookParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await webhooks.remove(request.caller, request.params.webhook_id);
      },
    );

    const rotate =
      'Rotate the signing secret: the new one signs from now on, the old one beside it for 24 hours';
    app.post(
      `${ONE}/secret`,
      { config, schema: { summary: rotate, params: WebhookParams, response: { 200: Secret } } },
      async (request) => webhooks.rotate(request.caller, request.params.webhook_id),
    );
    app.post(
      `${ONE}/ping`,
      {
        config,
        schema: {
          summary: 'Send a test message (webhook.ping)',
          params: WebhookParams,
          response: { 200: PingAnswer },
        },
      },
      async (request) => webhooks.ping(request.caller, request.params.webhook_id),
    );

    app.get(
      `${ONE}/deliveries`,
      {
        config,
        schema: {
          summary: 'The delivery log of a webhook, newest first (kept 14 days)',
          params: WebhookParams,
          querystring: DeliveryQuery,
          response: { 200: DeliveryList },
        },
      },
      async (request) => {
        const { status, topic, since, until, limit } = request.query;
        return {
          deliveries: await webhooks.deliveries(request.caller, request.params.webhook_id, {
            statuses: status,
            topic,
            since: since ? new Date(since) : undefined,
            until: until ? new Date(until) : undefined,
            limit,
          }),
        };
      },
    );

    app.get(
      `${ONE}/deliveries/:delivery_id`,
      {
        config,
        schema: {
          summary: 'One message: what was sent and every attempt (status, first 4 KB of the answer, latency)',
          params: DeliveryParams,
          response: { 200: DeliveryDetail },
        },
      },
      async (request) =>
        webhooks.delivery(request.caller, request.params.webhook_id, request.params.delivery_id),
    );

    const again = {
      summary: 'Send one message again now',
      params: DeliveryParams,
      response: { 204: NoContent },
    };
    app.post(`${ONE}/deliveries/:delivery_id/redeliver`, { config, schema: again }, async (request) => {
      await webhooks.redeliver(request.caller, request.params.webhook_id, request.params.delivery_id);
    });

    app.post(
      `${ONE}/replay`,
      {
        config,
        schema: {
          summary: 'Send again every message of a time range',
          params: WebhookParams,
          body: ReplayRequest,
          response: { 200: Queued },
        },
      },
      async (request) =>
        webhooks.replay(
          request.caller,
          request.params.webhook_id,
          new Date(request.body.since),
          request.body.until ? new Date(request.body.until) : new Date(),
        ),
    );
  };
}
