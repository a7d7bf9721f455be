import nodemailer from 'nodemailer';
import type { MailSettings } from '@pipewright/sdk';

export interface OutgoingMail {
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
}

/** Sends mail; rejects when the mail server cannot be reached or refuses the message. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** A mailer over the operator's SMTP server (SMTP_URL), one connection per message. */
export function smtpMailer(settings: MailSettings): Mailer {
  const transport = nodemailer.createTransport(
    {
      url: settings.smtpUrl,
      // nodemailer waits minutes by default; a mail server that does not answer within seconds is down.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    },
    { from: settings.from },
  );
  return {
    async send(mail) {
      await transport.sendMail(mail);
    },
    close() {
      transport.close();
    },
  };
}
