import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { PASSWORD, login } from './helpers.js';
import { SmtpSink } from './smtp-sink.js';
import { usersRef } from '../src/api.js';

// Password reset against a real SMTP server (Python's smtpd in a child process): the mail is read as it arrived.

let sink: SmtpSink;
let core: TestCore;

const RESET_URL = 'https://pipewright.studio.test/passwordReset';
const NEW_PASSWORD = 'a brand new secret';

async function person(
  name: string,
  attrib: Record<string, unknown>,
  data: Record<string, unknown> = {},
  active = true,
) {
  const users = core.services.get(usersRef);
  await users.create({ name, password: PASSWORD, attrib, data });
  if (!active) await users.update(name, { active: false });
}

const ask = (email: string, url = RESET_URL) =>
  core.request('POST', '/api/users/passwordResetRequest', { body: { email, url } });
const reset = (body: Record<string, unknown>) => core.request('POST', '/api/users/passwordReset', { body });

/** The token of the link in a mail, checking that the link is the requested url with ?token= added. */
function tokenOf(text: string | null, url = RESET_URL): string {
  const escaped = url.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&');
  const match = new RegExp(`${escaped}[?&]token=([0-9a-f]{64})`).exec(text ?? '');
  if (!match) throw new Error(`no reset link in: ${text}`);
  return match[1];
}

beforeAll(async () => {
  sink = await SmtpSink.start();
  core = await bootTestCore({
    addons: ['users'],
    config: {
      smtpUrl: sink.url,
      mailFrom: 'Studio Pipeline <pipeline@studio.test>',
      publicUrl: 'https://pipewright.studio.test',
    },
  });
  await person('dana', { email: 'dana@studio.test', fullName: 'Dana Scully' });
  await person('erin', { email: 'erin@studio.test' });
  await person('gone', { email: 'gone@studio.test' }, {}, false);
  await person('render', { email: 'render@studio.test' }, { isService: true });
  await person('frank', { email: 'frank@studio.test' });
  await person('gina', { email: 'gina@studio.test' });
});
afterAll(async () => {
  await core?.close();
  sink?.stop();
});

