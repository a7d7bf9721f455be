import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, fixedUserSource, type TestCore } from '@pipewright/core/testing';
import { LoginThrottle, LoginThrottled } from '../src/throttle.js';

// Every request comes from one socket address, as a studio behind one NAT address would, with the default
// configuration (TRUST_PROXY off), and claims another address in X-Forwarded-For each time.
const PASSWORD = 'correct horse battery';
const PEOPLE = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];

const bootCore = () =>
  bootTestCore({
    addons: ['throttle-users'],
    extraAddons: [
      fixedUserSource('throttle-users', Object.fromEntries(PEOPLE.map((name) => [name, {}])), {
        password: PASSWORD,
      }),
    ],
  });

let core: TestCore;
beforeAll(async () => {
  core = await bootCore();
});
afterAll(() => core.close());

let spoofed = 0;
const login = (name: string, password: string, on = core) =>
  on.request('POST', '/api/auth/login', {
    body: { name, password },
    headers: { 'x-forwarded-for': `203.0.113.${++spoofed % 250}, 10.0.0.${spoofed % 250}` },
  });

describe('guessing one account', () => {
  it('makes its next guess wait after 5 failures, whatever X-Forwarded-For says, the right password too', async () => {
    for (let i = 0; i < 5; i++) expect((await login('alice', `guess ${i}`)).status).toBe(401);
    const refused = await login('alice', 'guess 5');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 429,
      detail: 'Too many wrong passwords for this account; try again in 1 s',
    });
    expect(refused.headers['retry-after']).toBe('1');
    expect((await login('alice', PASSWORD)).status).toBe(429);
  });

  it("counts per account: another account's success does not reset it", async () => {
    for (let i = 0; i < 4; i++) expect((await login('bob', `guess ${i}`)).status).toBe(401);
    expect((await login('carol', PASSWORD)).status).toBe(200);
    expect((await login('bob', 'guess 4')).status).toBe(401);
    expect((await login('bob', PASSWORD)).status).toBe(429);
  });

  it('never holds back the right password of another account at the same address', async () => {
    for (let i = 0; i < 30; i++) await login('dave', `guess ${i}`);
    expect((await login('dave', PASSWORD)).status).toBe(429);
    const other = await login('erin', PASSWORD);
    expect(other.status).toBe(200);
    expect(other.body.user.name).toBe('erin');
  });
});

describe('a studio behind one address', () => {
  it('never counts successful logins, however many', async () => {
    for (let i = 0; i < 15; i++) expect((await login('frank', PASSWORD)).status).toBe(200);
  });
});

describe('spraying many accounts from one address', () => {
  it('is stopped after 100 failures, while accounts that logged in from there lately still get in', async () => {
    const studio = await bootCore();
    try {
      expect((await login('carol', PASSWORD, studio)).status).toBe(200);
      expect((await login('erin', PASSWORD, studio)).status).toBe(200);
      for (let i = 0; i < 100; i++) {
        const res = await login(`nobody${i}`, 'Summer2026!', studio);
        if (res.status !== 401) throw new Error(`failure ${i + 1} answered ${res.status}`);
      }
      const stopped = await login('nobody100', 'Summer2026!', studio);
      expect(stopped.status).toBe(429);
      expect(stopped.body.detail).toMatch(/^Too many wrong passwords from this address; try again in \d+ s$/);
      // Carol and Erin logged in from this address before the spray; Frank never did.
      expect((await login('carol', PASSWORD, studio)).status).toBe(200);
      expect((await login('erin', PASSWORD, studio)).status).toBe(200);
      expect((await login('frank', PASSWORD, studio)).status).toBe(429);
    } finally {
      await studio.close();
    }
  });
});

describe('the back-off', () => {
  // The real throttle on a clock the test moves.
  let clock = 0;
  const throttle = () => new LoginThrottle({}, () => clock);
  const fail = (t: LoginThrottle, account: string, address = '192.0.2.1') => t.attempt(account, address);
  const waitOf = (t: LoginThrottle, account: string, address = '192.0.2.1') => {
    try {
      t.attempt(account, address).succeeded();
      return 0;
    } catch (error) {
      if (error instanceof LoginThrottled) return error.retryAfterSeconds;
      throw error;
    }
  };

  it('doubles with each further failure, up to a minute, and is forgotten 15 minutes later', () => {
    clock = 1_000_000;
    const t = throttle();
    for (let i = 0; i < 5; i++) fail(t, 'alice');
    const waits = [];
    for (let i = 0; i < 8; i++) {
      const wait = waitOf(t, 'alice');
      waits.push(wait);
      clock += wait * 1000;
      fail(t, 'alice');
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    clock += 15 * 60_000 + 60_000;
    expect(waitOf(t, 'alice')).toBe(0);
  });

  it('does not let guesses from elsewhere keep an account waiting at the address it logs in from', () => {
    clock = 5_000_000;
    const t = throttle();
    t.attempt('alice', '192.0.2.1').succeeded();
    for (let i = 0; i < 5; i++) fail(t, 'alice', '198.51.100.7');
    expect(() => t.attempt('alice', '198.51.100.9')).toThrow(LoginThrottled);
    expect(waitOf(t, 'alice', '192.0.2.1')).toBe(0);
  });

  it('lets parallel guesses through the check only as far as the failures allow', () => {
    clock = 9_000_000;
    const t = throttle();
    // Five guesses under way at once, none answered yet: the sixth is already refused.
    for (let i = 0; i < 5; i++) t.attempt('bob', '192.0.2.1');
    expect(() => t.attempt('bob', '192.0.2.1')).toThrow(LoginThrottled);
  });
});
