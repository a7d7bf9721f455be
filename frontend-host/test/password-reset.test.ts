import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { TestCore } from '@pipewright/core/testing';
// The users addon's real SMTP server for tests (Python's smtpd in a child process).
import { SmtpSink } from '../../plugins/users/test/smtp-sink';
import { closeAll, openBrowser, startWebApp, type BrowserSession } from './browser';
import { usersRef } from '@pipewright/plugin-users/api';

// A forgotten password, end to end: the login page, the mail as a real SMTP server received it, the page its link
// opens, and the new password logging the user in.

const USER = { name: 'dana', email: 'dana@studio.test', password: 'the old password' };
const NEW_PASSWORD = 'a brand new password';

let sink: SmtpSink;
let core: TestCore;
let base: string;
let session: BrowserSession;
let page: Page;

beforeAll(async () => {
  sink = await SmtpSink.start();
  // The server must know its public address before it starts: a config of the base URL has the port chosen first.
  ({ core, base } = await startWebApp({
    addons: [],
    screens: [],
    config: (url) => ({ smtpUrl: sink.url, mailFrom: 'Studio <pipeline@studio.test>', publicUrl: url }),
  }));
  const users = core.services.get(usersRef);
  await users.create({ name: 'admin', password: 'an admin password', data: { isAdmin: true } });
  await users.create({
    name: USER.name,
    password: USER.password,
    attrib: { email: USER.email, fullName: 'Dana Scully' },
  });
  session = await openBrowser(base);
  page = session.page;
}, 120_000);

afterAll(async () => {
  await closeAll(session, core);
  sink?.stop();
});

const login = (password: string) =>
  core.request('POST', '/api/auth/login', { body: { name: USER.name, password } });

describe('a forgotten password', () => {
  let link: string;

  it('is reset by a link mailed from the login page', async () => {
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(USER.email);
    await page.getByRole('button', { name: 'Mail me a link' }).click();
    await page.getByText('If an account has this address, a link').waitFor();

    const mail = await sink.next(USER.email);
    link = /http:\/\/127\.0\.0\.1:\d+\/passwordReset\?token=[0-9a-f]{64}/.exec(mail.text ?? '')![0];
    expect(link.startsWith(`${base}/passwordReset?token=`)).toBe(true);
  });

  it('opens a page that sets the new password and logs the user in, leaving the token out of the address', async () => {
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat it', { exact: true }).fill('a different password');
    await page.getByRole('button', { name: 'Save and log in' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    expect((await login(USER.password)).status).toBe(200);

    await page.getByLabel('Repeat it', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save and log in' }).click();
    await page.getByRole('heading', { name: 'Welcome, Dana Scully' }).waitFor();
    expect(page.url()).toBe(`${base}/`);
    expect((await login(USER.password)).status).toBe(401);
    expect((await login(NEW_PASSWORD)).status).toBe(200);
  });

  it('says a used link is no good any more', async () => {
    await page.goto(link);
    await page.getByText('This link is invalid, was used already or has expired').waitFor();
    await page.getByRole('button', { name: 'Back to log in' }).click();
    expect(page.url()).toBe(`${base}/`);
    expect(session.pageErrors).toEqual([]);
    expect(session.foreignRequests).toEqual([]);
  });
});