describe('asking for a reset link', () => {
  it('mails a one-time link built from the url, to the address of the account', async () => {
    const res = await ask('Dana@Studio.test');
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const mail = await sink.next('dana@studio.test');
    expect(mail.from).toBe('pipeline@studio.test');
    expect(mail.headerFrom).toBe('Studio Pipeline <pipeline@studio.test>');
    expect(mail.headerTo).toBe('Dana Scully <dana@studio.test>');
    expect(mail.subject).toBe('Reset your Pipewright password');
    expect(mail.text).toContain('Hello Dana Scully');
    const token = tokenOf(mail.text);
    expect(mail.html).toContain(`href="${RESET_URL}?token=${token}"`);

    // Only a hash of the token is stored.
    const rows = await core.db.selectFrom('one_time_tokens').selectAll().execute();
    expect(rows.some((row) => row.token_hash === token)).toBe(false);
    expect(rows.find((row) => row.user_name === 'dana')).toMatchObject({
      purpose: 'password-reset',
      token_hash: createHash('sha256').update(token).digest('hex'),
    });
  });

  it('keeps a query string the url already has', async () => {
    expect((await ask('erin@studio.test', 'https://pipewright.studio.test/app/?page=reset')).status).toBe(
      200,
    );
    const mail = await sink.next('erin@studio.test');
    expect(mail.text).toMatch(/https:\/\/pipewright\.studio\.test\/app\/\?page=reset&token=[0-9a-f]{64}/);
  });

  it('answers an unknown, inactive or service address exactly as a known one, and mails nothing there', async () => {
    const known = await ask('frank@studio.test');
    for (const email of ['nobody@studio.test', 'gone@studio.test', 'render@studio.test']) {
      const res = await ask(email);
      expect({ status: res.status, body: res.text }).toEqual({ status: known.status, body: known.text });
    }
    const issued = await core.db.selectFrom('one_time_tokens').select('user_name').execute();
    expect(issued.map((row) => row.user_name).sort()).toEqual(['dana', 'erin', 'frank']);
    // Mail to an address goes out before the answer to a later request: once a later one has arrived, nothing
    // else is on its way.
    await ask('gina@studio.test');
    await sink.next('gina@studio.test');
    await sink.next('frank@studio.test');
    expect(sink.to('nobody@studio.test')).toEqual([]);
    expect(sink.to('gone@studio.test')).toEqual([]);
    expect(sink.to('render@studio.test')).toEqual([]);
  });

  it('sends nothing more within a minute, and afterwards only the newest link works', async () => {
    const tokensOf = async (name: string) =>
      (
        await core.db
          .selectFrom('one_time_tokens')
          .select('token_hash')
          .where('user_name', '=', name)
          .execute()
      ).map((row) => row.token_hash);
    const before = await tokensOf('erin');
    expect((await ask('erin@studio.test')).status).toBe(200);
    expect(await tokensOf('erin')).toEqual(before);
    await person('hank', { email: 'hank@studio.test' });
    await ask('hank@studio.test');
    await sink.next('hank@studio.test');
    expect(sink.to('erin@studio.test')).toHaveLength(1);

    const first = tokenOf(
      sink.to('erin@studio.test')[0].text,
      'https://pipewright.studio.test/app/?page=reset',
    );
    await core.db
      .updateTable('one_time_tokens')
      .set({ created_at: new Date(Date.now() - 61_000) })
      .where('user_name', '=', 'erin')
      .execute();
    await ask('erin@studio.test');
    const second = tokenOf((await sink.next('erin@studio.test', 1)).text);
    expect(second).not.toBe(first);
    expect((await reset({ token: first })).status).toBe(403);
    expect((await reset({ token: second })).body).toEqual({
      detail: 'Token is valid',
      error: null,
      token: null,
      user: null,
      redirectUrl: null,
    });
  });

  it('validates the request with 422', async () => {
    const missing = await core.request('POST', '/api/users/passwordResetRequest', {
      body: { email: 'dana@studio.test' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: any) => e.loc)).toEqual([['body', 'url']]);
    // Any text is an address, as in AYON: one nobody has (blank included) mails nobody, with the same answer.
    await person('blank', { email: '' });
    for (const email of ['not an address', '', ' ']) {
      expect((await ask(email, 'https://pipewright.studio.test/passwordReset')).status).toBe(200);
    }
    expect(
      await core.db.selectFrom('one_time_tokens').where('user_name', '=', 'blank').selectAll().execute(),
    ).toEqual([]);
    const bad = await core.request('POST', '/api/users/passwordResetRequest', {
      body: { email: 'dana@studio.test', url: 'ftp://studio.test/reset' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.loc.join('.'))).toEqual(['body.url']);
    // A link to another site would give the token of whoever clicks it to that site: only this server's address.
    await person('ivan', { email: 'ivan@studio.test' });
    for (const elsewhere of [
      'https://evil.test/passwordReset',
      'http://pipewright.studio.test/passwordReset',
    ]) {
      const res = await ask('ivan@studio.test', elsewhere);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        {
          loc: ['body', 'url'],
          msg: 'must be an address of this server (https://pipewright.studio.test)',
          type: 'url_origin',
        },
      ]);
    }
    expect(
      await core.db.selectFrom('one_time_tokens').where('user_name', '=', 'ivan').selectAll().execute(),
    ).toEqual([]);
    expect(sink.to('ivan@studio.test')).toEqual([]);
    const hostless = await ask('dana@studio.test', 'https://');
    expect(hostless.status).toBe(422);
    expect(hostless.body.errors).toEqual([
      { loc: ['body', 'url'], msg: 'must be an http or https URL', type: 'url_parsing' },
    ]);
  });
});

