import type { PipewrightClient } from '@pipewright/sdk/client';

// The webhooks routes as the screen calls them.

export type WebhookState = Awaited<ReturnType<typeof readWebhooks>>[number];
export type Delivery = Awaited<ReturnType<typeof readDeliveries>>[number];
export type DeliveryDetail = Awaited<ReturnType<typeof readDelivery>>;

export type Condition = WebhookState['conditions'][number];

export interface WebhookDraft {
  name: string;
  url: string;
  projectName: string | null;
  topics: string[];
  entityTypes: ('folder' | 'task' | 'product' | 'version' | 'representation' | 'workfile')[];
  attributes: string[];
  payload: 'thin' | 'full';
  conditions: Condition[];
  batchSize: number;
}

const one = (id: string) => ({ params: { path: { webhook_id: id } } });

export const readWebhooks = async (client: PipewrightClient) => (await client.GET('/api/webhooks')).webhooks;

export const createWebhook = (client: PipewrightClient, draft: WebhookDraft) =>
  client.POST('/api/webhooks', { body: draft });

export const changeWebhook = (
  client: PipewrightClient,
  id: string,
  change: Partial<WebhookDraft> & { active?: boolean; replay?: boolean },
) => client.PATCH('/api/webhooks/{webhook_id}', { ...one(id), body: change });

export const deleteWebhook = (client: PipewrightClient, id: string) =>
  client.DELETE('/api/webhooks/{webhook_id}', one(id));

export const rotateSecret = (client: PipewrightClient, id: string) =>
  client.POST('/api/webhooks/{webhook_id}/secret', one(id));

export const ping = (client: PipewrightClient, id: string) =>
  client.POST('/api/webhooks/{webhook_id}/ping', one(id));

export const readDeliveries = async (client: PipewrightClient, id: string, status: string | null) =>
  (
    await client.GET('/api/webhooks/{webhook_id}/deliveries', {
      params: {
        path: { webhook_id: id },
        query: { limit: 100, ...(status ? { status: [status as 'pending'] } : {}) },
      },
    })
  ).deliveries;

export const readDelivery = (client: PipewrightClient, id: string, delivery: string) =>
  client.GET('/api/webhooks/{webhook_id}/deliveries/{delivery_id}', {
    params: { path: { webhook_id: id, delivery_id: delivery } },
  });

export const redeliver = (client: PipewrightClient, id: string, delivery: string) =>
  client.POST('/api/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', {
    params: { path: { webhook_id: id, delivery_id: delivery } },
  });
