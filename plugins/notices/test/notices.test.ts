import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { noticesRef } from '../src/api.js';

// Notices through their routes, sent as another addon sends them (the service reference).
let core: TestCore;
let admin: string;
let artie: string;
let eve: string;

const as = (token: string) => (method: string, url: string, body?: unknown) =>
  core.request(method, url, { token, body });
const mine = async (token: string, query = '') => {
  const res = await as(token)('GET', `/api/notices${query}`);
  expect(res.status).toBe(200);
  return res.body as { notices: any[]; unread: number };
};

beforeAll(async () => {
  core = await bootTestCore({ addons: ['notices', 'users'] });
  admin = await seedUser(core, 'admin', { isAdmin: true });
  artie = await seedUser(core, 'artie', {});
  eve = await seedUser(core, 'eve', {});
});
afterAll(() => core.close());

describe('notices', () => {
  it('reach only their recipients, live, newest first, and are marked read, unread and archived', async () => {
    const heard: { recipients: string[] | null; summary: Record<string, unknown> }[] = [];
    const stop = core.events.subscribe('inbox.message', async (event) => void heard.push(event));
    const notices = core.services.get(noticesRef);
    await notices.send(['artie', 'artie'], { topic: 'test.first', title: 'First' });
    await notices.send(['artie'], {
      topic: 'webhook.paused',
      title: 'Webhook "Tracker" paused',
      body: 'Nothing more is sent until it is resumed.',
      link: '/addon/webhooks/webhooks_screens?webhook=abc',
    });
    // With Redis, the events come back to this process's subscribers through it: a moment after the sends.
    for (const end = Date.now() + 5000; heard.length < 2 && Date.now() < end;)
      await new Promise((wait) => setTimeout(wait, 20));
    stop();
    expect(heard.map((event) => event.recipients)).toEqual([['artie'], ['artie']]);
    expect(heard[1]!.summary).toMatchObject({ isImportant: true, notice: 'webhook.paused' });

    const listed = await mine(artie);
    expect(listed.unread).toBe(2);
    expect(listed.notices.map((n) => n.title)).toEqual(['Webhook "Tracker" paused', 'First']);
    expect(listed.notices[0]).toMatchObject({
      topic: 'webhook.paused',
      body: 'Nothing more is sent until it is resumed.',
      link: '/addon/webhooks/webhooks_screens?webhook=abc',
      read: false,
      active: true,
    });
    expect((await mine(eve)).notices).toEqual([]);

    const [paused, first] = listed.notices;
    // Another user's notices are not theirs to mark: nothing changes.
    expect((await as(eve)('POST', '/api/notices', { ids: [first.id], status: 'read' })).status).toBe(204);
    expect((await mine(artie)).unread).toBe(2);
    await as(artie)('POST', '/api/notices', { ids: [first.id], status: 'read' });
    expect((await mine(artie, '?unreadOnly=true')).notices.map((n) => n.id)).toEqual([paused.id]);
    await as(artie)('POST', '/api/notices', { ids: [paused.id], status: 'inactive' });
    expect((await mine(artie)).notices.map((n) => n.id)).toEqual([first.id]);
    expect((await mine(artie, '?includeArchived=true')).notices).toHaveLength(2);
    expect((await mine(artie)).unread).toBe(0);
    await as(artie)('POST', '/api/notices', { ids: [first.id], status: 'unread' });
    expect((await mine(artie)).unread).toBe(1);

    const bad = await as(artie)('POST', '/api/notices', { ids: [first.id], status: 'gone' });
    expect(bad.status).toBe(422);
    expect((await core.request('GET', '/api/notices')).status).toBe(401);
  });

  it('follow a renamed user', async () => {
    await core.services.get(noticesRef).send(['eve'], { topic: 'test.rename', title: 'For eve' });
    const renamed = await as(admin)('POST', '/api/users/eve/rename', { newName: 'eva' });
    expect(renamed.status).toBe(204);
    // Her session follows her to the new name, and her notices with it.
    expect((await mine(eve)).notices.map((n) => n.title)).toEqual(['For eve']);
  });
});
