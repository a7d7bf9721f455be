import { describe, expect, it } from '@jest/globals';
import type { RequestUser } from '@pipewright/sdk';
import { accepts, Hub, type Client } from '../src/hub.js';

// The per-socket filters without a network: the cases the socket tests do not reach.

const user = (overrides: Partial<RequestUser> = {}): RequestUser => ({
  name: 'guest',
  isAdmin: false,
  isManager: false,
  isService: false,
  isGuest: false,
  accessGroups: {},
  sessionId: null,
  isApiKey: false,
  ...overrides,
});

const client = (overrides: Partial<Client>): Client => ({
  socket: { readyState: 1, send: () => undefined, close: () => undefined },
  user: user(),
  credential: null,
  prefixes: [''],
  project: null,
  lastSent: 0,
  ...overrides,
});

describe('accepts', () => {
  it('delivers nothing before the socket is authorised', () => {
    expect(accepts(client({ user: null }), { topic: 'heartbeat', project: null, recipients: null })).toBe(
      false,
    );
  });

  it('always delivers server lifecycle topics, whatever the subscriptions', () => {
    const subscribedToNothing = client({ prefixes: [] });
    for (const topic of ['server.started', 'server.restart_requested', 'heartbeat']) {
      expect(accepts(subscribedToNothing, { topic, project: null, recipients: null })).toBe(true);
    }
  });

  it('lets guests follow only activity and version topics', () => {
    const guest = client({ user: user({ isGuest: true, accessGroups: { demo: ['guest'] } }) });
    expect(accepts(guest, { topic: 'activity.comment.created', project: 'demo', recipients: null })).toBe(
      true,
    );
    expect(accepts(guest, { topic: 'entity.version.created', project: 'demo', recipients: null })).toBe(true);
    expect(accepts(guest, { topic: 'entity.folder.created', project: 'demo', recipients: null })).toBe(false);
  });

  it('keeps inbox messages of projects the user cannot open away from them', () => {
    const artist = client({
      user: user({ name: 'ann', accessGroups: { demo: ['artist'] } }),
      project: 'demo',
    });
    expect(accepts(artist, { topic: 'inbox.message', project: 'other', recipients: ['ann'] })).toBe(false);
    expect(accepts(artist, { topic: 'inbox.message', project: null, recipients: ['ann'] })).toBe(true);
  });
});

describe('Hub.heartbeat', () => {
  it('fills only silences longer than the interval, and skips closed sockets', () => {
    const sent: string[] = [];
    const hub = new Hub();
    const quiet = hub.add({ readyState: 1, send: () => void sent.push('quiet'), close: () => undefined });
    const busy = hub.add({ readyState: 1, send: () => void sent.push('busy'), close: () => undefined });
    const closing = hub.add({ readyState: 2, send: () => void sent.push('closing'), close: () => undefined });
    for (const c of [quiet, busy, closing]) hub.authorise(c, user(), [], null);
    quiet.lastSent = 0;
    busy.lastSent = 9_000;
    closing.lastSent = 0;
    hub.heartbeat(5_000, 10_000);
    expect(sent).toEqual(['quiet']);
  });
});
