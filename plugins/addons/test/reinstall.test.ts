import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { onboardAdmin, serverProcessSite, type ServerProcessSite } from '@pipewright/core/testing';
import { addonZip } from './packages.js';

// Reinstalling an addon in the same version must run its new code. Node caches ES modules by URL, which Jest's
// module registry does not imitate, so this runs against `npm start`'s entry point as its own process.

let site: ServerProcessSite;
let base: string;
let token: string;

const echo = (word: string) =>
  addonZip(
    'echo',
    '1.0.0',
    `export default { name: 'echo', version: '1.0.0', title: 'Echo',
       setup(ctx) { ctx.app.get('/word', async () => ({ word: '${word}' })); } };`,
  );

async function install(zip: Buffer) {
  const res = await fetch(`${base}/api/addons/install`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  });
  const { eventId } = await res.json();
  for (let i = 0; i < 200; i++) {
    const event = await (
      await fetch(`${base}/api/events/${eventId}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    if (event.status !== 'in_progress') return event.status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the install did not end');
}

const word = async () =>
  (
    await fetch(`${base}/api/addons/echo/1.0.0/word`, { headers: { authorization: `Bearer ${token}` } })
  ).json();

beforeAll(async () => {
  site = await serverProcessSite('reinstall', { LOG_LEVEL: 'info' });
  base = site.base;
  await site.start();
  token = await onboardAdmin(base);
}, 60_000);
afterAll(() => site.remove());

describe('reinstalling an addon in the same version', () => {
  it('runs the new code at once', async () => {
    expect(await install(echo('first'))).toBe('finished');
    expect(await word()).toEqual({ word: 'first' });
    expect(await install(echo('second'))).toBe('finished');
    expect(await word()).toEqual({ word: 'second' });
  });
});