describe('resetting the password', () => {
  let token: string;
  beforeAll(() => {
    token = tokenOf(sink.to('dana@studio.test')[0].text);
  });

  it('checks a token without a password, and uses nothing up', async () => {
    const res = await reset({ token });
    expect(res.status).toBe(200);
    // AYON's LoginResponseModel, its unset fields null
    expect(res.body).toEqual({
      detail: 'Token is valid',
      error: null,
      token: null,
      user: null,
      redirectUrl: null,
    });
    expect((await reset({ token })).status).toBe(200);
  });

  it('holds a new password to the password rules', async () => {
    const short = await reset({ token, password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors[0].loc).toEqual(['body', 'password']);
    const noToken = await reset({ password: NEW_PASSWORD });
    expect(noToken.status).toBe(422);
    expect(noToken.body.errors[0].loc).toEqual(['body', 'token']);
  });

  it('sets the password, ends every session, logs in, and works once', async () => {
    const oldSession = await login(core, 'dana');
    const res = await reset({ token, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      detail: 'Password changed',
      error: null,
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      user: expect.objectContaining({ name: 'dana', hasPassword: true }),
      redirectUrl: null,
    });
    expect((await core.request('GET', '/api/users/me', { token: res.body.token })).body.name).toBe('dana');
    expect((await core.request('GET', '/api/users/me', { token: oldSession })).status).toBe(401);
    expect(
      (await core.request('POST', '/api/auth/login', { body: { name: 'dana', password: PASSWORD } })).status,
    ).toBe(401);
    expect(await login(core, 'dana', NEW_PASSWORD)).toMatch(/^[0-9a-f]{64}$/);

    const again = await reset({ token, password: 'yet another secret' });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ code: 403, detail: 'The password reset link is invalid or has expired' });
  });

  it('refuses an unknown or expired token with 403', async () => {
    expect((await reset({ token: 'f'.repeat(64), password: NEW_PASSWORD })).status).toBe(403);
    expect((await reset({ token: 'not even hex' })).status).toBe(403);
    const frank = tokenOf(sink.to('frank@studio.test')[0].text);
    await core.db
      .updateTable('one_time_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_name', '=', 'frank')
      .execute();
    expect((await reset({ token: frank, password: NEW_PASSWORD })).status).toBe(403);
    expect(
      (await core.request('POST', '/api/auth/login', { body: { name: 'frank', password: PASSWORD } })).status,
    ).toBe(200);
  });

  it('keeps a link working for a renamed user, and ends it with a deleted or deactivated one', async () => {
    const admin = await (async () => {
      await person('root', {}, { isAdmin: true });
      return login(core, 'root');
    })();
    const gina = tokenOf(sink.to('gina@studio.test')[0].text);
    expect(
      (await core.request('PATCH', '/api/users/gina/rename', { token: admin, body: { newName: 'georgina' } }))
        .status,
    ).toBe(204);
    const renamed = await reset({ token: gina, password: NEW_PASSWORD });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user.name).toBe('georgina');

    await core.db
      .updateTable('one_time_tokens')
      .set({ created_at: new Date(Date.now() - 61_000) })
      .execute();
    await ask('frank@studio.test');
    const frank = tokenOf((await sink.next('frank@studio.test', 1)).text);
    const linksOf = (name: string) =>
      core.db.selectFrom('one_time_tokens').select('user_name').where('user_name', '=', name).execute();
    expect(await linksOf('frank')).toHaveLength(1);
    expect(
      (await core.request('PATCH', '/api/users/frank', { token: admin, body: { active: false } })).status,
    ).toBe(204);
    expect(await linksOf('frank')).toEqual([]);
    expect((await reset({ token: frank })).status).toBe(403);

    await ask('erin@studio.test');
    await sink.next('erin@studio.test', 2);
    expect(await linksOf('erin')).toHaveLength(1);
    expect((await core.request('DELETE', '/api/users/erin', { token: admin })).status).toBe(204);
    expect(await linksOf('erin')).toEqual([]);
  });
});

describe('a server without a mail server', () => {
  it('says so with 503 for every address, and still refuses bad tokens with 403', async () => {
    const bare = await bootTestCore({ addons: ['users'], config: { smtpUrl: null } });
    try {
      const users = bare.services.get(usersRef);
      await bare.db
        .transaction()
        .execute(() =>
          users.create({ name: 'dana', password: PASSWORD, attrib: { email: 'dana@studio.test' } }),
        );
      for (const email of ['dana@studio.test', 'nobody@studio.test']) {
        const res = await bare.request('POST', '/api/users/passwordResetRequest', {
          body: { email, url: RESET_URL },
        });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          code: 503,
          detail: expect.stringContaining('no mail server configured (SMTP_URL)'),
        });
      }
      expect(await bare.db.selectFrom('one_time_tokens').selectAll().execute()).toEqual([]);
      expect(
        (await bare.request('POST', '/api/users/passwordReset', { body: { token: 'f'.repeat(64) } })).status,
      ).toBe(403);
    } finally {
      await bare.close();
    }
  });

  it('refuses with 503 to mail links while the server does not know its public address', async () => {
    const unsure = await bootTestCore({ addons: ['users'], config: { smtpUrl: sink.url, publicUrl: null } });
    try {
      const users = unsure.services.get(usersRef);
      await unsure.db
        .transaction()
        .execute(() =>
          users.create({ name: 'hana', password: PASSWORD, attrib: { email: 'hana@studio.test' } }),
        );
      const res = await unsure.request('POST', '/api/users/passwordResetRequest', {
        body: { email: 'hana@studio.test', url: RESET_URL },
      });
      expect(res.status).toBe(503);
      expect(res.body.detail).toContain('PUBLIC_URL');
      expect(await unsure.db.selectFrom('one_time_tokens').selectAll().execute()).toEqual([]);
    } finally {
      await unsure.close();
    }
  });
});
