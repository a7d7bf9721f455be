import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
import { closeAll, logIn, openBrowser, screenshot, startWebApp, type BrowserSession } from './browser';

// An administrator sets up a webhook in the web app alone: creates it (the secret shows once), sends a test ping,
// finds it delivered in the log with the receiver's answer, narrows it with a condition and a batch size, pauses and
// resumes it; when its endpoint answers 410 Gone, the inbox tells them and leads them back to it. The receiver is
// a real HTTP server on this machine, which the server is allowed to post to (WEBHOOKS_ALLOW_PRIVATE).

const ADMIN = { name: 'admin', password: 'a strong password' };
let core: TestCore;
let base: string;
let token: string;
/** What the receiver answers. */
let answer = 200;
let session: BrowserSession;
let page: Page;
let receiver: Server;
let target: string;
const received: string[] = [];

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(body);
      response.writeHead(answer).end('got it');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  ({ core, base, token } = await startWebApp({
    addons: ['webhooks', 'activities', 'notices', 'websocket'],
    screens: ['webhooks', 'activities'],
    admin: ADMIN,
  }));
  session = await openBrowser(base);
  page = session.page;
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
  receiver.close();
  delete process.env.WEBHOOKS_ALLOW_PRIVATE;
});

describe('the webhooks screen', () => {
  it('creates a webhook, shows its secret once, and logs a test ping as delivered', async () => {
    await logIn(page, `${base}/`, ADMIN);
    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();

    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('form', { name: 'Webhook' });
    await form.getByLabel('Name').fill('Tracker');
    await form.getByLabel('Target URL').fill(target);
    await form.getByLabel('Events').fill('webhook.ping, entity.*');
    await form.getByRole('button', { name: 'Create' }).click();
    const secret = page.getByRole('status', { name: 'Signing secret' });
    await expect(secret.locator('code').textContent()).resolves.toMatch(/^whsec_/);
    await page.getByRole('table', { name: 'Webhooks' }).getByText('Tracker').waitFor();

    const detail = page.getByRole('region', { name: 'Tracker' });
    await detail.getByRole('button', { name: 'Send a test ping' }).click();
    for (const end = Date.now() + 5000; received.length === 0 && Date.now() < end;)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(JSON.parse(received[0]!)).toMatchObject({ type: 'webhook.ping', data: { webhook: 'Tracker' } });
    const log = detail.getByRole('region', { name: 'Deliveries' });
    await log.getByRole('button', { name: 'Refresh' }).click();
    await log.locator('tr', { hasText: 'webhook.ping' }).filter({ hasText: 'delivered' }).click();
    await log.getByRole('region', { name: 'Attempts' }).getByText('got it').waitFor();
    await screenshot(page, 'webhooks');

    await detail.getByRole('button', { name: 'Add a condition' }).click();
    const condition = detail.getByRole('group', { name: 'Condition 1' });
    await condition.getByLabel('Comparison').selectOption('in');
    await condition.getByLabel('Value').fill('Approved, Final');
    await detail.getByLabel('Batch size').fill('10');
    await detail.getByRole('button', { name: 'Save' }).click();
    let saved: { conditions?: unknown[] } = {};
    for (const end = Date.now() + 5000; !saved.conditions?.length && Date.now() < end;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      [saved] = (await core.request('GET', '/api/webhooks', { token })).body.webhooks;
    }
    expect(saved).toMatchObject({
      conditions: [{ path: 'payload.newValue', op: 'in', value: ['Approved', 'Final'] }],
      batchSize: 10,
    });

    await detail.getByRole('button', { name: 'Pause' }).click();
    await detail.getByText('Paused').first().waitFor();
    await detail.getByRole('button', { name: 'Resume' }).click();
    await detail.getByText('Healthy').waitFor();
  });

  it('tells its maker in the inbox when its endpoint is gone, and leads back to it', async () => {
    const made = await core.request('POST', '/api/webhooks', {
      token,
      body: { name: 'Old farm', url: target, topics: ['webhook.ping'] },
    });
    answer = 410;
    await core.request('POST', `/api/webhooks/${made.body.id}/ping`, { token });
    const nav = page.getByRole('navigation');
    // The navigation counts the notice among the unread, live.
    await nav.getByLabel('1 unread').waitFor();
    await nav.getByRole('link', { name: /^Inbox/ }).click();
    const notices = page.getByRole('region', { name: 'From the server' });
    const notice = notices.getByRole('listitem', { name: /^Unread: Webhook "Old farm" paused/ });
    await notice.getByText('the endpoint answered 410 Gone').waitFor();
    await page.getByLabel('Unread messages').filter({ hasText: '1 unread' }).waitFor();
    await screenshot(page, 'inbox-webhook-paused');
    await notice.getByRole('button', { name: 'Open' }).click();
    const detail = page.getByRole('region', { name: 'Old farm' });
    await detail.getByText('Paused').first().waitFor();
    expect(new URL(page.url()).searchParams.get('webhook')).toBe(made.body.id);
    answer = 200;
    await detail.getByRole('button', { name: 'Resume' }).click();
    await detail.getByText('Healthy').waitFor();
  });
});
