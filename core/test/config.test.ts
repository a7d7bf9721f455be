import { describe, expect, it } from '@jest/globals';
import { readConfig } from '../src/config.js';

// Mail settings are read once at start-up: a typo must stop the server there, not at the first password reset.
describe('mail and public address settings', () => {
  it('reads SMTP_URL and PUBLIC_URL, keeping only the origin of the public address', () => {
    const config = readConfig({
      SMTP_URL: 'smtps://pipeline:secret@mail.studio.example:465',
      MAIL_FROM: 'Studio <pipeline@studio.example>',
      PUBLIC_URL: 'https://pipewright.studio.example/some/page?x=1',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtps://pipeline:secret@mail.studio.example:465',
      mailFrom: 'Studio <pipeline@studio.example>',
      publicUrl: 'https://pipewright.studio.example',
    });
    expect(readConfig({})).toMatchObject({ smtpUrl: null, publicUrl: null });
  });

  it('refuses a malformed SMTP_URL without repeating the password in it', () => {
    expect(() => readConfig({ SMTP_URL: 'mail.studio.example:secret' })).toThrow(/SMTP_URL must be an smtp/);
    expect(() => readConfig({ SMTP_URL: 'http://pipeline:hunter2@mail.studio.example' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });

  it('refuses a PUBLIC_URL that is not an http or https address', () => {
    expect(() => readConfig({ PUBLIC_URL: 'pipewright.studio.example' })).toThrow(/PUBLIC_URL must be/);
    expect(() => readConfig({ PUBLIC_URL: 'ftp://pipewright.studio.example' })).toThrow(/PUBLIC_URL must be/);
  });
});

describe('TRUST_PROXY', () => {
  it("is off by default and reads a hop count or the proxies' addresses", () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(readConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toBe(
      '10.0.0.1, 192.168.0.0/16',
    );
  });
});
